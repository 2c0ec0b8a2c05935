// The cluster DNS zone, answered as CoreDNS's kubernetes plugin answers it with kubeadm's Corefile
// (`kubernetes cluster.local in-addr.arpa ip6.arpa { pods insecure; fallthrough in-addr.arpa ip6.arpa; ttl 30 }`,
// then `forward . /etc/resolv.conf`): coredns plugin/kubernetes/{kubernetes,parse,reverse,handler}.go and
// plugin/backend_lookup.go. Records follow the Kubernetes DNS specification (kubernetes/dns docs/specification.md).

import { isIP } from 'node:net';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { DnsResult } from '../../node/shell/interfaces.js';
import { canonicalIP, ClusterIndex, type DnsEndpointAddress, type DnsService } from './cluster-index.js';
import { rdataText, UNREACHABLE_UPSTREAM, type Rcode, type Reply, type Rr, type Upstream } from './records.js';
import { handlePacket, type Transport } from './wire.js';

export const CLUSTER_DOMAIN = 'cluster.local';
/** kube-dns's address: the tenth of the default Service CIDR 10.96.0.0/12 (kubeadm's clusterDNS). */
export const DEFAULT_CLUSTER_DNS = '10.96.0.10';
/** kubeadm's Corefile: `ttl 30` in the kubernetes block. */
export const DNS_TTL = 30;
/** The schema version `dns-version.<zone>` TXT answers (coredns kubernetes.go DNSSchemaVersion), with its TTL. */
const DNS_SCHEMA_VERSION = '1.1.0';
const DNS_VERSION_TTL = 28800;
/** CoreDNS stops following CNAMEs after this many (plugin/backend_lookup.go maxCnameChainLength). */
const MAX_CNAME_CHAIN = 10;
/** The Service whose addresses `ns.dns.<zone>` and the zone's NS record give (CoreDNS finds it by its own pod IP). */
const DNS_SERVICE = { name: 'kube-dns', namespace: 'kube-system' };

export type QueryType = 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME' | 'TXT' | 'SOA' | 'NS' | 'MX' | 'AXFR' | 'IXFR' | 'ANY' | string;

export interface ClusterZoneOptions {
  domain?: string;
  ttl?: number;
  /** kube-dns's ClusterIP: the server a DnsResult names, and the NS address while the Service is unknown. */
  dnsIP?: string;
  upstream?: Upstream;
  nowSeconds?: () => number;
}

/** One name the backend found (CoreDNS msg.Service): an address or a name, a port, and the name SRV targets. */
interface Item { host: string; port: number; target: string }
interface Found { items: Item[]; nameError: boolean }

const NONE: Found = { items: [], nameError: false };
const NX: Found = { items: [], nameError: true };

const stripUnderscore = (s: string) => (s.startsWith('_') ? s.slice(1) : s);

/** The label an endpoint is known by: its hostname, else its address with dashes (coredns endpointHostname). */
export function endpointHostname(a: DnsEndpointAddress): string {
  if (a.hostname) return a.hostname;
  if (a.ip.includes('.')) return a.ip.replace(/\./g, '-');
  const v6 = a.ip.replace(/:/g, '-');
  return v6.endsWith('-') ? `${v6}0` : v6;
}

/** The address a reverse name stands for, or '' (coredns plugin/pkg/dnsutil ExtractAddressFromReverse). */
export function addressFromReverse(name: string): string {
  if (name.endsWith('.in-addr.arpa')) {
    const labels = name.slice(0, -'.in-addr.arpa'.length).split('.');
    if (labels.length !== 4 || labels.some((l) => !/^\d{1,3}$/.test(l) || Number(l) > 255)) return '';
    return labels.reverse().join('.');
  }
  if (name.endsWith('.ip6.arpa')) {
    const nibbles = name.slice(0, -'.ip6.arpa'.length).split('.');
    if (nibbles.length !== 32 || nibbles.some((n) => !/^[0-9a-f]$/.test(n))) return '';
    const hex = nibbles.reverse().join('');
    return canonicalIP(hex.match(/.{4}/g)!.join(':'));
  }
  return '';
}

export class ClusterZone {
  readonly index: ClusterIndex;
  readonly domain: string;
  readonly ttl: number;
  readonly dnsIP: string;
  private readonly upstream: Upstream;
  private readonly zones: string[];
  private synced: () => boolean = () => true;

  constructor(o: ClusterZoneOptions = {}) {
    this.domain = (o.domain ?? CLUSTER_DOMAIN).toLowerCase().replace(/\.$/, '');
    this.ttl = o.ttl ?? DNS_TTL;
    this.dnsIP = o.dnsIP ?? DEFAULT_CLUSTER_DNS;
    this.upstream = o.upstream ?? UNREACHABLE_UPSTREAM;
    this.index = new ClusterIndex(o.nowSeconds);
    this.zones = [this.domain, 'in-addr.arpa', 'ip6.arpa'];
  }

  /**
   * Follows the informers; until Services and EndpointSlices have synced, names the zone does not hold get SERVFAIL
   * (handler.go). Namespaces only sharpen NXDOMAIN: until their informer delivers, every namespace counts as existing.
   */
  attach(inf: { namespaces?: Informer<KubeObject>; services: Informer<KubeObject>; endpointSlices: Informer<KubeObject> }): void {
    const h = this.index.handlers();
    inf.namespaces?.addHandler(h.namespaces);
    inf.services.addHandler(h.services);
    inf.endpointSlices.addHandler(h.endpointSlices);
    this.synced = () => inf.services.hasSynced() && inf.endpointSlices.hasSynced();
  }

  /** Answers one fully qualified question for the emulated shells (their resolvers apply the search rules first). */
  answer(name: string, type: QueryType): DnsResult {
    const r = this.query(name, type);
    const rcode = r.rcode === 'NOERROR' || r.rcode === 'NXDOMAIN' ? r.rcode : 'SERVFAIL';
    return {
      answers: r.answers.map((a) => ({ name: `${a.name}.`, type: a.type, data: rdataText(a), ttl: a.ttl })),
      rcode, server: this.dnsIP, authoritative: r.authoritative,
    };
  }

  /** Answers one DNS message off the wire (UDP or TCP payload, without TCP's length prefix); undefined = drop it. */
  handle(packet: Buffer, transport: Transport = 'udp'): Buffer | undefined {
    return handlePacket(this, packet, transport);
  }

  /** The reply to one question; the owner names of answers keep the question's spelling, as CoreDNS's do. */
  query(qname: string, qtype: QueryType): Reply {
    const qn = qname.endsWith('.') ? qname.slice(0, -1) : qname;
    const name = qn.toLowerCase();
    const zone = this.zoneOf(name);
    if (!zone) return this.upstream.resolve(qn, qtype);
    if (zone !== this.domain) return this.reverseZone(qn, name, zone, qtype);
    switch (qtype) {
      case 'A': case 'AAAA': {
        const f = this.services(name, qtype);
        if (f.nameError) return this.nameError(zone);
        return this.reply(zone, this.addresses(qn, name, qtype, f.items, []));
      }
      case 'TXT': {
        if (name === `dns-version.${zone}`) return this.reply(zone, [{ name: qn, type: 'TXT', ttl: DNS_VERSION_TTL, data: DNS_SCHEMA_VERSION }]);
        // Another type exists at the name: NODATA; nothing there: NXDOMAIN (kubernetes.go Services, TypeTXT).
        return this.records(name, zone).items.length ? this.reply(zone, []) : this.nameError(zone);
      }
      case 'CNAME': {
        const f = this.services(name, qtype);
        if (f.nameError) return this.nameError(zone);
        const first = f.items[0];
        return this.reply(zone, first && !isIP(first.host) ? [{ name: qn, type: 'CNAME', ttl: this.ttl, data: first.host }] : []);
      }
      case 'PTR': {
        // A forward name asked for PTR: only names that point at names answer (backend_lookup.go PTR).
        const f = this.services(name, qtype);
        if (f.nameError) return this.nameError(zone);
        const seen = new Set<string>();
        const out: Rr[] = [];
        for (const it of f.items) if (!isIP(it.host) && !seen.has(it.host)) { seen.add(it.host); out.push({ name: qn, type: 'PTR', ttl: this.ttl, data: it.host }); }
        return this.reply(zone, out);
      }
      case 'SRV': {
        const f = this.services(name, qtype);
        if (f.nameError) return this.nameError(zone);
        return this.srv(zone, qn, f.items);
      }
      case 'SOA':
        return this.reply(zone, name === zone ? [this.soa(zone)] : []);
      case 'NS':
        if (name === zone) return this.ns(zone, qn);
        return this.fakeA(zone, name);
      case 'AXFR': case 'IXFR':
        return { rcode: 'REFUSED', authoritative: false, answers: [], authority: [], additional: [] };
      default:
        return this.fakeA(zone, name);
    }
  }

  private zoneOf(name: string): string | undefined {
    let best: string | undefined;
    for (const z of this.zones) if ((name === z || name.endsWith(`.${z}`)) && (!best || z.length > best.length)) best = z;
    return best;
  }

  /** Other types: an A lookup tells NODATA from NXDOMAIN (handler.go default case). */
  private fakeA(zone: string, name: string): Reply {
    return this.services(name, 'A').nameError ? this.nameError(zone) : this.reply(zone, []);
  }

  /** in-addr.arpa and ip6.arpa: PTR for Service and endpoint addresses; the rest falls through to forward. */
  private reverseZone(qn: string, name: string, zone: string, qtype: QueryType): Reply {
    if (qtype === 'SOA' && name === zone) return this.reply(zone, [this.soa(zone)]);
    if (qtype === 'NS' && name === zone) return this.ns(zone, qn);
    if (qtype === 'PTR') {
      const ip = addressFromReverse(name);
      const names = ip ? this.namesForIP(ip) : [];
      if (names.length) return this.reply(zone, names.map((n) => ({ name: qn, type: 'PTR' as const, ttl: this.ttl, data: n })));
    }
    // `fallthrough in-addr.arpa ip6.arpa`: a name error here is the forward plugin's question.
    return this.upstream.resolve(qn, qtype);
  }

  /** The Service owning a ClusterIP, else the endpoints with that address (reverse.go serviceRecordForIP). */
  private namesForIP(ip: string): string[] {
    const svc = this.index.serviceForIP(ip);
    if (svc) return [`${svc.name}.${svc.namespace}.svc.${this.domain}`];
    const out = new Set<string>();
    for (const s of this.index.slicesWithIP(ip)) {
      const [svcName] = s.service.split('.');
      for (const a of s.addresses) if (a.ip === ip) out.add(`${endpointHostname(a)}.${svcName}.${s.namespace}.svc.${this.domain}`);
    }
    return [...out];
  }

  /** kubernetes.go Services: ns.dns.<zone>, then Records; SRV leaves out names that point at names. */
  private services(name: string, qtype: QueryType): Found {
    if (name === `ns.dns.${this.domain}`) {
      const items = this.nsAddresses().filter((ip) => (qtype === 'AAAA' ? isIP(ip) === 6 : isIP(ip) === 4)).map((ip) => ({ host: ip, port: 0, target: name }));
      return { items, nameError: false };
    }
    const f = this.records(name, this.domain);
    return qtype === 'SRV' ? { ...f, items: f.items.filter((i) => isIP(i.host)) } : f;
  }

  /** parse.go parseRequest + kubernetes.go Records: [endpoint | _port._proto].service.namespace.(svc|pod).zone. */
  private records(name: string, zone: string): Found {
    const base = name === zone ? '' : name.slice(0, -(zone.length + 1));
    if (base === '' || base === 'svc' || base === 'pod') return NONE;
    const segs = base.split('.');
    let last = segs.length - 1;
    const kind = segs[last--];
    if (kind !== 'svc' && kind !== 'pod') return NX;
    const namespace = segs[last--];
    const service = last >= 0 ? segs[last--] : '';
    let endpoint = '';
    let port = '';
    let protocol = '';
    if (last === 0) endpoint = segs[0];
    else if (last === 1) {
      port = stripUnderscore(segs[0]);
      protocol = stripUnderscore(segs[1]);
    } else if (last > 1) return NX; // too long to be a name the zone holds
    if (!this.index.namespaceExists(namespace)) return NX;
    if (service === '') return NONE; // the namespace exists: NODATA
    if (kind === 'pod') return this.pod(service, namespace);
    const svc = this.index.service(service, namespace);
    return svc ? this.service(svc, endpoint, port, protocol) : NX;
  }

  /** `pods insecure`: any a-b-c-d name in an existing namespace answers its address, unchecked (findPods). */
  private pod(podName: string, namespace: string): Found {
    const ip = podName.split('-').length === 4 && !podName.includes('--') ? podName.replace(/-/g, '.') : podName.replace(/-/g, ':');
    if (!isIP(ip)) return NX;
    return { items: [{ host: ip, port: 0, target: `${podName}.${namespace}.pod.${this.domain}` }], nameError: false };
  }

  /** findServices for one Service. */
  private service(svc: DnsService, endpoint: string, port: string, protocol: string): Found {
    const svcName = `${svc.name}.${svc.namespace}.svc.${this.domain}`;
    const match = (pName: string, pProto: string) => (port === '' || port === pName) && (protocol === '' || protocol === pProto);
    if (svc.externalName !== undefined) {
      // ExternalName: a CNAME only; endpoint, port and protocol labels name nothing.
      if (endpoint || port || protocol || !svc.externalName || isIP(svc.externalName)) return NX;
      return { items: [{ host: svc.externalName.replace(/\.$/, ''), port: 0, target: svcName }], nameError: false };
    }
    const items: Item[] = [];
    let nameError = true;
    if (svc.headless || endpoint) {
      for (const slice of this.index.slicesOf(svc)) {
        const ports = slice.ports.length ? slice.ports : [{ name: '', port: -1, protocol: '' }];
        for (const a of slice.addresses) {
          const host = endpointHostname(a);
          if (endpoint && host !== endpoint) continue;
          for (const p of ports) {
            if (!match(p.name, p.protocol)) continue;
            nameError = false;
            items.push({ host: a.ip, port: p.port, target: `${host}.${svcName}` });
          }
        }
      }
      return { items, nameError };
    }
    for (const p of svc.ports) {
      if (!match(p.name, p.protocol)) continue;
      nameError = false;
      for (const ip of svc.clusterIPs) items.push({ host: ip, port: p.port, target: svcName });
    }
    return { items, nameError };
  }

  /** A and AAAA: addresses of the family asked, CNAMEs followed inside the zone or asked upstream (backend_lookup.go A). */
  private addresses(qn: string, name: string, qtype: 'A' | 'AAAA', items: Item[], previous: Rr[]): Rr[] {
    const out: Rr[] = [];
    const seen = new Set<string>();
    const family = qtype === 'A' ? 4 : 6;
    for (const it of items) {
      const fam = isIP(it.host);
      if (fam === family) {
        if (!seen.has(it.host)) { seen.add(it.host); out.push({ name: qn, type: qtype, ttl: this.ttl, data: it.host }); }
        continue;
      }
      if (fam !== 0) continue;
      const target = it.host.toLowerCase();
      if (target === name || previous.length > MAX_CNAME_CHAIN) continue;
      const cname: Rr = { name: qn, type: 'CNAME', ttl: this.ttl, data: it.host };
      if (previous.some((p) => p.type === 'CNAME' && p.data === it.host)) continue;
      if (this.zoneOf(target) === this.domain) {
        const f = this.services(target, qtype);
        if (f.nameError) continue;
        const next = this.addresses(it.host, target, qtype, f.items, [...previous, cname]);
        if (next.length) out.push(cname, ...next);
        continue;
      }
      // A name outside the zone: the CNAME stays, with whatever the upstream gave (nothing, without internet).
      out.push(cname, ...this.upstream.resolve(it.host, qtype).answers);
    }
    return out;
  }

  /** SRV: priority 0, weight shared out of 100, targets with their addresses as additional records (backend_lookup.go SRV). */
  private srv(zone: string, qn: string, items: Item[]): Reply {
    const weight = items.length ? Math.max(1, Math.floor(100 / items.length)) : 100;
    const answers: Rr[] = [];
    const additional: Rr[] = [];
    const seenSrv = new Set<string>();
    const seenAddr = new Set<string>();
    for (const it of items) {
      if (it.port === -1) continue;
      const k = `${it.target} ${it.port}`;
      if (!seenSrv.has(k)) { seenSrv.add(k); answers.push({ name: qn, type: 'SRV', ttl: this.ttl, data: { priority: 0, weight, port: it.port, target: it.target } }); }
      const a = `${it.target} ${it.host}`;
      if (!seenAddr.has(a)) { seenAddr.add(a); additional.push({ name: it.target, type: isIP(it.host) === 6 ? 'AAAA' : 'A', ttl: this.ttl, data: it.host }); }
    }
    return { ...this.reply(zone, answers), additional };
  }

  private nsAddresses(): string[] {
    const svc = this.index.service(DNS_SERVICE.name, DNS_SERVICE.namespace);
    return svc?.clusterIPs.length ? svc.clusterIPs : [this.dnsIP];
  }

  /** The zone's NS: the DNS Service's name, its address as glue (plugin/kubernetes/ns.go nsAddrs, backend_lookup.go NS). */
  private ns(zone: string, qn: string): Reply {
    const host = `${DNS_SERVICE.name}.${DNS_SERVICE.namespace}.svc.${this.domain}`;
    const additional: Rr[] = this.nsAddresses().map((ip) => ({ name: host, type: isIP(ip) === 6 ? 'AAAA' as const : 'A' as const, ttl: this.ttl, data: ip }));
    return { rcode: 'NOERROR', authoritative: true, answers: [{ name: qn, type: 'NS', ttl: this.ttl, data: host }], authority: [], additional };
  }

  /** The SOA CoreDNS makes up for its zones (backend_lookup.go SOA): serial = last change, negative TTL = ttl. */
  soa(zone: string): Rr {
    return {
      name: zone, type: 'SOA', ttl: Math.min(this.ttl, 300),
      data: { mname: `ns.dns.${zone}`, rname: `hostmaster.${zone}`, serial: this.index.modified >>> 0, refresh: 7200, retry: 1800, expire: 86400, minimum: this.ttl },
    };
  }

  /** Records, or NODATA (NOERROR with the SOA in the authority section, BackendError). */
  private reply(zone: string, answers: Rr[]): Reply {
    if (answers.length) return { rcode: 'NOERROR', authoritative: true, answers, authority: [], additional: [] };
    return { rcode: 'NOERROR', authoritative: true, answers: [], authority: [this.soa(zone)], additional: [] };
  }

  /** NXDOMAIN with the SOA; SERVFAIL while the informers have not synced (handler.go). */
  private nameError(zone: string): Reply {
    const rcode: Rcode = this.synced() ? 'NXDOMAIN' : 'SERVFAIL';
    return { rcode, authoritative: true, answers: [], authority: [this.soa(zone)], additional: [] };
  }
}
