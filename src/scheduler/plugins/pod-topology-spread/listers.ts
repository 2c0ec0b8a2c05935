// Read-only views of the API objects PodTopologySpread and InterPodAffinity consult besides nodes and pods: Services
// and workload controllers for the default spreading selector, Namespaces for namespaceSelector terms (kube-scheduler
// reads them from its SharedInformerFactory: podtopologyspread/plugin.go setListers, interpodaffinity/plugin.go).

import type { ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { Namespace, ReplicationController, Service } from 'kubernetes-types/core/v1.js';
import type { InformerFactory } from '../../../client/informer.js';
import type { ResourceType } from '../../../client/interfaces.js';
import { R } from '../../../client/resources.js';
import type { KubeObject } from '../../../api/types.js';
import type { Handle } from '../../interfaces.js';

/** Every member is optional: a missing lister reads as "no such objects", which is what an empty cluster says. */
export interface ObjectListers {
  services?(namespace: string): readonly Service[];
  replicationController?(namespace: string, name: string): ReplicationController | undefined;
  replicaSet?(namespace: string, name: string): ReplicaSet | undefined;
  statefulSet?(namespace: string, name: string): StatefulSet | undefined;
  namespace?(name: string): Namespace | undefined;
  namespaces?(): readonly Namespace[];
}

/**
 * The listers a handle carries. The shared Handle interface has no such member yet, so the scheduler passes them as
 * an extra `listers` property; without it both plugins behave as in a cluster with no Services, controllers or
 * labelled Namespaces.
 */
export function listersOf(handle: Handle | undefined): ObjectListers {
  const extra = handle as (Handle & { listers?: ObjectListers }) | undefined;
  return extra?.listers ?? {};
}

const REPLICATION_CONTROLLERS: ResourceType = { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true };
const STATEFUL_SETS: ResourceType = { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true };

/** Listers backed by a (scheduler's) informer factory; call before the factory starts so the informers are started too. */
export function informerListers(informers: InformerFactory): ObjectListers {
  const svc = informers.for<Service & KubeObject>(R.services);
  const rc = informers.for<ReplicationController & KubeObject>(REPLICATION_CONTROLLERS);
  const rs = informers.for<ReplicaSet & KubeObject>(R.replicasets);
  const ss = informers.for<StatefulSet & KubeObject>(STATEFUL_SETS);
  const ns = informers.for<Namespace & KubeObject>(R.namespaces);
  return {
    services: (namespace) => svc.list(namespace),
    replicationController: (namespace, name) => rc.get(`${namespace}/${name}`),
    replicaSet: (namespace, name) => rs.get(`${namespace}/${name}`),
    statefulSet: (namespace, name) => ss.get(`${namespace}/${name}`),
    namespace: (name) => ns.get(name),
    namespaces: () => ns.list(),
  };
}
