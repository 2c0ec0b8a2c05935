// The built-in resources winkube serves: one declaration each. Strategies and Table printers are looked up by
// `<plural>` (core group) or `<group>/<plural>`, so behaviour lives beside its resource family.

import type { ResourceDecl, ScaleDecl, Strategy, TableDef } from './interfaces.js';
import { hpaV1Codec } from './conversions/autoscaling.js';
import { eventsV1Codec } from './conversions/events.js';
import { formatLabelSelector } from './labels.js';
import type { KubeObject } from './types.js';

export interface BuiltinParts {
  strategies: Record<string, Strategy>;
  tableFor(group: string, plural: string): TableDef;
}

type Decl = Omit<ResourceDecl, 'strategy' | 'table' | 'singular'> & { singular?: string };

const ALL = ['all'];

const replicasScale: ScaleDecl = {
  specReplicasPath: ['spec', 'replicas'],
  statusReplicasPath: ['status', 'replicas'],
  selector: (obj: KubeObject) => formatLabelSelector((obj.spec as { selector?: Parameters<typeof formatLabelSelector>[0] } | undefined)?.selector),
};

/** An equality-based selector (ReplicationController) as Scale.status.selector: `k=v` pairs, sorted. */
const formatMapSelector = (sel: Record<string, string> | undefined): string =>
  Object.entries(sel ?? {}).map(([k, v]) => `${k}=${v}`).sort().join(',');

const core = (kind: string, plural: string, rest: Partial<Decl> = {}): Decl => ({
  group: '', version: 'v1', kind, plural, namespaced: true, definition: `io.k8s.api.core.v1.${kind}`, ...rest,
});

const DECLS: Decl[] = [
  // Namespaces have no deletecollection (pkg/registry/core/namespace/storage REST implements no DeleteCollection).
  core('Namespace', 'namespaces', {
    namespaced: false, shortNames: ['ns'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: { status: true, extra: ['finalize'] },
  }),
  core('Node', 'nodes', { namespaced: false, shortNames: ['no'], subresources: { status: true, extra: ['proxy'] } }),
  core('Pod', 'pods', {
    shortNames: ['po'], categories: ALL,
    subresources: { status: true, extra: ['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy'] },
  }),
  core('Service', 'services', { shortNames: ['svc'], categories: ALL, subresources: { status: true, extra: ['proxy'] } }),
  core('Endpoints', 'endpoints', { shortNames: ['ep'], singular: 'endpoints' }),
  core('ConfigMap', 'configmaps', { shortNames: ['cm'] }),
  core('Secret', 'secrets'),
  core('ServiceAccount', 'serviceaccounts', { shortNames: ['sa'], subresources: { extra: ['token'] } }),
  core('Event', 'events', { shortNames: ['ev'] }),
  core('LimitRange', 'limitranges', { shortNames: ['limits'] }),
  core('ResourceQuota', 'resourcequotas', { shortNames: ['quota'], subresources: { status: true } }),
  core('ReplicationController', 'replicationcontrollers', {
    shortNames: ['rc'], categories: ALL,
    subresources: { status: true, scale: { ...replicasScale, selector: (obj: KubeObject) => formatMapSelector((obj.spec as { selector?: Record<string, string> } | undefined)?.selector) } },
  }),
  core('PersistentVolume', 'persistentvolumes', { namespaced: false, shortNames: ['pv'], subresources: { status: true } }),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', { shortNames: ['pvc'], subresources: { status: true } }),
  // Not stored: answered by src/apiserver/componentstatus and src/apiserver/legacy-bindings.ts (the API server's
  // customRest), with the verbs kube's REST for them implements (Getter+Lister; Creater).
  core('ComponentStatus', 'componentstatuses', { namespaced: false, shortNames: ['cs'], verbs: ['get', 'list'] }),
  core('Binding', 'bindings', { verbs: ['create'] }),
  {
    group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true, shortNames: ['deploy'],
    categories: ALL, subresources: { status: true, scale: replicasScale }, definition: 'io.k8s.api.apps.v1.Deployment',
  },
  {
    group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true, shortNames: ['rs'],
    categories: ALL, subresources: { status: true, scale: replicasScale }, definition: 'io.k8s.api.apps.v1.ReplicaSet',
  },
  {
    group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true, shortNames: ['ds'],
    categories: ALL, subresources: { status: true }, definition: 'io.k8s.api.apps.v1.DaemonSet',
  },
  {
    group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true, shortNames: ['sts'],
    categories: ALL, subresources: { status: true, scale: replicasScale }, definition: 'io.k8s.api.apps.v1.StatefulSet',
  },
  {
    group: 'apps', version: 'v1', kind: 'ControllerRevision', plural: 'controllerrevisions', namespaced: true,
    definition: 'io.k8s.api.apps.v1.ControllerRevision',
  },
  {
    group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true, categories: ALL,
    subresources: { status: true }, definition: 'io.k8s.api.batch.v1.Job',
  },
  {
    group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true, shortNames: ['cj'],
    categories: ALL, subresources: { status: true }, definition: 'io.k8s.api.batch.v1.CronJob',
  },
  {
    group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true,
    definition: 'io.k8s.api.discovery.v1.EndpointSlice',
  },
  {
    group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'],
    definition: 'io.k8s.api.events.v1.Event', storedAs: { group: '', plural: 'events', codec: eventsV1Codec },
  },
  {
    group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true,
    definition: 'io.k8s.api.coordination.v1.Lease',
  },
  {
    group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', plural: 'certificatesigningrequests', namespaced: false,
    shortNames: ['csr'], subresources: { status: true, extra: ['approval'] }, definition: 'io.k8s.api.certificates.v1.CertificateSigningRequest',
  },
  {
    group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', plural: 'runtimeclasses', namespaced: false,
    definition: 'io.k8s.api.node.v1.RuntimeClass',
  },
  // autoscaling/v2 is stored; autoscaling/v1 is the same object through kube's conversion (v2 first: preferred).
  {
    group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true,
    shortNames: ['hpa'], categories: ALL, subresources: { status: true }, definition: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
  },
  {
    group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true,
    shortNames: ['hpa'], categories: ALL, subresources: { status: true }, definition: 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler',
    storedAs: { group: 'autoscaling', plural: 'horizontalpodautoscalers', codec: hpaV1Codec },
  },
  {
    group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true,
    shortNames: ['pdb'], subresources: { status: true }, definition: 'io.k8s.api.policy.v1.PodDisruptionBudget',
  },
  {
    group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false,
    shortNames: ['sc'], definition: 'io.k8s.api.storage.v1.StorageClass',
  },
  {
    group: 'storage.k8s.io', version: 'v1', kind: 'VolumeAttachment', plural: 'volumeattachments', namespaced: false,
    subresources: { status: true }, definition: 'io.k8s.api.storage.v1.VolumeAttachment',
  },
  {
    group: 'storage.k8s.io', version: 'v1', kind: 'CSIDriver', plural: 'csidrivers', namespaced: false,
    definition: 'io.k8s.api.storage.v1.CSIDriver',
  },
  {
    group: 'storage.k8s.io', version: 'v1', kind: 'CSINode', plural: 'csinodes', namespaced: false,
    definition: 'io.k8s.api.storage.v1.CSINode',
  },
  {
    group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions',
    namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: { status: true },
    definition: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
  },
  {
    group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false,
    shortNames: ['pc'], definition: 'io.k8s.api.scheduling.v1.PriorityClass',
  },
  // RBAC (pkg/registry/rbac): Roles and ClusterRoles print with the default table, as kube prints them.
  ...(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const).map((kind): Decl => ({
    group: 'rbac.authorization.k8s.io', version: 'v1', kind, plural: `${kind.toLowerCase()}s`, namespaced: !kind.startsWith('Cluster'),
    definition: `io.k8s.api.rbac.v1.${kind}`,
  })),
  {
    group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration', plural: 'validatingwebhookconfigurations',
    namespaced: false, categories: ['api-extensions'], definition: 'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration',
  },
  {
    group: 'admissionregistration.k8s.io', version: 'v1', kind: 'MutatingWebhookConfiguration', plural: 'mutatingwebhookconfigurations',
    namespaced: false, categories: ['api-extensions'], definition: 'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration',
  },
  // ValidatingAdmissionPolicy is GA in 1.30 (admissionregistration.k8s.io/v1); MutatingAdmissionPolicy (alpha/beta,
  // off by default through 1.33) is not served.
  {
    group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies',
    namespaced: false, categories: ['api-extensions'], subresources: { status: true },
    definition: 'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy',
  },
  {
    group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings',
    namespaced: false, categories: ['api-extensions'], definition: 'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding',
  },
  // The rest of a default 1.33 cluster's `kubectl api-resources` (networking, flowcontrol, podtemplates, CSI capacity).
  core('PodTemplate', 'podtemplates'),
  ...([['NetworkPolicy', 'networkpolicies', true, ['netpol'], false], ['Ingress', 'ingresses', true, ['ing'], true],
    ['IngressClass', 'ingressclasses', false, [], false], ['IPAddress', 'ipaddresses', false, ['ip'], false],
    ['ServiceCIDR', 'servicecidrs', false, [], true]] as const).map(([kind, plural, namespaced, shortNames, status]): Decl => ({
    group: 'networking.k8s.io', version: 'v1', kind, plural, namespaced, ...(shortNames.length ? { shortNames: [...shortNames] } : {}),
    ...(status ? { subresources: { status: true } } : {}), definition: `io.k8s.api.networking.v1.${kind}`,
  })),
  ...(['FlowSchema', 'PriorityLevelConfiguration'] as const).map((kind): Decl => ({
    group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind, plural: `${kind.toLowerCase()}s`, namespaced: false,
    subresources: { status: true }, definition: `io.k8s.api.flowcontrol.v1.${kind}`,
  })),
  {
    group: 'storage.k8s.io', version: 'v1', kind: 'CSIStorageCapacity', plural: 'csistoragecapacities', namespaced: true,
    definition: 'io.k8s.api.storage.v1.CSIStorageCapacity',
  },
  // kube-aggregator's own group (src/apiserver/aggregator serves what the objects say).
  {
    group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService', plural: 'apiservices', namespaced: false,
    categories: ['api-extensions'], subresources: { status: true }, definition: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
  },
];

export function strategyKey(group: string, plural: string): string {
  return group ? `${group}/${plural}` : plural;
}

export function builtinResources(parts: BuiltinParts): ResourceDecl[] {
  return DECLS.map((d) => ({
    ...d,
    singular: d.singular ?? d.kind.toLowerCase(),
    strategy: parts.strategies[strategyKey(d.group, d.plural)] ?? {},
    table: parts.tableFor(d.group, d.plural),
  }));
}
