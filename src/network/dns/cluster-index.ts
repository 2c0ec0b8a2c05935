// The cluster's DNS data, indexed as CoreDNS's kubernetes plugin keeps it (coredns plugin/kubernetes/controller.go):
// Services by name.namespace and by ClusterIP, EndpointSlices by Service and by address, and the Namespaces that
// exist. Updated from informer events, so a query reads a few map entries and never scans the cluster.

import { isIP } from 'node:net';
import type { KubeObject } from '../../api/types.js';
import type { EventHandler } from '../../client/informer.js';

export interface DnsPort { name: string; port: number; protocol: string }

export interface DnsService {
  name: string;
  namespace: string;
  /** clusterIP "None" (coredns object/service.go Headless()). */
  headless: boolean;
  /** Set for type ExternalName. */
  externalName?: string;
  clusterIPs: string[];
  ports: DnsPort[];
}

export interface DnsEndpointAddress {
  ip: string;
  /** endpoints[].hostname (set by the EndpointSlice controller from pod hostname + subdomain). */
  hostname?: string;
}

export interface DnsSlice {
  key: string;
  /** name.namespace of the Service (label kubernetes.io/service-name). */
  service: string;
  namespace: string;
  /** A slice without ports answers with port -1, which SRV skips (coredns object/endpoint.go). */
  ports: DnsPort[];
  /** Ready addresses only: ready unset counts as ready (coredns object/endpoint.go endpointsliceReady). */
  addresses: DnsEndpointAddress[];
}

interface ServiceObj {
  metadata: { name: string; namespace?: string };
  spec?: { type?: string; clusterIP?: string; clusterIPs?: string[]; externalName?: string; ports?: { name?: string; port?: number; protocol?: string }[] };
}

interface SliceObj {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  endpoints?: { addresses?: string[]; hostname?: string; conditions?: { ready?: boolean } }[];
  ports?: { name?: string; port?: number; protocol?: string }[] | null;
}

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** The key CoreDNS indexes Services and Endpoints by (object.ServiceKey / EndpointsKey). */
export const serviceKey = (name: string, namespace: string): string => `${name}.${namespace}`;

/**
 * Canonical text of an IP, so a reverse query and an API object compare equal: IPv6 in RFC 5952 form
 * (what Go's net.IP.String() prints).
 */
export function canonicalIP(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head, tail] = ip.toLowerCase().split('::');
  const parse = (s: string | undefined) => (s ? s.split(':') : []);
  let groups: string[];
  if (tail === undefined) groups = parse(head);
  else {
    const h = parse(head);
    const t = parse(tail);
    groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  }
  const words = groups.map((g) => parseInt(g, 16).toString(16));
  if (words.length !== 8 || words.some((w) => w === 'NaN')) return ip;
  // The longest run of two or more zero words becomes "::".
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && words[j] === '0') j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  if (best < 0) return words.join(':');
  return `${words.slice(0, best).join(':')}::${words.slice(best + bestLen).join(':')}`;
}

function toPorts(ports: { name?: string; port?: number; protocol?: string }[] | null | undefined): DnsPort[] {
  return (ports ?? []).map((p) => ({ name: (p.name ?? '').toLowerCase(), port: p.port ?? -1, protocol: (p.protocol ?? 'TCP').toLowerCase() }));
}

export function toDnsService(o: KubeObject): DnsService {
  const s = o as unknown as ServiceObj;
  const spec = s.spec ?? {};
  const ns = s.metadata.namespace ?? 'default';
  const clusterIPs = (spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : []).map(canonicalIP);
  return {
    name: s.metadata.name, namespace: ns,
    headless: clusterIPs[0] === 'None',
    externalName: spec.type === 'ExternalName' ? spec.externalName : undefined,
    clusterIPs: clusterIPs.filter((ip) => ip !== 'None' && ip !== ''),
    ports: toPorts(spec.ports),
  };
}

export function toDnsSlice(o: KubeObject): DnsSlice | undefined {
  const s = o as unknown as SliceObj;
  const svc = s.metadata.labels?.[SERVICE_NAME_LABEL];
  if (!svc) return undefined;
  const ns = s.metadata.namespace ?? 'default';
  const addresses: DnsEndpointAddress[] = [];
  for (const e of s.endpoints ?? []) {
    if (e.conditions?.ready === false) continue;
    for (const a of e.addresses ?? []) addresses.push({ ip: canonicalIP(a), hostname: e.hostname || undefined });
  }
  return { key: `${ns}/${s.metadata.name}`, service: serviceKey(svc, ns), namespace: ns, ports: toPorts(s.ports), addresses };
}

const addTo = <K, V>(m: Map<K, Set<V>>, k: K, v: V) => {
  let set = m.get(k);
  if (!set) m.set(k, (set = new Set()));
  set.add(v);
};
const removeFrom = <K, V>(m: Map<K, Set<V>>, k: K, v: V) => {
  const set = m.get(k);
  if (!set) return;
  set.delete(v);
  if (set.size === 0) m.delete(k);
};

export class ClusterIndex {
  private readonly namespaces = new Set<string>();
  private readonly services = new Map<string, DnsService>();
  private readonly serviceByIP = new Map<string, string>();
  private readonly slices = new Map<string, DnsSlice>();
  private readonly slicesByService = new Map<string, Set<string>>();
  private readonly slicesByIP = new Map<string, Set<string>>();
  /** Without a Namespace feed every namespace counts as existing (a source that only knows Services). */
  private namespacesKnown = false;
  /** Unix seconds of the last change: the SOA serial (coredns kubernetes.go Serial → APIConn.Modified). */
  modified: number;

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {
    this.modified = nowSeconds();
  }

  private touch(): void {
    this.modified = this.nowSeconds();
  }

  namespaceExists(ns: string): boolean {
    return !this.namespacesKnown || this.namespaces.has(ns);
  }

  service(name: string, namespace: string): DnsService | undefined {
    return this.services.get(serviceKey(name, namespace));
  }

  serviceForIP(ip: string): DnsService | undefined {
    const k = this.serviceByIP.get(ip);
    return k ? this.services.get(k) : undefined;
  }

  /** The Service's EndpointSlices (CoreDNS EpIndex: one Endpoints object per slice). */
  *slicesOf(svc: DnsService): Iterable<DnsSlice> {
    for (const k of this.slicesByService.get(serviceKey(svc.name, svc.namespace)) ?? []) {
      const s = this.slices.get(k);
      if (s) yield s;
    }
  }

  *slicesWithIP(ip: string): Iterable<DnsSlice> {
    for (const k of this.slicesByIP.get(ip) ?? []) {
      const s = this.slices.get(k);
      if (s) yield s;
    }
  }

  setNamespace(name: string): void {
    this.namespacesKnown = true;
    if (!this.namespaces.has(name)) {
      this.namespaces.add(name);
      this.touch();
    }
  }

  deleteNamespace(name: string): void {
    this.namespacesKnown = true;
    if (this.namespaces.delete(name)) this.touch();
  }

  setService(svc: DnsService): void {
    const key = serviceKey(svc.name, svc.namespace);
    this.deleteServiceKey(key);
    this.services.set(key, svc);
    for (const ip of svc.clusterIPs) this.serviceByIP.set(ip, key);
    this.touch();
  }

  deleteService(name: string, namespace: string): void {
    if (this.deleteServiceKey(serviceKey(name, namespace))) this.touch();
  }

  private deleteServiceKey(key: string): boolean {
    const old = this.services.get(key);
    if (!old) return false;
    for (const ip of old.clusterIPs) if (this.serviceByIP.get(ip) === key) this.serviceByIP.delete(ip);
    this.services.delete(key);
    return true;
  }

  setSlice(slice: DnsSlice): void {
    this.deleteSlice(slice.key);
    this.slices.set(slice.key, slice);
    addTo(this.slicesByService, slice.service, slice.key);
    for (const a of slice.addresses) addTo(this.slicesByIP, a.ip, slice.key);
    this.touch();
  }

  deleteSlice(key: string): void {
    const old = this.slices.get(key);
    if (!old) return;
    this.slices.delete(key);
    removeFrom(this.slicesByService, old.service, key);
    for (const a of old.addresses) removeFrom(this.slicesByIP, a.ip, key);
    this.touch();
  }

  /** Handlers for the three informers: Namespaces, Services and EndpointSlices. */
  handlers(): { namespaces: EventHandler<KubeObject>; services: EventHandler<KubeObject>; endpointSlices: EventHandler<KubeObject> } {
    const sliceKey = (o: KubeObject) => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;
    const putSlice = (o: KubeObject) => {
      const s = toDnsSlice(o);
      if (s) this.setSlice(s);
      else this.deleteSlice(sliceKey(o)); // the label may have been removed
    };
    return {
      namespaces: {
        add: (o) => this.setNamespace(o.metadata.name!),
        update: (_old, o) => this.setNamespace(o.metadata.name!),
        delete: (o) => this.deleteNamespace(o.metadata.name!),
      },
      services: {
        add: (o) => this.setService(toDnsService(o)),
        update: (_old, o) => this.setService(toDnsService(o)),
        delete: (o) => this.deleteService(o.metadata.name!, o.metadata.namespace ?? 'default'),
      },
      endpointSlices: {
        add: putSlice,
        update: (_old, o) => putSlice(o),
        delete: (o) => this.deleteSlice(sliceKey(o)),
      },
    };
  }
}
