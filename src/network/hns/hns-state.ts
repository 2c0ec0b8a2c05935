// The HNS store of one Windows node: what Get-HnsNetwork, Get-HnsEndpoint and Get-HnsPolicyList would list. CNI
// plugins create networks and endpoints in it, kube-proxy winkernel creates load balancers, and the flow model reads it.

import { createHash } from 'node:crypto';
import { HnsError, type HnsEndpoint, type HnsLoadBalancer, type HnsNetwork, type HnsVersion } from './types.js';

/** A GUID derived from the node and a name, so IDs are stable across restarts of the same cluster. */
export function hnsGuid(...parts: string[]): string {
  const h = createHash('sha1').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
}

export class HnsState {
  readonly networks = new Map<string, HnsNetwork>();
  readonly endpoints = new Map<string, HnsEndpoint>();
  readonly loadBalancers = new Map<string, HnsLoadBalancer>();
  /** Endpoints by address: kube-proxy looks every backend up on every sync. */
  private readonly byIP = new Map<string, HnsEndpoint>();
  private seq = 0;
  private prefix?: string;

  constructor(readonly node: string, readonly version: HnsVersion) {}

  /** A fresh GUID for an object of this node (load balancers and remote endpoints come and go often). */
  newId(_kind: string, _name: string): string {
    // The node's stable prefix plus a sequence number: unique per node, and cheap enough for 10,000s per sync.
    this.prefix ??= hnsGuid(this.node, 'objects').slice(0, 23);
    const n = (this.seq++).toString(16).toUpperCase();
    return `${this.prefix}-${'000000000000'.slice(n.length)}${n}`;
  }

  networkByName(name: string): HnsNetwork | undefined {
    for (const n of this.networks.values()) if (n.name.toLowerCase() === name.toLowerCase()) return n;
    return undefined;
  }

  addNetwork(n: HnsNetwork): HnsNetwork {
    if (this.networkByName(n.name)) throw new HnsError('hcnCreateNetwork', 'The object already exists.', 0x80071392);
    this.networks.set(n.id, n);
    return n;
  }

  deleteNetwork(id: string): void {
    this.networks.delete(id);
    for (const [eid, e] of this.endpoints) if (e.networkId === id) this.deleteEndpoint(eid);
  }

  endpointByName(name: string): HnsEndpoint | undefined {
    for (const e of this.endpoints.values()) if (e.name === name) return e;
    return undefined;
  }

  endpointByIP(ip: string): HnsEndpoint | undefined {
    return this.byIP.get(ip);
  }

  addEndpoint(e: HnsEndpoint): HnsEndpoint {
    if (!this.networks.has(e.networkId)) throw new HnsError('hcnCreateEndpoint', 'Element not found.', 0x80070490);
    this.endpoints.set(e.id, e);
    this.byIP.set(e.ipAddress, e);
    if (e.ipv6Address) this.byIP.set(e.ipv6Address, e);
    return e;
  }

  /** Gives an endpoint its IPv6 address (dual stack: host-local's second range). */
  setEndpointIPv6(id: string, ip: string): void {
    const e = this.endpoints.get(id);
    if (!e) return;
    if (e.ipv6Address && this.byIP.get(e.ipv6Address) === e) this.byIP.delete(e.ipv6Address);
    e.ipv6Address = ip;
    this.byIP.set(ip, e);
  }

  deleteEndpoint(id: string): void {
    const e = this.endpoints.get(id);
    if (!e) return;
    this.endpoints.delete(id);
    if (this.byIP.get(e.ipAddress) === e) this.byIP.delete(e.ipAddress);
    if (e.ipv6Address && this.byIP.get(e.ipv6Address) === e) this.byIP.delete(e.ipv6Address);
  }

  addLoadBalancer(lb: HnsLoadBalancer): HnsLoadBalancer {
    this.loadBalancers.set(lb.id, lb);
    return lb;
  }

  deleteLoadBalancer(id: string): void {
    this.loadBalancers.delete(id);
  }
}
