// A stub resolver's one question on the wire: the query a pod's resolver sends to a DNS server's port 53 (through
// the network model), and the reply read back into the shells' DnsResult.

import * as dnsPacket from 'dns-packet';
import type { DnsAnswer, DnsResult } from '../../node/shell/interfaces.js';

export type WireServer = (query: Buffer, transport: 'udp' | 'tcp') => Promise<Buffer | undefined>;

let nextId = 1;

function rdata(a: dnsPacket.Answer): string {
  switch (a.type) {
    case 'A': case 'AAAA': return String(a.data);
    case 'CNAME': case 'PTR': case 'NS': return `${String(a.data)}.`;
    case 'SRV': return `${a.data.priority ?? 0} ${a.data.weight ?? 0} ${a.data.port} ${a.data.target}.`;
    case 'TXT': return (Array.isArray(a.data) ? a.data : [a.data]).map((d) => d.toString()).join('');
    case 'SOA': return `${a.data.mname}. ${a.data.rname}. ${a.data.serial} ${a.data.refresh} ${a.data.retry} ${a.data.expire} ${a.data.minimum}`;
    default: return '';
  }
}

/** Asks `server` one question with recursion desired, as glibc, musl and the Windows DNS client do. */
export async function askDns(server: WireServer, fqdn: string, type: string, serverIP: string): Promise<DnsResult> {
  const id = (nextId = (nextId % 65535) + 1);
  const query = dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: type as dnsPacket.RecordType, name: fqdn.replace(/\.$/, '') }] });
  const raw = await server(query, 'udp');
  if (!raw) return { answers: [], rcode: 'TIMEOUT', server: serverIP };
  const reply = dnsPacket.decode(raw);
  // The header's low four bits (the typings leave dns-packet's decoded rcode out).
  const rcode = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN'][(reply.flags ?? 0) & 0xf] ?? 'SERVFAIL';
  const answers: DnsAnswer[] = (reply.answers ?? []).map((a) => ({ name: `${a.name}.`, type: a.type, data: rdata(a), ttl: 'ttl' in a ? a.ttl ?? 0 : 0 }));
  return {
    answers,
    rcode: rcode === 'NOERROR' || rcode === 'NXDOMAIN' ? rcode : 'SERVFAIL',
    server: serverIP,
    authoritative: ((reply.flags ?? 0) & dnsPacket.AUTHORITATIVE_ANSWER) !== 0,
  };
}
