// The other Windows plugins the seeds name, modelled as far as their public facts go: azure-vnet (an L2Tunnel network
// it creates itself; seed 001 "Network modes"), Calico (an HNS network `Calico`: L2Bridge with BGP, Overlay with
// VXLAN), ovn-k8s-cni-overlay / ovn_cni (the Transparent network OVS sits on; seed 004 "OVN with OVS") and the
// v1.9-era wincni (an administrator-made l2bridge network, old config fields; seed 004 "Windows CNI Config Example").
// Error texts of these plugins are not public in the sources researched: they say what failed in HNS's terms.

import { formatCidr, offsetIp, parseIPNet } from '../../ipam/cidr.js';
import { hnsGuid } from '../../hns/hns-state.js';
import type { HnsNetworkType } from '../../hns/types.js';
import { CniError, type CniContext, type CniEra, type CniPlugin, type NetConfJson } from '../interfaces.js';
import { ipamAdd, ipamDel } from '../ipam.js';
import { addEndpoint, hnsPoolMac, hnsResult, removeEndpoint } from '../hns-endpoint.js';
import { applyPortMappings, field, isObj, normalisePolicy, parseHnsNetConf } from '../netconf.js';
import { allVersions } from '../versions.js';
import { WINDOWS_CNI_BIN } from './win-bridge.js';

interface SimpleSpec {
  name: string;
  versions(era: CniEra): readonly string[];
  /** HNS network types the plugin attaches to. */
  types: HnsNetworkType[];
  /** The network's name when the plugin does not take it from the config's `name`. */
  network?: string;
  /** Creates its network on first ADD (azure-vnet does; the others need it made beforehand). */
  creates?: HnsNetworkType;
  /** Gateway offset from the subnet base when it does not come from the network. */
  gatewayOffset?: number;
  /** Policies from the old `AdditionalArgs` field (wincni, azure-vnet). */
  additionalArgs?: boolean;
}

function create(spec: SimpleSpec): CniPlugin {
  const networkName = (conf: NetConfJson) => spec.network ?? String(field(conf, 'name') ?? '');
  return {
    NAME: spec.name, os: ['windows'], versions: spec.versions,
    add(ctx: CniContext, conf: NetConfJson) {
      const n = parseHnsNetConf(conf);
      if (n instanceof CniError) return n;
      n.name = networkName(conf);
      if (spec.additionalArgs) {
        const args = field(conf, 'AdditionalArgs');
        for (const a of Array.isArray(args) ? args : []) {
          if (!isObj(a) || String(field(a, 'Name') ?? '').toLowerCase() !== 'endpointpolicy') continue;
          const p = normalisePolicy(field(a, 'Value'), 1);
          if (p) n.policies.push(p);
        }
      }
      let network = ctx.hns?.networkByName(n.name);
      if (!network && spec.creates && ctx.hns) {
        const pod = ctx.ipam.allocator('').cidr;
        const base = parseIPNet(pod).network;
        network = ctx.hns.addNetwork({
          id: hnsGuid(ctx.hns.node, 'network', n.name), name: n.name, type: spec.creates, managementIP: ctx.nodeIP,
          subnets: [{ ipAddressPrefix: formatCidr(base), gatewayAddress: offsetIp(base, 1), policies: [] }],
          networkAdapterName: 'Ethernet', policies: [], flags: 0,
        });
      }
      if (!network) return new CniError(`${spec.name}: HNS network ${n.name} not found: Element not found. (0x80070490)`);
      if (!spec.types.includes(network.type)) return new CniError(`${spec.name}: HNS network ${n.name} is of type ${network.type}, want ${spec.types.join(' or ')}`);
      let allocated = false;
      const ep = addEndpoint(ctx, n, network, () => {
        const sub = network!.subnets[0];
        let ip: string;
        if (n.ipamType) {
          const r = ipamAdd(ctx, n.ipam, spec.name, WINDOWS_CNI_BIN);
          if (r instanceof CniError) return r;
          allocated = true;
          ip = r.ip;
        } else {
          // HNS inbox IPAM from the network's subnet (wincni's `ipam.environment` block carries no allocator).
          ip = ctx.ipam.allocator(sub ? formatCidr(parseIPNet(sub.ipAddressPrefix).network) : '').allocate(ctx.owner);
        }
        const routes = field(n.ipam, 'routes');
        const gw = Array.isArray(routes) && isObj(routes[0]) ? field(routes[0], 'GW') : undefined;
        const gateway = typeof gw === 'string' ? gw
          : spec.gatewayOffset !== undefined ? offsetIp(parseIPNet(`${ip}/${sub ? parseIPNet(sub.ipAddressPrefix).network.prefix : 24}`).network, spec.gatewayOffset)
          : sub?.gatewayAddress ?? '';
        applyPortMappings(n);
        return { ip, gateway, mac: hnsPoolMac(`${ctx.hns!.node}/${ip}`) };
      }, ctx.owner);
      if (ep instanceof CniError) {
        if (allocated) ipamDel(ctx, n.ipam);
        return ep;
      }
      return hnsResult(n, network, ep);
    },
    del(ctx, conf) {
      const n = parseHnsNetConf(conf);
      if (n instanceof CniError) return n;
      if (n.ipamType) ipamDel(ctx, n.ipam);
      const sub = ctx.hns?.networkByName(networkName(conf))?.subnets[0];
      if (!n.ipamType && sub) ctx.ipam.allocator(formatCidr(parseIPNet(sub.ipAddressPrefix).network)).release(ctx.owner);
      removeEndpoint(ctx, networkName(conf));
      return undefined;
    },
  };
}

export const createAzureVnet = (): CniPlugin => create({ name: 'azure-vnet', versions: allVersions, types: ['L2Tunnel', 'L2Bridge'], creates: 'L2Tunnel', gatewayOffset: 1, additionalArgs: true });
export const createCalico = (): CniPlugin => create({ name: 'calico', versions: allVersions, types: ['L2Bridge', 'Overlay'], network: 'Calico' });
export const createOvnOverlay = (): CniPlugin => create({ name: 'ovn-k8s-cni-overlay', versions: allVersions, types: ['Transparent'], gatewayOffset: 1 });
export const createOvnCni = (): CniPlugin => create({ name: 'ovn_cni', versions: allVersions, types: ['Transparent'], gatewayOffset: 1 });
/** v1.9's wincni.exe: configs of that era carry cniVersion 0.2.0 (seed 004). */
export const createWincni = (): CniPlugin => create({ name: 'wincni', versions: () => ['0.1.0', '0.2.0'], types: ['L2Bridge'], additionalArgs: true });
