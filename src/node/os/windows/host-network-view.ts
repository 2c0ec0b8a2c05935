// What a HostProcess container sees of its node's networking: the HNS networks the node's CNI setup made and the
// node's host-local IPAM (src/network), read live, so Get-HnsNetwork and host-local.exe agree with the node's services.

import type { NodeNetwork } from '../../../network/cni/node-network.js';
import type { HostLocalAllocator } from '../../../network/ipam/host-local.js';
import type { HostNetworkView } from '../../shell/interfaces.js';

export function hostNetworkView(nodeNetwork: NodeNetwork, ipam: HostLocalAllocator): HostNetworkView {
  return {
    hnsNetworks: () => [...(nodeNetwork.hnsState?.networks.values() ?? [])].map((n) => ({
      id: n.id, name: n.name, type: n.type, managementIP: n.managementIP,
      subnets: n.subnets.map((s) => ({ addressPrefix: s.ipAddressPrefix, gatewayAddress: s.gatewayAddress })),
    })),
    hnsLoadBalancers: () => [...(nodeNetwork.hnsState?.loadBalancers.values() ?? [])].map((lb) => ({ id: lb.id, description: lb.description ?? '' })),
    ipamAdd: (owner) => {
      try {
        return { ip: ipam.allocate(owner), prefixLength: ipam.prefixLength, gateway: ipam.gateway };
      } catch (e) {
        return { error: (e as Error).message };
      }
    },
  };
}
