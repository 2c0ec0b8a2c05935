// The CNI config file a node's setup writes when its profile gives none: sig-windows-tools' flannel cni.conf on
// Windows (C:\etc\cni\net.d\10-flannel.conf), kube-flannel's cni-conf.json on Linux, and each plugin's sample
// (containernetworking/plugins win-bridge/sample-v2.conf, win-overlay/sample-v2.conf; seed 004 wincni / ovn_cni).

import { formatCidr, offsetIp, parseCidr } from '../ipam/cidr.js';
import type { NodeNetworkProfile } from '../profile.js';
import { flannelNetworkName, type NodeAddressing } from './flannel-setup.js';

export const WINDOWS_CNI_CONF_DIR = 'C:\\etc\\cni\\net.d';
export const LINUX_CNI_CONF_DIR = '/etc/cni/net.d';
export const DEFAULT_CLUSTER_CIDR = '10.244.0.0/16';
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const CLUSTER_DNS = '10.96.0.10';

export interface CniConfigFile {
  path: string;
  text: string;
}

export interface CniConfigOptions {
  /** containerd needs HCN v2 policies (apiVersion 2); dockershim used v1. */
  runtime: 'containerd' | 'docker';
  clusterCIDR?: string;
  serviceCIDR?: string;
}

/** The HNS network name each Windows plugin's default config refers to. */
export function configNetworkName(os: 'linux' | 'windows', p: NodeNetworkProfile): string {
  switch (p.plugin) {
    case 'flannel': return flannelNetworkName(os, p);
    case 'win-overlay': return p.networkName ?? 'vxlan0';
    case 'azure-vnet': return 'azure';
    case 'calico': return 'Calico';
    case 'wincni': return p.networkName ?? 'l2bridge';
    case 'ovn-k8s-cni-overlay': return p.networkName ?? 'external';
    default: return p.networkName ?? 'cbr0';
  }
}

/** The Windows endpoint policies of a sig-windows-tools config: no SNAT inside the cluster, Services via the host. */
function windowsPolicies(api: 1 | 2, node: NodeAddressing, clusterCIDR: string, serviceCIDR: string, bridge: boolean): unknown[] {
  const v1 = api === 1;
  const out: unknown[] = [
    { name: 'EndpointPolicy', value: v1 ? { Type: 'OutBoundNAT', ExceptionList: [clusterCIDR, serviceCIDR] } : { Type: 'OutBoundNAT', Settings: { Exceptions: [clusterCIDR, serviceCIDR] } } },
  ];
  if (bridge) {
    for (const dst of [serviceCIDR, `${node.internalIP}/32`]) {
      out.push({ name: 'EndpointPolicy', value: v1 ? { Type: 'ROUTE', DestinationPrefix: dst, NeedEncap: true } : { Type: 'SDNRoute', Settings: { DestinationPrefix: dst, NeedEncap: true } } });
    }
  }
  return out;
}

/** The config file for a profile without `cniConfig`. */
export function defaultCniConfig(node: NodeAddressing, p: NodeNetworkProfile, o: CniConfigOptions): CniConfigFile {
  const clusterCIDR = p.clusterCIDR ?? o.clusterCIDR ?? DEFAULT_CLUSTER_CIDR;
  const serviceCIDR = p.serviceCIDR ?? o.serviceCIDR ?? DEFAULT_SERVICE_CIDR;
  const name = configNetworkName(node.os, p);
  if (node.os === 'linux' && p.plugin === 'calico') {
    // calico.yaml's cni_network_config with host-local IPAM over the node's pod CIDR, and portmap for hostPorts.
    const calico = { type: 'calico', log_level: 'info', datastore_type: 'kubernetes', nodename: node.name, mtu: 1500, ipam: { type: 'host-local', subnet: 'usePodCidr' }, policy: { type: 'k8s' }, kubernetes: { kubeconfig: '/etc/cni/net.d/calico-kubeconfig' } };
    const text = JSON.stringify({ name: 'k8s-pod-network', cniVersion: '0.3.1', plugins: [calico, { type: 'portmap', snat: true, capabilities: { portMappings: true } }] }, null, 2);
    return { path: `${LINUX_CNI_CONF_DIR}/10-calico.conflist`, text: `${text}\n` };
  }
  if (node.os === 'linux') {
    // kube-flannel.yml cni-conf.json (bridge for any other plugin on Linux).
    const first = p.plugin === 'flannel'
      ? { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } }
      : { type: 'bridge', bridge: 'cni0', isGateway: true, ipMasq: true, hairpinMode: true, ipam: { type: 'host-local', ranges: [[{ subnet: node.podCIDR }]], routes: [{ dst: '0.0.0.0/0' }] } };
    const text = JSON.stringify({ name, cniVersion: '0.3.1', plugins: [first, { type: 'portmap', capabilities: { portMappings: true } }] }, null, 2);
    return { path: `${LINUX_CNI_CONF_DIR}/10-${p.plugin === 'flannel' ? 'flannel' : 'bridge'}.conflist`, text: `${text}\n` };
  }
  const api: 1 | 2 = o.runtime === 'containerd' ? 2 : 1;
  const bridge = p.plugin === 'win-bridge' || (p.plugin === 'flannel' && (p.backend ?? 'host-gw') === 'host-gw');
  const dns = { nameservers: [CLUSTER_DNS], search: ['svc.cluster.local'] };
  let conf: Record<string, unknown>;
  const lease = parseCidr(node.podCIDR);
  switch (p.plugin) {
    case 'flannel':
      conf = {
        name, cniVersion: '0.3.0', type: 'flannel', capabilities: { portMappings: true, dns: true },
        delegate: { type: bridge ? 'win-bridge' : 'win-overlay', ...(api === 2 ? { apiVersion: 2 } : {}), dns, policies: windowsPolicies(api, node, clusterCIDR, serviceCIDR, bridge), loopbackDSR: api === 2 },
      };
      break;
    case 'wincni':
      // seed 004 "Windows CNI Config Example": v1.9's wincni.exe, gateway = pod subnet base + 2.
      conf = {
        cniVersion: '0.2.0', name, type: 'wincni.exe', master: 'Ethernet',
        ipam: { environment: 'azure', subnet: formatCidr(lease), routes: [{ GW: offsetIp(lease, 2) }] },
        dns: { Nameservers: [CLUSTER_DNS] },
        AdditionalArgs: windowsPolicies(1, node, clusterCIDR, serviceCIDR, true).map((x) => ({ Name: 'EndpointPolicy', Value: (x as { value: unknown }).value })),
      };
      break;
    case 'ovn-k8s-cni-overlay':
      conf = { cniVersion: '0.3.0', name, type: 'ovn-k8s-cni-overlay', ipam: { type: 'host-local', subnet: formatCidr(lease) } };
      break;
    default:
      conf = {
        cniVersion: '0.3.0', name, type: p.plugin, ...(api === 2 ? { apiVersion: 2 } : {}), capabilities: { portMappings: true, dns: true },
        ipam: p.plugin === 'azure-vnet' ? { type: 'azure-vnet-ipam' } : { type: 'host-local', subnet: formatCidr(lease) },
        dns, policies: windowsPolicies(api, node, clusterCIDR, serviceCIDR, bridge), ...(p.plugin === 'win-overlay' ? { ipMasq: true } : {}), loopbackDSR: api === 2,
      };
  }
  const file = p.plugin === 'flannel' ? '10-flannel.conf' : `10-${p.plugin}.conf`;
  return { path: `${WINDOWS_CNI_CONF_DIR}\\${file}`, text: `${JSON.stringify(conf, null, 2)}\n` };
}
