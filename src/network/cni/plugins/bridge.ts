// bridge (Linux): a veth into the node's bridge (cni0) with host-local addresses; the gateway is the range's first
// address when isGateway is set (containernetworking/plugins plugins/main/bridge/bridge.go).

import { createHash } from 'node:crypto';
import { offsetIp, parseIPNet } from '../../ipam/cidr.js';
import { CniError, type CniPlugin } from '../interfaces.js';
import { ipamAdd, ipamDel } from '../ipam.js';
import { configVersion, field, isObj, read } from '../netconf.js';
import { allVersions } from '../versions.js';

export const NAME = 'bridge';
export const LINUX_CNI_BIN = '/opt/cni/bin';

/** A veth's locally administered MAC, stable per sandbox. */
export function vethMac(seed: string): string {
  const h = createHash('sha256').update(seed).digest();
  return ['02', ...[...h.subarray(0, 5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

export function createBridge(): CniPlugin {
  return {
    NAME, os: ['linux'], versions: allVersions,
    add(ctx, conf) {
      const br = read<string>(conf, 'bridge', 'string', 'string');
      if (br instanceof CniError) return br.annotate('failed to load netconf');
      const ipam = field(conf, 'ipam');
      if (!isObj(ipam) || !field(ipam, 'type')) return new CniError(`failed to find plugin "" in path [${LINUX_CNI_BIN}]`);
      const r = ipamAdd(ctx, ipam, NAME, LINUX_CNI_BIN);
      if (r instanceof CniError) return r;
      const dns = field(conf, 'dns');
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
      return {
        cniVersion: configVersion(conf), interfaceName: ctx.ifName, adapterName: ctx.ifName, ip: r.ip, prefixLength: r.prefixLength,
        // host-local's default gateway is the subnet's first address (the bridge's own IP with isGateway).
        gateway: offsetIp(parseIPNet(r.subnet).network, 1), mac: vethMac(`${ctx.containerID}/${ctx.ifName}`),
        dns: { nameservers: list(field(dns, 'nameservers')), search: list(field(dns, 'search')) }, networkName: br || 'cni0',
      };
    },
    del(ctx, conf) {
      const ipam = field(conf, 'ipam');
      if (isObj(ipam)) ipamDel(ctx, ipam);
      return undefined;
    },
  };
}
