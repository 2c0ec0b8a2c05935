// A small modelled cluster for tests of the flow model: Linux and Windows nodes with their kube-proxy, pods with
// listeners, built directly in the model (the CNI plugins' own tests cover how endpoints come to exist).

import type { Service } from 'kubernetes-types/core/v1.js';
import type { Listener } from '../../node/shell/interfaces.js';
import { hnsFeatures, hnsVersionOf } from '../hns/features.js';
import { HnsState, hnsGuid } from '../hns/hns-state.js';
import { defaultNetworkProfile, type NodeNetworkProfile } from '../profile.js';
import { IptablesProxier } from '../proxy/iptables/proxier.js';
import type { SliceLike } from '../proxy/service-ports.js';
import { WinKernelProxier } from '../proxy/winkernel/proxier.js';
import { ClusterNetwork } from '../model/cluster-network.js';
import type { NodeNet, PodNet } from '../model/types.js';

export const NOW = () => Date.UTC(2026, 10, 25, 12, 0, 0);

export function modelCluster(): ClusterNetwork {
  return new ClusterNetwork({ serviceCIDR: '10.96.0.0/12', clusterCIDR: '10.244.0.0/16', nodeNetwork: '172.18.0.0/16' });
}

export interface NodeSpec {
  name: string;
  os: 'linux' | 'windows';
  index: number;
  windowsBuild?: string;
  /** The patch level (UBR); undefined is current servicing. */
  windowsUBR?: number;
  network?: Partial<NodeNetworkProfile>;
  minorVersion?: number;
}

/** Adds a node with addresses 172.18.0.<index+2> and pod CIDR 10.244.<index>.0/24, its HNS network and kube-proxy. */
export function addNode(net: ClusterNetwork, s: NodeSpec): NodeNet {
  const ip = `172.18.0.${s.index + 2}`;
  const podCIDR = `10.244.${s.index}.0/24`;
  const base = defaultNetworkProfile(s.os);
  const network: NodeNetworkProfile = { ...base, ...s.network, kubeProxy: { ...base.kubeProxy, ...s.network?.kubeProxy } };
  const node: NodeNet = { name: s.name, os: s.os, ip, podCIDR, windowsBuild: s.windowsBuild, windowsUBR: s.windowsUBR, minorVersion: s.minorVersion ?? 33, network };
  if (s.os === 'windows') {
    const build = s.windowsBuild ?? '10.0.17763';
    const hns = new HnsState(s.name, hnsVersionOf(build, s.windowsUBR));
    const overlay = network.backend === 'vxlan';
    const name = overlay ? `flannel.${network.vni ?? 4096}` : 'cbr0';
    hns.addNetwork({
      id: hnsGuid(s.name, name), name, type: overlay ? 'Overlay' : 'L2Bridge', managementIP: ip, networkAdapterName: 'Ethernet', flags: 0, policies: [],
      subnets: [{ ipAddressPrefix: podCIDR, gatewayAddress: `10.244.${s.index}.1`, policies: [] }],
    });
    node.hns = hns;
    node.winkernel = new WinKernelProxier(
      { name: s.name, nodeIP: ip, computerName: s.name.toUpperCase(), minorVersion: node.minorVersion, hns, features: hnsFeatures(hns.version) },
      { ...network.kubeProxy, networkName: network.kubeProxy.networkName ?? name }, NOW,
    );
  } else {
    node.iptables = new IptablesProxier({ name: s.name, nodeIP: ip }, NOW);
  }
  net.addNode(node);
  return node;
}

/** An overlay node learns every other node's subnet (what flanneld does from the Node objects). */
export function addRemoteSubnets(net: ClusterNetwork): void {
  for (const n of net.nodes.values()) {
    for (const hn of n.hns?.networks.values() ?? []) {
      if (hn.type !== 'Overlay') continue;
      hn.policies = [...net.nodes.values()].filter((o) => o !== n).map((o) => ({
        type: 'RemoteSubnetRoute' as const, destinationPrefix: o.podCIDR, isolationId: n.network.vni ?? 4096, providerAddress: o.ip, distributedRouterMacAddress: '0E-2A-00-00-00-00',
      }));
    }
  }
}

export const listener = (port: number, program: string, protocol: 'TCP' | 'UDP' = 'TCP'): Listener => ({ port, protocol, program });

/** A running pod at `<pod CIDR>.<host>` with these listeners; Windows pods get an HNS endpoint with OutBoundNAT. */
export function addPod(net: ClusterNetwork, node: NodeNet, host: number, name: string, listeners: Listener[] = []): PodNet {
  const ip = node.podCIDR.replace(/0\/24$/, String(host));
  const pod: PodNet = {
    ip, node: node.name, namespace: 'default', name, hostNetwork: false,
    listenerAt: (port, protocol) => listeners.find((l) => l.port === port && l.protocol === protocol),
  };
  if (node.hns) {
    const hn = [...node.hns.networks.values()][0];
    node.hns.addEndpoint({
      id: hnsGuid(node.name, ip), name: `${name}_${hn.name}`, networkId: hn.id, ipAddress: ip, prefixLength: 24, macAddress: '00-15-5D-00-00-01',
      gatewayAddress: node.podCIDR.replace(/0\/24$/, '2'), dns: { servers: ['10.96.0.10'], search: ['default.svc.cluster.local'] }, isRemoteEndpoint: false,
      // What the default containerd CNI config gives (apiVersion 2 with loopbackDSR): SNAT outside the cluster, and
      // the loopback DSR policy that lets a pod reach itself through a Service VIP.
      policies: [
        { type: 'OutBoundNAT', exceptions: ['10.244.0.0/16', '10.96.0.0/12', '172.18.0.0/16'] },
        { type: 'OutBoundNAT', exceptions: [], destinations: [ip] },
      ], owner: `default/${name}`,
    });
  }
  net.setPod(ip, pod);
  return pod;
}

/** A Service over these pods (all ready) in the model. */
export function addService(net: ClusterNetwork, name: string, clusterIP: string, pods: PodNet[], spec: Partial<NonNullable<Service['spec']>> = {}, targetPort = 80, extra: Partial<Service> = {}): void {
  const svc: Service = {
    ...extra,
    metadata: { namespace: 'default', name, ...extra.metadata },
    spec: { clusterIP, ports: [{ port: 80, targetPort, protocol: 'TCP' }], ...spec },
  };
  const slice: SliceLike = {
    metadata: { namespace: 'default', labels: { 'kubernetes.io/service-name': name } },
    ports: [{ port: targetPort, protocol: 'TCP' }],
    endpoints: pods.map((p) => ({ addresses: [p.ip], nodeName: p.node, conditions: { ready: true } })),
  };
  net.serviceChanged('default', name, svc, [slice]);
}
