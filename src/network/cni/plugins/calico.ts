// Calico's CNI plugin, one binary per OS: on Windows it attaches pods to the HNS network `Calico` (hns-simple.ts); on
// Linux it gives each pod a routed veth `cali<hash>` with a /32 address and the link-local next hop 169.254.1.1
// (projectcalico/calico cni-plugin, docs "Calico networking: routes to 169.254.1.1"), addresses from calico-ipam or
// host-local with `usePodCidr` (the node's pod CIDR).

import { createHash } from 'node:crypto';
import { CniError, type CniContext, type CniPlugin, type NetConfJson } from '../interfaces.js';
import { ipamAdd, ipamDel } from '../ipam.js';
import { configVersion, field, isObj } from '../netconf.js';
import { LINUX_CNI_BIN, vethMac } from './bridge.js';
import { createCalico as createCalicoWindows } from './hns-simple.js';

export const NAME = 'calico';
const LINK_LOCAL_GATEWAY = '169.254.1.1';

/** host-local's `subnet: usePodCidr`, which the calico plugin replaces with the node's pod CIDR before running it. */
function resolvedIpam(ctx: CniContext, ipam: Record<string, unknown>): Record<string, unknown> {
  return field(ipam, 'subnet') === 'usePodCidr' ? { ...ipam, subnet: ctx.ipam.allocator('').cidr } : ipam;
}

export function createCalico(): CniPlugin {
  const windows = createCalicoWindows();
  return {
    NAME, os: ['linux', 'windows'], versions: windows.versions,
    add(ctx, conf: NetConfJson) {
      if (ctx.os === 'windows') return windows.add(ctx, conf);
      const ipam = field(conf, 'ipam');
      if (!isObj(ipam) || !field(ipam, 'type')) return new CniError(`failed to find plugin "" in path [${LINUX_CNI_BIN}]`);
      const r = ipamAdd(ctx, resolvedIpam(ctx, ipam), NAME, LINUX_CNI_BIN);
      if (r instanceof CniError) return r;
      const host = `cali${createHash('sha1').update(`${ctx.containerID}`).digest('hex').slice(0, 11)}`;
      return {
        cniVersion: configVersion(conf), interfaceName: ctx.ifName, adapterName: ctx.ifName, ip: r.ip, prefixLength: 32,
        gateway: LINK_LOCAL_GATEWAY, mac: vethMac(`${ctx.containerID}/${ctx.ifName}`), dns: { nameservers: [], search: [] }, networkName: host,
      };
    },
    del(ctx, conf) {
      if (ctx.os === 'windows') return windows.del(ctx, conf);
      const ipam = field(conf, 'ipam');
      if (isObj(ipam)) ipamDel(ctx, resolvedIpam(ctx, ipam));
      return undefined;
    },
  };
}
