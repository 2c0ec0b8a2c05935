// win-bridge: endpoints on an existing L2Bridge/L2Tunnel HNS network (containernetworking/plugins
// plugins/main/windows/win-bridge/win-bridge_windows.go; windows-facts §5.2).

import { formatCidr, offsetIp, parseIPNet } from '../../ipam/cidr.js';
import { CniError, type CniContext, type CniPlugin, type CniResult, type NetConfJson } from '../interfaces.js';
import { ipamAdd, ipamDel } from '../ipam.js';
import { addEndpoint, hnsPoolMac, hnsResult, removeEndpoint } from '../hns-endpoint.js';
import { applyOutboundNat, applyPortMappings, parseHnsNetConf, read } from '../netconf.js';
import { windowsReferenceVersions } from '../versions.js';

export const NAME = 'win-bridge';
export const WINDOWS_CNI_BIN = 'C:\\opt\\cni\\bin';

export function createWinBridge(): CniPlugin {
  return {
    NAME, os: ['windows'], versions: windowsReferenceVersions,
    add(ctx, conf) {
      const n = parseHnsNetConf(conf);
      if (n instanceof CniError) return n;
      const masq = read<string>(conf, 'ipMasqNetwork', 'string', 'string');
      if (masq instanceof CniError) return masq;
      const network = ctx.hns?.networkByName(n.name);
      if (!network) return new CniError(`network ${n.name} is not found`);
      if (network.type !== 'L2Bridge' && network.type !== 'L2Tunnel') return new CniError(`network ${n.name} is of unexpected type: ${network.type}`);
      let allocated = false;
      const ep = addEndpoint(ctx, n, network, () => {
        let ip: string;
        let gateway: string;
        if (n.ipamType) {
          const r = ipamAdd(ctx, n.ipam, NAME, WINDOWS_CNI_BIN);
          if (r instanceof CniError) return r.annotate('error while executing IPAM addition');
          allocated = true;
          ip = r.ip;
          // "Calculate gateway for bridge network (needs to be x.2)": the host's bridge endpoint (cbr0_ep).
          gateway = offsetIp(parseIPNet(`${r.ip}/${r.prefixLength}`).network, 2);
        } else {
          // No IPAM: HNS assigns from the network's own subnet (seed 002 "IPAM": inbox IPAM is the fallback).
          const sub = network.subnets[0];
          ip = ctx.ipam.allocator(sub ? formatCidr(parseIPNet(sub.ipAddressPrefix).network) : '').allocate(ctx.owner);
          gateway = sub?.gatewayAddress ?? '';
        }
        applyOutboundNat(n, masq ?? '');
        applyPortMappings(n);
        return { ip, gateway, mac: hnsPoolMac(`${ctx.hns!.node}/${ip}`) };
      }, ctx.owner);
      if (ep instanceof CniError) {
        // cmdAdd: on failure the IPAM reservation is released.
        if (allocated) ipamDel(ctx, n.ipam);
        return ep;
      }
      return hnsResult(n, network, ep) satisfies CniResult;
    },
    del(ctx: CniContext, conf: NetConfJson) {
      const n = parseHnsNetConf(conf);
      if (n instanceof CniError) return n;
      if (n.ipamType) ipamDel(ctx, n.ipam);
      removeEndpoint(ctx, n.name);
      return undefined;
    },
  };
}
