// DNS messages on the wire (RFC 1035, EDNS0 RFC 6891) with dns-packet: a query in, the zone's reply out, with the
// checks a server makes first (miekg/dns DefaultMsgAcceptFunc), the OPT record echoed as CoreDNS's request.SizeAndDo
// does, and UDP replies cut to the client's size with the TC bit (miekg/dns Msg.Truncate).

import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, OptAnswer, Question } from 'dns-packet';
import { RCODE, type Rcode, type Reply, type Rr } from './records.js';

export type Transport = 'udp' | 'tcp';

/** What answers one question (the cluster zone). */
export interface QuestionHandler {
  query(name: string, type: string): Reply;
}

const QR = 0x8000;
const AA = 0x0400;
const TC = 0x0200;
const RD = 0x0100;
const CD = 0x0010;
/** Without EDNS0 a UDP reply holds 512 bytes (RFC 1035 4.2.1); TCP carries up to 64 KiB. */
const UDP_MIN = 512;
const TCP_MAX = 65535;
/** BADVERS (16) is an extended rcode: 1 in the OPT's upper bits, 0 in the header (RFC 6891 6.1.3). */
const BADVERS_EXT = 1;

const HEADER = 12;

function rrToAnswer(rr: Rr): Answer {
  switch (rr.type) {
    case 'SRV': return { name: rr.name, type: 'SRV', ttl: rr.ttl, class: 'IN', data: rr.data };
    case 'SOA': return { name: rr.name, type: 'SOA', ttl: rr.ttl, class: 'IN', data: rr.data };
    case 'TXT': return { name: rr.name, type: 'TXT', ttl: rr.ttl, class: 'IN', data: rr.data };
    default: return { name: rr.name, type: rr.type, ttl: rr.ttl, class: 'IN', data: rr.data };
  }
}

/** A reply carrying only the header (and the question, when it could be read): FORMERR, NOTIMP. */
function headerOnly(packet: Buffer, rcode: number, questions: Question[] = []): Buffer {
  const id = packet.readUInt16BE(0);
  const reqFlags = packet.readUInt16BE(2);
  const flags = (reqFlags & (0x7800 | RD | CD)) | rcode;
  return dnsPacket.encode({ type: 'response', id, flags, questions });
}

// dns-packet exports its record codec, which its typings leave out.
const rrCodec = (dnsPacket as unknown as { answer: { encodingLength(a: Answer): number } }).answer;
const answerLength = (a: Answer) => rrCodec.encodingLength(a);

/**
 * Keeps the records that fit in `size` bytes — answers first, then authority, then additional — and says whether any
 * were left out (the TC bit). The OPT record is always kept.
 */
function fit(base: number, size: number, sections: Answer[][]): { kept: Answer[][]; truncated: boolean } {
  let used = base;
  let truncated = false;
  const kept = sections.map((list) => {
    const out: Answer[] = [];
    for (const a of list) {
      if (truncated) break;
      const len = answerLength(a);
      if (used + len > size) { truncated = true; break; }
      used += len;
      out.push(a);
    }
    return out;
  });
  return { kept, truncated };
}

/** Answers one message; undefined means the message is dropped (too short to answer, or not a query). */
export function handlePacket(handler: QuestionHandler, packet: Buffer, transport: Transport): Buffer | undefined {
  if (packet.length < HEADER) return undefined;
  const reqFlags = packet.readUInt16BE(2);
  if (reqFlags & QR) return undefined; // a response sent to a server is ignored, never answered
  const opcode = (reqFlags >> 11) & 0xf;
  let req: DecodedPacket;
  try {
    req = dnsPacket.decode(packet);
  } catch {
    return headerOnly(packet, RCODE.FORMERR);
  }
  if (opcode !== 0) return headerOnly(packet, RCODE.NOTIMP, req.questions ?? []);
  const questions = req.questions ?? [];
  if (questions.length !== 1) return headerOnly(packet, RCODE.FORMERR, questions);
  const q = questions[0];
  const opts = (req.additionals ?? []).filter((a): a is OptAnswer => a.type === 'OPT');
  if (opts.length > 1) return headerOnly(packet, RCODE.FORMERR, questions);
  const opt = opts[0];
  // The reply's OPT: the client's UDP size, EDNS version 0, the DO bit copied, no options (request.SizeAndDo).
  const replyOpt = (extendedRcode: number): OptAnswer | undefined => opt && {
    name: '.', type: 'OPT', udpPayloadSize: Math.max(opt.udpPayloadSize, UDP_MIN), extendedRcode, ednsVersion: 0,
    flags: opt.flag_do ? dnsPacket.DNSSEC_OK : 0, flag_do: opt.flag_do, options: [],
  };
  const id = req.id ?? 0;
  const echo = reqFlags & (0x7800 | RD | CD);
  if (opt && opt.ednsVersion !== 0) {
    return dnsPacket.encode({ type: 'response', id, flags: echo, questions, additionals: [replyOpt(BADVERS_EXT)!] });
  }
  let reply: Reply;
  if ((q.class ?? 'IN') !== 'IN') reply = { rcode: 'REFUSED', authoritative: false, answers: [], authority: [], additional: [] };
  else reply = handler.query(q.name, q.type);
  const rcode: Rcode = reply.rcode;
  let flags = echo | RCODE[rcode] | (reply.authoritative ? AA : 0);
  const sections = [reply.answers.map(rrToAnswer), reply.authority.map(rrToAnswer), reply.additional.map(rrToAnswer)];
  const optRr = replyOpt(0);
  const size = transport === 'tcp' ? TCP_MAX : opt ? Math.max(opt.udpPayloadSize, UDP_MIN) : UDP_MIN;
  const base = dnsPacket.encodingLength({ questions, additionals: optRr ? [optRr] : [] });
  const { kept, truncated } = fit(base, size, sections);
  if (truncated) flags |= TC;
  return dnsPacket.encode({
    type: 'response', id, flags, questions,
    answers: kept[0], authorities: kept[1], additionals: optRr ? [...kept[2], optRr] : kept[2],
  });
}
