// What winkube's own components need beyond kube's bootstrap policy, as explicit minimal ClusterRoles: the node agent's
// shared informers (one cluster-wide watch per resource for all the kubelets it hosts, where each real kubelet would
// watch only its own objects), the dashboard's reads, and the emulated storage add-ons' upstream roles. Written at
// start like kubeadm's own RBAC objects.

import { isAlreadyExists, isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Client, ResourceType } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { NODE_AGENTS_ORG } from '../bootstrap/node-agent-identity.js';

const RBAC = 'rbac.authorization.k8s.io';
const READ = ['get', 'list', 'watch'];

/** The group of node agents' own identity (not system:nodes: the Node authorizer is what limits kubelets). */
export const NODE_AGENTS_GROUP = NODE_AGENTS_ORG;
export const NODE_AGENT_USER = 'system:winkube:node-agent';
export const NODE_AGENT_ROLE = 'winkube:node-agent-informers';
export const DASHBOARD_USER = 'system:winkube:dashboard';
export const DASHBOARD_ROLE = 'winkube:dashboard';
/** The stop-gap that bound broad rights to every node before the Node authorizer; removed where it still exists. */
const LEGACY_NODE_AGENT_BINDING = 'winkube:node-agent';

function objects(): [ResourceType, KubeObject][] {
  const binding = (name: string, kind: 'User' | 'Group', subject: string): [ResourceType, KubeObject] => [R.clusterrolebindings, {
    apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name }, subjects: [{ apiGroup: RBAC, kind, name: subject }],
  } as KubeObject];
  return [
    [R.clusterroles, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: NODE_AGENT_ROLE },
      rules: [
        // What src/node/agent.ts's informers watch; kubelets read through them, then act as system:node:<name>.
        { apiGroups: [''], resources: ['pods', 'nodes', 'configmaps', 'secrets', 'services', 'namespaces', 'persistentvolumeclaims', 'persistentvolumes'], verbs: READ },
        // src/node/join/cluster-settings.ts: where pods reach the API server (the `kubernetes` Endpoints).
        { apiGroups: [''], resources: ['endpoints'], verbs: ['get'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ },
        // The CNI's policy agent (calico-node, ovnkube-node, azure-npm) watches policies to enforce them.
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: READ },
        { apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'], verbs: READ },
        { apiGroups: ['storage.k8s.io'], resources: ['csidrivers', 'volumeattachments'], verbs: READ },
        // The labels NodeRestriction refuses a kubelet (node-role.kubernetes.io/*), set after registration as kubeadm does.
        { apiGroups: [''], resources: ['nodes'], verbs: ['patch'] },
      ],
    } as KubeObject],
    binding(NODE_AGENT_ROLE, 'Group', NODE_AGENTS_GROUP),
    [R.clusterroles, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: DASHBOARD_ROLE },
      // src/dashboard/snapshot-source.ts: nodes, pods, deployments and events everywhere; nothing it writes.
      rules: [
        { apiGroups: [''], resources: ['nodes', 'pods', 'events'], verbs: READ },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: READ },
      ],
    } as KubeObject],
    binding(DASHBOARD_ROLE, 'User', DASHBOARD_USER),
    ...addonRoles(),
  ];
}

/**
 * The emulated add-ons that run beside the controllers act as their own kube-system ServiceAccounts (made by the
 * controller-manager, src/controllers/identity.ts), bound to the ClusterRoles their upstream manifests install:
 * rancher/local-path-provisioner deploy/local-path-storage.yaml, and kubernetes-csi external-provisioner,
 * external-attacher and external-resizer deploy/kubernetes/rbac.yaml. Where winkube's emulation writes with `update`
 * instead of the sidecar's `patch`, or sets a claim's selected-node itself, the verb is added beside upstream's.
 */
function addonRoles(): [ResourceType, KubeObject][] {
  const rule = (apiGroups: string[], resources: string, verbs: string) => ({ apiGroups, resources: resources.split(' '), verbs: verbs.split(' ') });
  const roles: [role: string, sa: string, rules: ReturnType<typeof rule>[]][] = [
    ['local-path-provisioner-role', 'local-path-provisioner', [
      rule([''], 'nodes persistentvolumeclaims configmaps pods pods/log', 'get list watch'),
      rule([''], 'persistentvolumes', 'get list watch create patch update delete'),
      rule([''], 'persistentvolumeclaims', 'patch'),
      // The helper pods (upstream's Role in local-path-storage grants pods create/delete).
      rule([''], 'pods', 'create delete'),
      rule([''], 'events', 'create patch'),
      rule(['storage.k8s.io'], 'storageclasses', 'get list watch'),
    ]],
    ['external-provisioner-runner', 'csi-provisioner', [
      rule([''], 'persistentvolumes', 'get list watch create delete'),
      rule([''], 'persistentvolumeclaims', 'get list watch update'),
      rule(['storage.k8s.io'], 'storageclasses', 'get list watch'),
      rule([''], 'events', 'list watch create update patch'),
      rule(['storage.k8s.io'], 'csinodes', 'get list watch'),
      rule([''], 'nodes', 'get list watch'),
      rule(['storage.k8s.io'], 'volumeattachments', 'get list watch'),
    ]],
    ['external-attacher-runner', 'csi-attacher', [
      rule([''], 'persistentvolumes', 'get list watch patch'),
      rule(['storage.k8s.io'], 'csinodes', 'get list watch'),
      rule(['storage.k8s.io'], 'volumeattachments', 'get list watch patch update'),
      rule(['storage.k8s.io'], 'volumeattachments/status', 'patch update'),
    ]],
    ['external-resizer-runner', 'csi-resizer', [
      rule([''], 'persistentvolumes', 'get list watch patch update'),
      rule([''], 'persistentvolumeclaims', 'get list watch'),
      rule([''], 'pods', 'get list watch'),
      rule([''], 'persistentvolumeclaims/status', 'patch update'),
      rule([''], 'events', 'list watch create update patch'),
    ]],
  ];
  return roles.flatMap(([name, sa, rules]): [ResourceType, KubeObject][] => [
    [R.clusterroles, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules } as KubeObject],
    [R.clusterrolebindings, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name }, subjects: [{ kind: 'ServiceAccount', name: sa, namespace: 'kube-system' }],
    } as KubeObject],
  ]);
}

/** Idempotent; a server without the RBAC API (404 on the resource) is left alone. */
export async function ensureComponentRbac(client: Client): Promise<void> {
  for (const [rt, obj] of objects()) {
    try {
      await client.create(rt, obj.metadata.namespace, obj);
    } catch (err) {
      if (!isAlreadyExists(err) && !isNotFound(err)) throw err;
    }
  }
  // A data directory from before the Node authorizer: its binding gave every node every secret through RBAC.
  for (const rt of [R.clusterrolebindings, R.clusterroles]) {
    await client.delete(rt, undefined, LEGACY_NODE_AGENT_BINDING).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
}
