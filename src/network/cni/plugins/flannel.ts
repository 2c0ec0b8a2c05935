// flannel CNI meta-plugin: reads flanneld's subnet.env and delegates to win-bridge / win-overlay on Windows and to
// bridge on Linux (flannel-io/cni-plugin flannel.go, flannel_windows.go, flannel_linux.go; windows-facts §5.4).

import { formatCidr, parseIPNet } from '../../ipam/cidr.js';
import { CniError, type CniContext, type CniPlugin, type NetConfJson, type NodeFiles } from '../interfaces.js';
import { field, isObj, read } from '../netconf.js';
import { allVersions } from '../versions.js';

export const NAME = 'flannel';
export const DEFAULT_SUBNET_FILE = '/run/flannel/subnet.env';
export const DEFAULT_DATA_DIR = '/var/lib/cni/flannel';

export interface SubnetEnv {
  networks: string[];
  /** The node lease as a network (net.ParseCIDR of FLANNEL_SUBNET, e.g. 10.244.1.0/24). */
  subnet?: string;
  ipv6Networks: string[];
  ipv6Subnet?: string;
  mtu?: number;
  ipMasq?: boolean;
}

/** What os.Open says about a missing file on each OS (Go's syscall error texts). */
export function notFound(os: 'linux' | 'windows', path: string, files: NodeFiles): string {
  if (os === 'linux') return `open ${path}: no such file or directory`;
  const dir = path.replace(/[\\/][^\\/]*$/, '');
  return `open ${path}: The system cannot find the ${files.dirExists(dir) ? 'file' : 'path'} specified.`;
}

/** loadFlannelSubnetEnv: KEY=value lines; a bad CIDR fails as net.ParseCIDR does; missing keys are listed. */
export function parseSubnetEnv(text: string, path: string): SubnetEnv | CniError {
  const se: SubnetEnv = { networks: [], ipv6Networks: [] };
  const cidr = (s: string): string | CniError => {
    try {
      return formatCidr(parseIPNet(s).network);
    } catch {
      return new CniError(`invalid CIDR address: ${s}`);
    }
  };
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key === 'FLANNEL_NETWORK' || key === 'FLANNEL_IPV6_NETWORK') {
      const list: string[] = [];
      for (const c of value.split(',')) {
        const n = cidr(c);
        if (n instanceof CniError) return n;
        if (!list.includes(n)) list.push(n);
      }
      if (key === 'FLANNEL_NETWORK') se.networks = list;
      else se.ipv6Networks = list;
    } else if (key === 'FLANNEL_SUBNET' || key === 'FLANNEL_IPV6_SUBNET') {
      const n = cidr(value);
      if (n instanceof CniError) return n;
      if (key === 'FLANNEL_SUBNET') se.subnet = n;
      else se.ipv6Subnet = n;
    } else if (key === 'FLANNEL_MTU') {
      if (!/^\d+$/.test(value)) return new CniError(`strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`);
      se.mtu = Number(value);
    } else if (key === 'FLANNEL_IPMASQ') {
      se.ipMasq = value === 'true';
    }
  }
  const missing: string[] = [];
  if (!se.networks.length && !se.ipv6Networks.length) missing.push('FLANNEL_NETWORK', 'FLANNEL_IPV6_NETWORK');
  if (!se.subnet && !se.ipv6Subnet) missing.push('FLANNEL_SUBNET', 'FLANNEL_IPV6_SUBNET');
  if (se.mtu === undefined) missing.push('FLANNEL_MTU');
  if (se.ipMasq === undefined) missing.push('FLANNEL_IPMASQ');
  if (missing.length) return new CniError(`${path} is missing ${missing.join(', ')}`);
  return se;
}

/** The delegate's config, as doCmdAdd builds it per OS. */
export function delegateConf(os: 'linux' | 'windows', conf: NetConfJson, se: SubnetEnv): NetConfJson {
  const d: NetConfJson = { ...(isObj(field(conf, 'delegate')) ? field(conf, 'delegate') as NetConfJson : {}) };
  const rc = field(conf, 'runtimeConfig');
  if (rc !== undefined && rc !== null) d.runtimeConfig = rc;
  d.name = field(conf, 'name');
  const cniVersion = field(conf, 'cniVersion');
  if (os === 'windows') {
    d.type ??= 'win-bridge';
    // On Windows the plugin, not flanneld, does masquerade (the opposite of Linux).
    d.ipMasq = se.ipMasq;
    d.ipMasqNetwork = se.networks[0];
    d.cniVersion = typeof cniVersion === 'string' && cniVersion ? cniVersion : '0.2.0';
    d.ipam = { type: 'host-local', subnet: se.subnet };
    return d;
  }
  d.type ??= 'bridge';
  if (!('ipMasq' in d)) d.ipMasq = !se.ipMasq;
  if (!('mtu' in d)) d.mtu = se.mtu;
  if (d.type === 'bridge' && !('isGateway' in d)) d.isGateway = true;
  if (typeof cniVersion === 'string' && cniVersion) d.cniVersion = cniVersion;
  const ipam = isObj(field(conf, 'ipam')) ? { ...(field(conf, 'ipam') as NetConfJson) } : {};
  ipam.type ??= 'host-local';
  ipam.ranges = [se.subnet ? [{ subnet: se.subnet }] : [], se.ipv6Subnet ? [{ subnet: se.ipv6Subnet }] : []].filter((r) => r.length);
  const routes = Array.isArray(ipam.routes) ? [...ipam.routes] : [];
  for (const nw of [...se.networks, ...se.ipv6Networks]) routes.push({ dst: nw });
  ipam.routes = routes;
  d.ipam = ipam;
  return d;
}

/** Where flannel keeps the rendered delegate config for DEL: `<dataDir>/<sandbox id>`. */
const scratchPath = (dataDir: string, cid: string) => `${dataDir}/${cid}`;

export function createFlannel(): CniPlugin {
  return {
    NAME, os: ['linux', 'windows'], versions: allVersions,
    add(ctx: CniContext, conf: NetConfJson) {
      for (const [k, t] of [['subnetFile', 'string'], ['dataDir', 'string']] as const) {
        const v = read<string>(conf, k, t, 'string');
        if (v instanceof CniError) return v.annotate('failed to load flannel netconf file');
      }
      const delegate = read<NetConfJson>(conf, 'delegate', 'object', 'map[string]interface {}');
      if (delegate instanceof CniError) return delegate.annotate('failed to load flannel netconf file');
      const subnetFile = String(field(conf, 'subnetFile') || DEFAULT_SUBNET_FILE);
      const dataDir = String(field(conf, 'dataDir') || DEFAULT_DATA_DIR);
      const text = ctx.files.read(subnetFile);
      const se = text === undefined ? new CniError(notFound(ctx.os, subnetFile, ctx.files)) : parseSubnetEnv(text, subnetFile);
      if (se instanceof CniError) return new CniError(`failed to load flannel 'subnet.env' file: ${se.message}. Check the flannel pod log for this node.`);
      if (delegate) {
        if ('type' in delegate && typeof delegate.type !== 'string') return new CniError("'delegate' dictionary, if present, must have (string) 'type' field");
        if ('name' in delegate) return new CniError("'delegate' dictionary must not have 'name' field, it'll be set by flannel");
        if ('ipam' in delegate) return new CniError("'delegate' dictionary must not have 'ipam' field, it'll be set by flannel");
      }
      const d = delegateConf(ctx.os, conf, se);
      ctx.files.write(scratchPath(dataDir, ctx.containerID), JSON.stringify(d));
      const r = ctx.delegate(d, 'add');
      if (r instanceof CniError) return r.annotate('failed to delegate add');
      if (!r) return new CniError('failed to delegate add: no result');
      return r;
    },
    del(ctx, conf) {
      const dataDir = String(field(conf, 'dataDir') || DEFAULT_DATA_DIR);
      const saved = ctx.files.read(scratchPath(dataDir, ctx.containerID));
      // "Per spec should ignore error if resources are missing / already removed".
      if (!saved) return undefined;
      const r = ctx.delegate(JSON.parse(saved) as NetConfJson, 'del');
      if (r instanceof CniError) return r;
      ctx.files.remove(scratchPath(dataDir, ctx.containerID));
      return undefined;
    },
  };
}
