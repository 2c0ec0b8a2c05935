// CNI config decoding as the Go plugins do it (encoding/json: case-insensitive keys, type errors worded by Go), the
// skel checks every plugin runs first, and the Windows NetConf (containernetworking/plugins pkg/hns/netconf_windows.go).

import type { HnsEndpointPolicy } from '../hns/types.js';
import { CniError, type CniContext, type CniEra, type CniPlugin, type NetConfJson } from './interfaces.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** encoding/json's key matching: the exact key first, else a case-insensitive one. */
export function field(o: unknown, name: string): unknown {
  if (!isObj(o)) return undefined;
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Go's UnmarshalTypeError text, wrapped as the plugins' loadNetConf does. */
export function typeError(struct: string, path: string, goType: string, v: unknown): CniError {
  return new CniError(`failed to load netconf: json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${path} of type ${goType}`, 7);
}

/** Reads a typed field, or the Go type error (null counts as absent, as encoding/json leaves the zero value). */
export function read<T>(o: Obj, name: string, kind: 'string' | 'number' | 'boolean' | 'object' | 'array', goType: string, struct = 'NetConf'): T | undefined | CniError {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  const ok = kind === 'array' ? Array.isArray(v) : kind === 'object' ? isObj(v) : typeof v === kind;
  if (!ok || (goType === 'int' && !Number.isInteger(v))) return typeError(struct, name, goType, v);
  return v as T;
}

/** The config's cniVersion; an empty one means 0.1.0 (pkg/version ConfigDecoder). */
export function configVersion(conf: NetConfJson): string {
  const v = field(conf, 'cniVersion');
  return typeof v === 'string' && v ? v : '0.1.0';
}

/** What skel does before calling the plugin: a network name, then a spec version the binary supports. */
export function skelCheck(plugin: CniPlugin, era: CniEra, conf: NetConfJson): CniError | undefined {
  const name = field(conf, 'name');
  if (typeof name !== 'string' || !name) return new CniError('missing network name', 7);
  const v = configVersion(conf);
  const supported = plugin.versions(era);
  if (!supported.includes(v)) {
    // pkg/version/reconcile.go ErrorIncompatible.Details, after skel's "incompatible CNI versions" message.
    return new CniError(`incompatible CNI versions; config is "${v}", plugin supports [${supported.map((s) => `"${s}"`).join(' ')}]`, 1);
  }
  return undefined;
}

export interface PortMapEntry { hostPort: number; containerPort: number; protocol: string; hostIP?: string }

/** pkg/hns NetConf: the fields every Windows reference plugin reads. */
export interface HnsNetConf {
  name: string;
  cniVersion: string;
  apiVersion: 1 | 2;
  policies: HnsEndpointPolicy[];
  dns: { nameservers: string[]; search: string[] };
  runtimeDns: { nameservers: string[]; search: string[] };
  portMappings: PortMapEntry[];
  loopbackDSR: boolean;
  ipamType: string;
  ipam: Obj;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Socket protocol numbers the port-mapping policy accepts by name (pkg/hns protocolEnums). */
const PROTOCOLS: Record<string, number> = { icmpv4: 1, igmp: 2, tcp: 6, udp: 17, icmpv6: 58 };

/** GetProtocolEnum: a number, or a known name; anything else is skipped by ApplyPortMappingPolicy. */
export function protocolNumber(p: string): number | undefined {
  if (/^(0x[0-9a-f]+|\d+)$/i.test(p)) return Number(p);
  return PROTOCOLS[p.toLowerCase()];
}

/**
 * One `{"name":"EndpointPolicy","value":{…}}` entry read in the format of the config's apiVersion — a v1 value in a
 * v2 config (or the reverse) loses its settings, as HNS/HCN decoding it would.
 */
export function normalisePolicy(value: unknown, apiVersion: 1 | 2): HnsEndpointPolicy | undefined {
  if (!isObj(value)) return undefined;
  const type = String(field(value, 'Type') ?? '');
  const s = apiVersion === 2 ? (field(value, 'Settings') ?? {}) : value;
  switch (type.toLowerCase()) {
    case 'outboundnat': {
      const p: HnsEndpointPolicy = { type: 'OutBoundNAT', exceptions: strings(field(s, apiVersion === 2 ? 'Exceptions' : 'ExceptionList')) };
      const dest = field(s, 'Destinations');
      if (Array.isArray(dest)) p.destinations = strings(dest);
      const vip = field(s, apiVersion === 2 ? 'VirtualIP' : 'VIP');
      if (typeof vip === 'string' && vip) p.vip = vip;
      return p;
    }
    case 'route': case 'sdnroute':
      if ((apiVersion === 1) !== (type.toLowerCase() === 'route')) return undefined;
      return { type: 'SDNRoute', destinationPrefix: String(field(s, 'DestinationPrefix') ?? ''), needEncap: field(s, 'NeedEncap') === true };
    case 'pa': case 'provideraddress':
      if ((apiVersion === 1) !== (type.toLowerCase() === 'pa')) return undefined;
      return { type: 'ProviderAddress', providerAddress: String(field(s, apiVersion === 2 ? 'ProviderAddress' : 'PA') ?? '') };
    case 'nat': case 'portmapping': {
      if ((apiVersion === 1) !== (type.toLowerCase() === 'nat')) return undefined;
      const proto = field(s, 'Protocol');
      const protocol = typeof proto === 'number' ? proto : protocolNumber(String(proto ?? 'tcp')) ?? 6;
      const p: HnsEndpointPolicy = { type: 'PortMapping', internalPort: Number(field(s, 'InternalPort') ?? 0), externalPort: Number(field(s, 'ExternalPort') ?? 0), protocol };
      const vip = field(s, 'VIP');
      if (typeof vip === 'string' && vip) p.vip = vip;
      return p;
    }
    case 'acl': {
      const action = String(field(s, 'Action') ?? 'Allow');
      const direction = String(field(s, 'Direction') ?? 'In');
      const opt = (k: string) => { const v = field(s, k); return v === undefined || v === null ? undefined : String(v); };
      return {
        type: 'ACL', action: action === 'Block' ? 'Block' : 'Allow', direction: direction === 'Out' ? 'Out' : 'In',
        protocols: opt('Protocols'), remoteAddresses: opt('RemoteAddresses'), remotePorts: opt('RemotePorts'), localPorts: opt('LocalPorts'),
        priority: Number(field(s, 'Priority') ?? 0),
      };
    }
    default:
      return undefined;
  }
}

/** Decodes the pkg/hns NetConf of a win-bridge / win-overlay config; Go type errors as loadNetConf reports them. */
export function parseHnsNetConf(conf: NetConfJson): HnsNetConf | CniError {
  const api = read<number>(conf, 'apiVersion', 'number', 'int');
  if (api instanceof CniError) return api;
  const policies = read<unknown[]>(conf, 'policies', 'array', '[]hns.Policy');
  if (policies instanceof CniError) return policies;
  const loopback = read<boolean>(conf, 'loopbackDSR', 'boolean', 'bool');
  if (loopback instanceof CniError) return loopback;
  const ipam = read<Obj>(conf, 'ipam', 'object', 'types.IPAM');
  if (ipam instanceof CniError) return ipam;
  const apiVersion: 1 | 2 = api === 2 ? 2 : 1;
  const out: HnsEndpointPolicy[] = [];
  for (const p of policies ?? []) {
    // GetHNSEndpointPolicies: only entries named EndpointPolicy (any case) are passed on.
    if (!isObj(p) || String(field(p, 'name') ?? '').toLowerCase() !== 'endpointpolicy') continue;
    const n = normalisePolicy(field(p, 'value'), apiVersion);
    if (n) out.push(n);
  }
  const dns = field(conf, 'dns');
  const rc = field(conf, 'runtimeConfig');
  const rdns = field(rc, 'dns');
  const maps = field(rc, 'portMappings');
  return {
    name: String(field(conf, 'name') ?? ''),
    cniVersion: configVersion(conf),
    apiVersion,
    policies: out,
    dns: { nameservers: strings(field(dns, 'nameservers')), search: strings(field(dns, 'search')) },
    runtimeDns: { nameservers: strings(field(rdns, 'servers')), search: strings(field(rdns, 'searches')) },
    portMappings: Array.isArray(maps) ? maps.filter(isObj).map((m) => ({
      hostPort: Number(field(m, 'hostPort') ?? 0), containerPort: Number(field(m, 'containerPort') ?? 0),
      protocol: String(field(m, 'protocol') ?? ''), hostIP: typeof field(m, 'hostIP') === 'string' ? String(field(m, 'hostIP')) : undefined,
    })) : [],
    loopbackDSR: loopback === true,
    ipamType: String(field(ipam, 'type') ?? ''),
    ipam: ipam ?? {},
  };
}

/** GetDNS: the runtime's DNS (capability `dns`) replaces the config's, list by list. */
export function effectiveDns(n: HnsNetConf): { nameservers: string[]; search: string[] } {
  return {
    nameservers: n.runtimeDns.nameservers.length ? n.runtimeDns.nameservers : n.dns.nameservers,
    search: n.runtimeDns.search.length ? n.runtimeDns.search : n.dns.search,
  };
}

/** ApplyOutboundNatPolicy: a new OutBoundNAT excepting `cidr`, unless one already lists it. */
export function applyOutboundNat(n: HnsNetConf, cidr: string): void {
  if (!cidr) return;
  if (n.policies.some((p) => p.type === 'OutBoundNAT' && p.exceptions.includes(cidr))) return;
  n.policies.push({ type: 'OutBoundNAT', exceptions: [cidr] });
}

/** ApplyLoopbackDSRPolicy: only where HNS supports DSR; an OutBoundNAT whose Destinations is the pod's own IP. */
export function applyLoopbackDsr(n: HnsNetConf, ip: string, ctx: Pick<CniContext, 'hnsDSR'>): void {
  if (!ctx.hnsDSR || !ip) return;
  if (n.policies.some((p) => p.type === 'OutBoundNAT' && p.destinations?.includes(ip))) return;
  n.policies.push({ type: 'OutBoundNAT', exceptions: [], destinations: [ip] });
}

/** ApplyDefaultPAPolicy: the provider address of an overlay endpoint. */
export function applyProviderAddress(n: HnsNetConf, address: string): void {
  if (!address) return;
  if (n.policies.some((p) => p.type === 'ProviderAddress' && p.providerAddress === address)) return;
  n.policies.push({ type: 'ProviderAddress', providerAddress: address });
}

/** ApplyPortMappingPolicy: one PortMapping per hostPort mapping; an unknown protocol name is skipped. */
export function applyPortMappings(n: HnsNetConf): void {
  for (const m of n.portMappings) {
    const protocol = protocolNumber(m.protocol);
    if (protocol === undefined) continue;
    n.policies.push({ type: 'PortMapping', internalPort: m.containerPort, externalPort: m.hostPort, protocol, ...(m.hostIP ? { vip: m.hostIP } : {}) });
  }
}

/** ConstructEndpointName: `<sandboxID>_<network>`. */
export function endpointName(containerID: string, network: string): string {
  return `${containerID}_${network}`;
}
