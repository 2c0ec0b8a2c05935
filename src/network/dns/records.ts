// DNS resource records and replies as the zone produces them: one shape for the wire encoder (dns-packet) and the
// emulated shells' DnsResult, plus the one place that decides what a name outside the cluster gets.

export type RrType = 'A' | 'AAAA' | 'CNAME' | 'PTR' | 'SRV' | 'TXT' | 'SOA' | 'NS';

export interface SrvRdata { priority: number; weight: number; port: number; target: string }
export interface SoaRdata { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number }

/** Owner names and targets are absolute names written without the trailing dot (dns-packet's convention). */
export type Rr =
  | { name: string; type: 'A' | 'AAAA' | 'CNAME' | 'PTR' | 'NS' | 'TXT'; ttl: number; data: string }
  | { name: string; type: 'SRV'; ttl: number; data: SrvRdata }
  | { name: string; type: 'SOA'; ttl: number; data: SoaRdata };

export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';
export const RCODE: Record<Rcode, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

export interface Reply {
  rcode: Rcode;
  /** The AA bit: set on every answer the kubernetes plugin writes (coredns plugin/kubernetes/handler.go). */
  authoritative: boolean;
  answers: Rr[];
  authority: Rr[];
  additional: Rr[];
}

/** What answers names the cluster zones do not hold: kubeadm's Corefile has `forward . /etc/resolv.conf`. */
export interface Upstream {
  resolve(name: string, type: string): Reply;
}

/**
 * winkube has no internet: the forward plugin finds no healthy upstream and the server writes SERVFAIL, without the
 * AA bit and without records (coredns plugin/forward/forward.go ErrNoHealthy → core/dnsserver errorFunc).
 */
export const UNREACHABLE_UPSTREAM: Upstream = {
  resolve: () => ({ rcode: 'SERVFAIL', authoritative: false, answers: [], authority: [], additional: [] }),
};

/** An RR's data as presentation text (zone-file style, names absolute with a trailing dot). */
export function rdataText(rr: Rr): string {
  switch (rr.type) {
    case 'A': case 'AAAA': case 'TXT': return rr.data;
    case 'CNAME': case 'PTR': case 'NS': return `${rr.data}.`;
    case 'SRV': return `${rr.data.priority} ${rr.data.weight} ${rr.data.port} ${rr.data.target}.`;
    case 'SOA': {
      const s = rr.data;
      return `${s.mname}. ${s.rname}. ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`;
    }
  }
}
