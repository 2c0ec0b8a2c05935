import { test } from 'node:test';
import assert from 'node:assert/strict';
import dnsPacket from 'dns-packet';
import type { DecodedPacket, Packet } from 'dns-packet';
import { toDnsService, toDnsSlice } from './cluster-index.js';
import { ClusterZone } from './zone.js';
import type { KubeObject } from '../../api/types.js';

const zone = new ClusterZone({ nowSeconds: () => 42 });
zone.index.setNamespace('default');
zone.index.setService(toDnsService({ metadata: { namespace: 'default', name: 'kubernetes' }, spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443 }] } } as KubeObject));
zone.index.setService(toDnsService({ metadata: { namespace: 'default', name: 'big' }, spec: { clusterIP: 'None', ports: [{ name: 'http', port: 80 }] } } as KubeObject));
// 60 ready endpoints: an A answer of ~1.2 KB, more than 512 bytes.
zone.index.setSlice(toDnsSlice({
  metadata: { namespace: 'default', name: 'big-1', labels: { 'kubernetes.io/service-name': 'big' } },
  endpoints: Array.from({ length: 60 }, (_, i) => ({ addresses: [`10.244.0.${i + 1}`], conditions: { ready: true } })),
  ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
} as KubeObject)!);

const query = (name: string, type: string, extra: Partial<Packet> = {}) =>
  dnsPacket.encode({ type: 'query', id: 0x1234, flags: dnsPacket.RECURSION_DESIRED, questions: [{ name, type: type as 'A' }], ...extra });
const ask = (buf: Buffer, t: 'udp' | 'tcp' = 'udp') => {
  const out = zone.handle(buf, t);
  assert.ok(out, 'a reply');
  // dns-packet decodes the rcode, which its typings leave out.
  return dnsPacket.decode(out) as DecodedPacket & { rcode: string };
};
const opt = (size: number, version = 0): Packet['additionals'] => [{ name: '.', type: 'OPT', udpPayloadSize: size, extendedRcode: 0, ednsVersion: version, flags: 0, flag_do: false, options: [] }];

test('wire: a query gets its id, question, RD copied, AA, no RA, and the A record', () => {
  const r = ask(query('kubernetes.default.svc.cluster.local', 'A'));
  assert.equal(r.id, 0x1234);
  assert.equal(r.type, 'response');
  assert.equal(r.flag_aa, true);
  assert.equal(r.flag_rd, true);
  assert.equal(r.flag_ra, false);
  assert.equal(r.rcode, 'NOERROR');
  assert.deepEqual(r.questions, [{ name: 'kubernetes.default.svc.cluster.local', type: 'A', class: 'IN' }]);
  assert.deepEqual(r.answers?.map((a) => ('data' in a ? a.data : undefined)), ['10.96.0.1']);
});

test('wire: NXDOMAIN carries the SOA', () => {
  const r = ask(query('nope.default.svc.cluster.local', 'A'));
  assert.equal(r.rcode, 'NXDOMAIN');
  const soa = r.authorities?.[0];
  assert.ok(soa && soa.type === 'SOA');
  assert.deepEqual(soa.data, { mname: 'ns.dns.cluster.local', rname: 'hostmaster.cluster.local', serial: 42, refresh: 7200, retry: 1800, expire: 86400, minimum: 30 });
});

test('wire: over 512 bytes on UDP without EDNS the reply is cut and TC set; EDNS0 and TCP carry it whole', () => {
  const udp = ask(query('big.default.svc.cluster.local', 'A'));
  assert.equal(udp.flag_tc, true);
  assert.ok((udp.answers?.length ?? 0) < 60);
  assert.ok(zone.handle(query('big.default.svc.cluster.local', 'A'))!.length <= 512);
  const edns = ask(query('big.default.svc.cluster.local', 'A', { additionals: opt(4096) }));
  assert.equal(edns.flag_tc, false);
  assert.equal(edns.answers?.length, 60);
  const echoed = edns.additionals?.find((a) => a.type === 'OPT');
  assert.ok(echoed && echoed.type === 'OPT' && echoed.udpPayloadSize === 4096);
  const tcp = ask(query('big.default.svc.cluster.local', 'A'), 'tcp');
  assert.equal(tcp.flag_tc, false);
  assert.equal(tcp.answers?.length, 60);
});

test('wire: EDNS version other than 0 gets BADVERS', () => {
  const r = ask(query('kubernetes.default.svc.cluster.local', 'A', { additionals: opt(1232, 1) }));
  const o = r.additionals?.find((a) => a.type === 'OPT');
  assert.ok(o && o.type === 'OPT');
  assert.equal(o.extendedRcode, 1);
  assert.equal(r.answers?.length, 0);
});

test('wire: malformed input gets FORMERR or is dropped, never an exception', () => {
  assert.equal(zone.handle(Buffer.from([1, 2, 3])), undefined, 'shorter than a header: dropped');
  const good = query('kubernetes.default.svc.cluster.local', 'A');
  const cut = good.subarray(0, good.length - 3);
  assert.equal(ask(cut).rcode, 'FORMERR');
  const twoQ = dnsPacket.encode({ type: 'query', id: 7, questions: [{ name: 'a', type: 'A' }, { name: 'b', type: 'A' }] });
  assert.equal(ask(twoQ).rcode, 'FORMERR');
  const response = Buffer.from(good);
  response[2] |= 0x80;
  assert.equal(zone.handle(response), undefined, 'responses are not answered');
  const notify = Buffer.from(good);
  notify[2] = (notify[2] & 0x87) | (4 << 3);
  assert.equal(ask(notify).rcode, 'NOTIMP');
  // Random garbage of every length: each gets an answer or silence.
  let seed = 1;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
  for (let i = 0; i < 2000; i++) {
    const buf = Buffer.from(Array.from({ length: i % 80 }, rnd));
    if (buf.length > 2) buf[2] &= 0x7f;
    assert.doesNotThrow(() => zone.handle(buf));
  }
});
