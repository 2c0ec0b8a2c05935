// Keeps a model's NetworkPolicy state from informers: the policies themselves and every namespace's labels (what
// a CNI's policy agent watches: calico-node, ovnkube-node, azure-npm).

import type { NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { ClusterNetwork } from '../model/cluster-network.js';
import { followPoliciesInHns } from './hns-acls.js';

export function feedPolicies(net: ClusterNetwork, policies: Informer<KubeObject>, namespaces: Informer<KubeObject>): void {
  const onPolicy = (o: KubeObject, gone = false) =>
    net.policies.set(o.metadata.namespace ?? 'default', o.metadata.name ?? '', gone ? undefined : (o as unknown as NetworkPolicy));
  policies.addHandler({ add: (o) => onPolicy(o), update: (_old, o) => onPolicy(o), delete: (o) => onPolicy(o, true) });
  const onNamespace = (o: KubeObject, gone = false) => net.policies.setNamespace(o.metadata.name ?? '', gone ? null : (o.metadata.labels ?? {}));
  namespaces.addHandler({ add: (o) => onNamespace(o), update: (_old, o) => onNamespace(o), delete: (o) => onNamespace(o, true) });
  // Calico for Windows programs what it enforces into each endpoint's HNS policies.
  followPoliciesInHns(net);
}
