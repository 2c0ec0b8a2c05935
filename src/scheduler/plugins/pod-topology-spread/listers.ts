// Read-only views of the API objects PodTopologySpread and InterPodAffinity consult besides nodes and pods: Services
// and workload controllers for the default spreading selector, Namespaces for namespaceSelector terms (kube-scheduler
// reads them from its SharedInformerFactory: podtopologyspread/plugin.go setListers, interpodaffinity/plugin.go).

import type { ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { Namespace, Service } from 'kubernetes-types/core/v1.js';
import type { InformerFactory } from '../../../client/informer.js';
import { R } from '../../../client/resources.js';
import type { KubeObject } from '../../../api/types.js';
import type { Handle, ObjectListers } from '../../interfaces.js';

export type { ObjectListers };

/** The listers a handle carries (none in unit tests that build a bare handle). */
export function listersOf(handle: Handle | undefined): ObjectListers {
  return handle?.listers ?? {};
}

/**
 * Listers backed by a (scheduler's) informer factory; call before the factory starts so the informers are started too.
 * Only resources winkube serves get informers (one on an unserved resource would never sync and would hold up the
 * scheduler's start): ReplicationControllers and StatefulSets read as none until they are registered.
 */
export function informerListers(informers: InformerFactory): ObjectListers {
  const svc = informers.for<Service & KubeObject>(R.services);
  const rs = informers.for<ReplicaSet & KubeObject>(R.replicasets);
  const ns = informers.for<Namespace & KubeObject>(R.namespaces);
  return {
    services: (namespace) => svc.list(namespace),
    replicaSet: (namespace, name) => rs.get(`${namespace}/${name}`),
    namespace: (name) => ns.get(name),
    namespaces: () => ns.list(),
  };
}
