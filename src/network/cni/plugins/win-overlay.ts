// win-overlay: endpoints on an existing Overlay HNS network (VXLAN), MAC from the pod IP, the node's provider address
// (containernetworking/plugins plugins/main/windows/win-overlay/win-overlay_windows.go; windows-facts §5.3).

import { CniError, type CniPlugin } from '../interfaces.js';
import { ipamAdd, ipamDel } from '../ipam.js';
import { addEndpoint, hnsResult, removeEndpoint } from '../hns-endpoint.js';
import { applyOutboundNat, applyProviderAddress, parseHnsNetConf, read } from '../netconf.js';
import { windowsReferenceVersions } from '../versions.js';
import { WINDOWS_CNI_BIN } from './win-bridge.js';

export const NAME = 'win-overlay';
export const DEFAULT_ENDPOINT_MAC_PREFIX = '0E-2A';

/** `<prefix>-<ip octets in hex>`, e.g. 0E-2A-0a-f4-01-05 (processEndpointArgs). */
export function overlayMac(prefix: string, ip: string): string {
  return [prefix, ...ip.split('.').map((o) => Number(o).toString(16).padStart(2, '0'))].join('-');
}

export function createWinOverlay(): CniPlugin {
  return {
    NAME, os: ['windows'], versions: windowsReferenceVersions,
    add(ctx, conf) {
      const n = parseHnsNetConf(conf);
      if (n instanceof CniError) return n;
      const masq = read<boolean>(conf, 'ipMasq', 'boolean', 'bool');
      if (masq instanceof CniError) return masq;
      const prefixField = read<string>(conf, 'endpointMacPrefix', 'string', 'string');
      if (prefixField instanceof CniError) return prefixField;
      let prefix = prefixField ?? '';
      if (prefix) {
        if (prefix.length !== 5 || prefix[2] !== '-') return new CniError(`endpointMacPrefix [${prefix}] is invalid, value must be of the format xx-xx`);
      } else {
        prefix = DEFAULT_ENDPOINT_MAC_PREFIX;
      }
      const network = ctx.hns?.networkByName(n.name);
      // The v1 path says "not found", the v2 path "is not found" (cmdHnsAdd / cmdHcnAdd).
      if (!network) return new CniError(n.apiVersion === 2 ? `network ${n.name} is not found` : `network ${n.name} not found`);
      if (network.type !== 'Overlay') return new CniError(`network ${n.name} is of an unexpected type: ${network.type}`);
      let allocated = false;
      const ep = addEndpoint(ctx, n, network, () => {
        const r = ipamAdd(ctx, n.ipam, NAME, WINDOWS_CNI_BIN);
        if (r instanceof CniError) return r.annotate(n.apiVersion === 2 ? 'error while executing IPAM addition' : 'error while ipam.ExecAdd');
        allocated = true;
        if (!/^\d+\.\d+\.\d+\.\d+$/.test(r.ip)) return new CniError(n.apiVersion === 2 ? 'IPAM plugin return is missing valid IP Address' : "win-overlay doesn't support IPv6 now");
        applyProviderAddress(n, network.managementIP);
        if (masq) applyOutboundNat(n, network.subnets[0]?.ipAddressPrefix ?? '');
        return { ip: r.ip, gateway: network.subnets[0]?.gatewayAddress ?? '', mac: overlayMac(prefix, r.ip) };
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
      removeEndpoint(ctx, n.name);
      return undefined;
    },
  };
}
