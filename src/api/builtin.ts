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
  core('ServiceAccount', 'serviceaccounts', { shortNames: ['sa'] }),
  core('Event', 'events', { shortNames: ['ev'] }),
  core('LimitRange', 'limitranges', { shortNames: ['limits'] }),
  core('ResourceQuota', 'resourcequotas', { shortNames: ['quota'], subresources: { status: true } }),
  core('ReplicationController', 'replicationcontrollers', {
    shortNames: ['rc'], categories: ALL,
    subresources: { status: true, scale: { ...replicasScale, selector: (obj: KubeObject) => formatMapSelector((obj.spec as { selector?: Record<string, string> } | undefined)?.selector) } },
  }),
  core('PersistentVolume', 'persistentvolumes', { namespaced: false, shortNames: ['pv'], subresources: { status: true } }),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', { shortNames: ['pvc'], subresources: { status: true } }),
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
    group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false,
    shortNames: ['pc'], definition: 'io.k8s.api.scheduling.v1.PriorityClass',
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
