// NodeRestriction (plugin/pkg/admission/noderestriction/admission.go): a kubelet may write only its own Node, Lease
// and CSINode, the status of pods bound to it and mirror pods of its own, tokens for its pods' ServiceAccounts, and
// never labels outside the kubelet's set (src/api/kubelet-labels.ts).

import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { StatusError } from '../../api/errors.js';
import { forbiddenLabels } from '../../api/kubelet-labels.js';
import type { KubeObject } from '../../api/types.js';
import { deepEqual } from '../../api/validation/object-meta.js';
import { NODE_LEASE_NAMESPACE } from '../authz/node/authorizer.js';
import { nodeIdentity } from '../authz/node/identity.js';
import { podReferences } from '../authz/node/pod-references.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';

export const NAME = 'NodeRestriction';
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** v1.LabelNamespaceNodeRestriction: labels only administrators set, to steer workloads to trusted nodes. */
/** apiequality.Semantic.DeepEqual: empty and absent are the same. */
const same = deepEqual;

export function nodeRestriction(): AdmissionPlugin {
  return {
    name: NAME,
    admit: (a, lookup) => {
      if (a.operation === 'CONNECT') return;
      const { isNode, nodeName } = nodeIdentity(a.user);
      if (!isNode) return;
      const forbid = (why: string): never => {
        throw StatusError.forbidden(a.decl.group, a.decl.plural, a.name || (a.object?.metadata.name ?? ''), why);
      };
      if (!nodeName) forbid(`could not determine node from user "${a.user.name}"`);
      switch (`${a.decl.group}/${a.decl.plural}`) {
        case '/pods': return admitPod(nodeName, a, lookup, forbid);
        case '/nodes': return admitNode(nodeName, a, forbid);
        case '/persistentvolumeclaims':
          if (a.subresource !== 'status') forbid('may only update PVC status');
          return admitPvcStatus(nodeName, a, forbid);
        case '/serviceaccounts': return admitServiceAccount(nodeName, a, lookup, forbid);
        case 'coordination.k8s.io/leases': {
          if (a.namespace !== NODE_LEASE_NAMESPACE) forbid(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
          const name = a.operation === 'CREATE' ? a.object?.metadata.name : a.name;
          if (name !== nodeName) forbid('can only access node lease with the same name as the requesting node');
          return;
        }
        case 'storage.k8s.io/csinodes': {
          const name = a.operation === 'CREATE' ? a.object?.metadata.name : a.name;
          if (name !== nodeName) forbid('can only access CSINode with the same name as the requesting node');
          return;
        }
      }
    },
  };
}

type Forbid = (why: string) => never;

/** admitPodEviction: a node may evict only pods bound to it; the pod is named by the URL, else by the Eviction. */
function admitPodEviction(node: string, a: AdmissionAttributes, lookup: AdmissionLookup, forbid: Forbid): void {
  if (a.operation !== 'CREATE') forbid(`unexpected operation ${a.operation}`);
  const podName = a.name || a.object?.metadata?.name || '';
  if (!podName) forbid('could not determine pod from request data');
  const existing = lookup.get('', 'pods', a.namespace, podName) as Pod | undefined;
  if (!existing) throw StatusError.notFound('', 'pods', podName);
  if (existing.spec?.nodeName !== node) forbid(`node ${node} can only evict pods with spec.nodeName set to itself`);
}

function admitPod(node: string, a: AdmissionAttributes, lookup: AdmissionLookup, forbid: Forbid): void {
  if (a.subresource === 'status') {
    if (a.operation !== 'UPDATE') forbid(`unexpected operation "${a.operation}"`);
    const old = a.oldObject as Pod | undefined;
    if (old?.spec?.nodeName !== node) forbid(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
    if (!same(old?.metadata?.labels ?? {}, a.object?.metadata.labels ?? {})) forbid(`node "${node}" cannot update labels through pod status`);
    const claims = (p: unknown) => (p as { status?: { resourceClaimStatuses?: unknown } } | undefined)?.status?.resourceClaimStatuses ?? [];
    if (!same(claims(old), claims(a.object))) forbid(`node "${node}" cannot update resource claim statues`);
    return;
  }
  if (a.subresource === 'eviction') return admitPodEviction(node, a, lookup, forbid);
  if (a.subresource) forbid(`unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
  if (a.operation === 'DELETE') {
    const existing = (a.oldObject ?? lookup.get('', 'pods', a.namespace, a.name)) as Pod | undefined;
    if (existing && existing.spec?.nodeName !== node) forbid(`node "${node}" can only delete pods with spec.nodeName set to itself`);
    return;
  }
  if (a.operation !== 'CREATE') forbid(`unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
  admitMirrorPod(node, a.object as unknown as Pod, lookup, forbid);
}

function admitMirrorPod(node: string, pod: Pod, lookup: AdmissionLookup, forbid: Forbid): void {
  if (!(MIRROR_POD_ANNOTATION in (pod.metadata?.annotations ?? {}))) {
    forbid(`pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
  }
  if (pod.spec?.nodeName !== node) forbid(`node "${node}" can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 1) forbid(`node "${node}" can only create pods with a single owner reference set to itself`);
  if (owners.length === 0) forbid(`node "${node}" can only create pods with an owner reference set to itself`);
  const owner = owners[0];
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) forbid(`node "${node}" can only create pods with an owner reference set to itself`);
  if (!owner.controller) forbid(`node "${node}" can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion) forbid(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
  const self = lookup.get('', 'nodes', undefined, node);
  if (!self) throw StatusError.notFound('', 'nodes', node);
  if (owner.uid !== self.metadata.uid) forbid(`node ${node} UID mismatch: expected ${owner.uid} got ${self.metadata.uid}`);
  const refs = podReferences(pod);
  if (pod.spec?.serviceAccountName) forbid(`node "${node}" can not create pods that reference a service account`);
  if (refs.secrets.length) forbid(`node "${node}" can not create pods that reference secrets`);
  if (refs.configMaps.length) forbid(`node "${node}" can not create pods that reference configmaps`);
  const projected = (pod.spec?.volumes ?? []).flatMap((v) => v.projected?.sources ?? []) as { clusterTrustBundle?: unknown }[];
  if (projected.some((s) => s.clusterTrustBundle)) forbid(`node "${node}" can not create pods that reference clustertrustbundles`);
  if ((pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim)) forbid(`node "${node}" can not create pods that reference persistentvolumeclaims`);
}

function admitNode(node: string, a: AdmissionAttributes, forbid: Forbid): void {
  if (a.operation === 'DELETE' ? a.name !== node : (a.name || a.object?.metadata.name) !== node) {
    forbid(`node "${node}" is not allowed to modify node "${a.name || a.object?.metadata.name || ''}"`);
  }
  const obj = a.object as unknown as Node | undefined;
  const old = a.oldObject as unknown as Node | undefined;
  if (a.operation === 'CREATE' && obj) {
    if (obj.spec?.configSource) forbid(`node "${node}" is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(obj.metadata?.labels, undefined);
    if (bad.length) forbid(`node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (a.operation === 'UPDATE' && obj && old) {
    if (obj.spec?.configSource && !same(obj.spec.configSource, old.spec?.configSource)) {
      forbid(`node "${node}" is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!same(obj.spec?.taints, old.spec?.taints)) forbid(`node "${node}" is not allowed to modify taints`);
    const bad = forbiddenLabels(obj.metadata?.labels, old.metadata?.labels);
    // kube's text has no subject here (admission.go admitNode).
    if (bad.length) forbid(`is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

/** Only status.capacity, status.conditions and the expansion-recovery fields may change (admitPVCStatus). */
function admitPvcStatus(node: string, a: AdmissionAttributes, forbid: Forbid): void {
  if (a.operation !== 'UPDATE') forbid(`unexpected operation "${a.operation}"`);
  const strip = (o: KubeObject | undefined) => {
    const c = JSON.parse(JSON.stringify(o ?? {})) as KubeObject & { status?: Record<string, unknown> };
    delete c.metadata.resourceVersion;
    delete c.metadata.managedFields;
    if (c.status) for (const f of ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources']) delete c.status[f];
    return c;
  };
  if (!same(strip(a.oldObject), strip(a.object))) forbid(`node "${node}" is not allowed to update fields other than status.capacity and status.conditions`);
}

function admitServiceAccount(node: string, a: AdmissionAttributes, lookup: AdmissionLookup, forbid: Forbid): void {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
  const ref = (a.object as { spec?: { boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } | null } } | undefined)?.spec?.boundObjectRef;
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) forbid('node requested token not bound to a pod');
  if (!ref!.uid) forbid('node requested token with a pod binding without a uid');
  const pod = lookup.get('', 'pods', a.namespace, ref!.name!) as unknown as Pod | undefined;
  if (!pod) throw StatusError.notFound('', 'pods', ref!.name!);
  if (ref!.uid !== pod.metadata?.uid) {
    forbid(`the UID in the bound object reference (${ref!.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (pod.spec?.nodeName !== node) forbid('node requested token bound to a pod scheduled on a different node');
}
