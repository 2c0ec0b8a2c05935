// A node's HNS state printed the way an administrator sees it on the node: `Get-HnsNetwork | ConvertTo-Json`,
// `Get-HnsEndpoint | ConvertTo-Json`, `Get-HnsPolicyList | ConvertTo-Json` (hns.psm1's v1 shapes: ELB policy lists
// referencing /endpoints/<id>) in Windows PowerShell 5.1's JSON layout, and `hnsdiag list all`'s tables.

import type { HnsState } from './hns-state.js';
import type { HnsEndpoint, HnsEndpointPolicy, HnsLoadBalancer, HnsNetwork, HnsNetworkPolicy } from './types.js';
import { LB_FLAGS, PORT_MAPPING_FLAGS } from './types.js';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/**
 * ConvertTo-Json of Windows PowerShell 5.1: `"key":  value` (two spaces), nested values indented from the column
 * where they start, empty arrays and objects spread over blank lines.
 */
export function psJson(v: Json, col = 0): string {
  const pad = (n: number) => ' '.repeat(n);
  if (Array.isArray(v)) {
    if (!v.length) return `[\n\n${pad(col)}]`;
    return `[\n${v.map((x) => pad(col + 4) + psJson(x, col + 4)).join(',\n')}\n${pad(col)}]`;
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    if (!keys.length) return `{\n\n${pad(col)}}`;
    return `{\n${keys.map((k) => {
      const head = `${JSON.stringify(k)}:  `;
      return pad(col + 4) + head + psJson(v[k], col + 4 + head.length);
    }).join(',\n')}\n${pad(col)}}`;
  }
  return JSON.stringify(v);
}

/** A pipeline of one object prints as that object, of several as an array (PowerShell unrolls). */
const unroll = (items: Json[]): string => (items.length === 1 ? psJson(items[0]) : items.length ? psJson(items) : '');

const lower = (id: string) => id.toLowerCase();
/** HNS object versions: the HNS API version packed as major << 32 | minor (what Get-Hns* shows as Version). */
const versionOf = (hns: HnsState) => hns.version.major * 2 ** 32 + hns.version.minor;
const HEALTH: Json = { LastErrorCode: 0, LastUpdateTime: 0 };

/** v1 network policy JSON (hns.psm1 / HNSNetwork.Policies). */
function networkPolicy(p: HnsNetworkPolicy): Json {
  switch (p.type) {
    case 'RemoteSubnetRoute':
      return { Type: 'RemoteSubnetRoute', DestinationPrefix: p.destinationPrefix, IsolationId: p.isolationId, ProviderAddress: p.providerAddress, DistributedRouterMacAddress: p.distributedRouterMacAddress };
    case 'HostRoute': return { Type: 'HostRoute' };
    case 'VSID': return { Type: 'VSID', VSID: p.isolationId };
    case 'NetAdapterName': return { Type: 'NetAdapterName', NetworkAdapterName: p.networkAdapterName };
  }
}

/** v1 endpoint policy JSON: the names HNS v1 uses (ROUTE, PA, NAT) for SDNRoute, ProviderAddress, PortMapping. */
export function endpointPolicy(p: HnsEndpointPolicy): Json {
  switch (p.type) {
    case 'OutBoundNAT': {
      const o: { [k: string]: Json } = { Type: 'OutBoundNAT' };
      if (p.exceptions.length || !p.destinations) o.ExceptionList = p.exceptions;
      if (p.destinations) o.Destinations = p.destinations;
      if (p.vip) o.VIP = p.vip;
      return o;
    }
    case 'SDNRoute': return { Type: 'ROUTE', DestinationPrefix: p.destinationPrefix, NeedEncap: p.needEncap };
    case 'ProviderAddress': return { Type: 'PA', PA: p.providerAddress };
    case 'PortMapping': return { Type: 'NAT', InternalPort: p.internalPort, ExternalPort: p.externalPort, Protocol: p.protocol === 17 ? 'UDP' : p.protocol === 6 ? 'TCP' : String(p.protocol) };
    case 'ACL': {
      const o: { [k: string]: Json } = { Type: 'ACL', Action: p.action, Direction: p.direction, Priority: p.priority };
      for (const [k, v] of [['Protocols', p.protocols], ['RemoteAddresses', p.remoteAddresses], ['RemotePorts', p.remotePorts], ['LocalPorts', p.localPorts]] as const) if (v !== undefined) o[k] = v;
      return o;
    }
  }
}

function networkJson(hns: HnsState, n: HnsNetwork): Json {
  const eps = [...hns.endpoints.values()].filter((e) => e.networkId === n.id);
  const o: { [k: string]: Json } = {
    ActivityId: lower(n.id), AdditionalParams: {}, CurrentEndpointCount: eps.filter((e) => !e.isRemoteEndpoint).length,
  };
  if (n.drMacAddress) o.DrMacAddress = n.drMacAddress;
  Object.assign(o, {
    Extensions: [], Flags: n.flags, Health: HEALTH, ID: lower(n.id), IPv6: false, LayeredOn: '',
    MacPools: [{ EndMacAddress: '00-15-5D-FF-FF-FF', StartMacAddress: '00-15-5D-00-00-00' }],
    ManagementIP: n.managementIP, Name: n.name, NetworkAdapterName: n.networkAdapterName, Policies: n.policies.map(networkPolicy), State: 1,
    Subnets: n.subnets.map((s) => ({ AdditionalParams: {}, AddressPrefix: s.ipAddressPrefix, GatewayAddress: s.gatewayAddress, Health: HEALTH, Policies: s.policies.map(networkPolicy), State: 0 })),
    TotalEndpoints: eps.length, Type: n.type, Version: versionOf(hns),
  });
  return o;
}

function endpointJson(hns: HnsState, e: HnsEndpoint): Json {
  const net = hns.networks.get(e.networkId);
  const o: { [k: string]: Json } = {
    ActivityId: lower(e.id), AdditionalParams: {}, DNSServerList: e.dns.servers.join(','), DNSSuffix: e.dns.search.join(','),
    EncapOverhead: net?.type === 'Overlay' ? 50 : 0, GatewayAddress: e.gatewayAddress, Health: HEALTH, ID: lower(e.id),
    IPAddress: e.ipAddress,
  };
  if (e.isRemoteEndpoint) o.IsRemoteEndpoint = true;
  Object.assign(o, {
    MacAddress: e.macAddress, Name: e.name, Policies: e.policies.map(endpointPolicy), PrefixLength: e.prefixLength,
    SharedContainers: e.namespaceId ? [lower(e.namespaceId)] : [], State: e.isRemoteEndpoint ? 1 : 3, Type: net?.type ?? '',
    Version: versionOf(hns), VirtualNetwork: lower(e.networkId), VirtualNetworkName: net?.name ?? '',
  });
  return o;
}

function policyListJson(lb: HnsLoadBalancer): Json {
  const pm = lb.portMappings[0];
  const elb: { [k: string]: Json } = {
    ExternalPort: pm?.externalPort ?? 0, InternalPort: pm?.internalPort ?? 0, Protocol: pm?.protocol ?? 6, Type: 'ELB', VIPs: lb.frontendVIPs,
    SourceVIP: lb.sourceVIP, ILB: !!pm && (pm.flags & PORT_MAPPING_FLAGS.ILB) !== 0,
  };
  if (lb.flags & LB_FLAGS.DSR) elb.IsDSR = true;
  if (pm && pm.flags & PORT_MAPPING_FLAGS.PreserveDIP) elb.PreserveDIP = true;
  if (pm && pm.flags & PORT_MAPPING_FLAGS.LocalRoutedVIP) elb.LocalRoutedVip = true;
  if (pm && pm.distributionType !== 'None') elb.DistributionType = pm.distributionType;
  return { ActivityId: lower(lb.id), ID: lower(lb.id), Policies: [elb], References: lb.hostComputeEndpoints.map((id) => `/endpoints/${lower(id)}`) };
}

const sorted = <T extends { name?: string; id: string }>(xs: Iterable<T>) => [...xs].sort((a, b) => ((a.name ?? a.id) < (b.name ?? b.id) ? -1 : 1));

/** `Get-HnsNetwork | ConvertTo-Json -Depth 10`. */
export function formatHnsNetworks(hns: HnsState): string {
  return unroll(sorted(hns.networks.values()).map((n) => networkJson(hns, n)));
}

/** `Get-HnsEndpoint | ConvertTo-Json -Depth 10` (local and kube-proxy's remote endpoints). */
export function formatHnsEndpoints(hns: HnsState): string {
  return unroll(sorted(hns.endpoints.values()).map((e) => endpointJson(hns, e)));
}

/** `Get-HnsPolicyList | ConvertTo-Json -Depth 10`: one ELB policy list per load balancer kube-proxy programmed. */
export function formatHnsPolicyLists(hns: HnsState): string {
  return unroll([...hns.loadBalancers.values()].map(policyListJson));
}

/** `hnsdiag list all`: networks, endpoints, namespaces and load balancers as its fixed-width tables. */
export function formatHnsdiagList(hns: HnsState): string {
  const col = (s: string, w: number) => (s.length >= w ? `${s} ` : s.padEnd(w + 1));
  const lines: string[] = ['Networks:', `${col('Name', 16)}ID`];
  for (const n of sorted(hns.networks.values())) lines.push(`${col(n.name, 16)}${n.id.toUpperCase()}`);
  lines.push('', 'Endpoints:', `${col('Name', 16)}${col('ID', 36)}Virtual Network Name`);
  for (const e of sorted(hns.endpoints.values())) lines.push(`${col(e.name, 16)}${col(lower(e.id), 36)}${hns.networks.get(e.networkId)?.name ?? ''}`);
  lines.push('', 'Namespaces:', `${col('ID', 36)}| Endpoint IDs`);
  const ns = new Map<string, string[]>();
  for (const e of hns.endpoints.values()) if (e.namespaceId) ns.set(lower(e.namespaceId), [...(ns.get(lower(e.namespaceId)) ?? []), lower(e.id)]);
  for (const [id, eps] of ns) lines.push(`${col(id, 36)}| ${eps.join(' ')}`);
  lines.push('', 'LoadBalancers:', `${col('ID', 36)}| ${col('Virtual IPs', 16)}| Direct IP IDs`);
  for (const lb of hns.loadBalancers.values()) lines.push(`${col(lower(lb.id), 36)}| ${` ${lb.frontendVIPs.join(' ')}`.padEnd(16)} | ${lb.hostComputeEndpoints.map(lower).join(' ')}`);
  return `${lines.join('\n')}\n`;
}

/** One of `winkube hns`'s views of a node's HNS (undefined for an unknown view). */
export function formatHnsView(hns: HnsState, view: string): string | undefined {
  const text = hnsView(hns, view);
  return text === undefined || text.endsWith('\n') ? text : `${text}\n`;
}

function hnsView(hns: HnsState, view: string): string | undefined {
  switch (view) {
    case 'networks': return formatHnsNetworks(hns);
    case 'endpoints': return formatHnsEndpoints(hns);
    case 'policies': return formatHnsPolicyLists(hns);
    case 'hnsdiag': return formatHnsdiagList(hns);
    case 'json': return `${JSON.stringify({ networks: [...hns.networks.values()], endpoints: [...hns.endpoints.values()], loadBalancers: [...hns.loadBalancers.values()] }, null, 2)}\n`;
    case 'all': return [
      '# Get-HnsNetwork | ConvertTo-Json', formatHnsNetworks(hns),
      '# Get-HnsEndpoint | ConvertTo-Json', formatHnsEndpoints(hns),
      '# Get-HnsPolicyList | ConvertTo-Json', formatHnsPolicyLists(hns),
      '# hnsdiag list all', formatHnsdiagList(hns),
    ].join('\n');
    default: return undefined;
  }
}
