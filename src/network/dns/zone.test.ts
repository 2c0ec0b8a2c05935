import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/types.js';
import { canonicalIP, toDnsService, toDnsSlice } from './cluster-index.js';
import { rdataText } from './records.js';
import { addressFromReverse, ClusterZone } from './zone.js';

const svc = (ns: string, name: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { namespace: ns, name }, spec } as KubeObject);
const slice = (ns: string, name: string, service: string, endpoints: unknown[], ports: unknown[] = []): KubeObject =>
  ({ metadata: { namespace: ns, name, labels: { 'kubernetes.io/service-name': service } }, addressType: 'IPv4', endpoints, ports } as KubeObject);

function fixture(): ClusterZone {
  const z = new ClusterZone({ nowSeconds: () => 1_700_000_000 });
  for (const ns of ['default', 'kube-system', 'app']) z.index.setNamespace(ns);
  const services = [
    svc('default', 'kubernetes', { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP' }] }),
    svc('kube-system', 'kube-dns', { clusterIP: '10.96.0.10', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }, { name: 'metrics', port: 9153, protocol: 'TCP' }] }),
    svc('app', 'web', { clusterIP: '10.96.1.1', ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }),
    svc('app', 'dual', { clusterIP: '10.96.1.3', clusterIPs: ['10.96.1.3', 'fd00:10:96::3'], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
    svc('app', 'db', { clusterIP: 'None', clusterIPs: ['None'], ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] }),
    svc('app', 'empty', { clusterIP: 'None', ports: [{ port: 80 }] }),
    svc('app', 'ext', { type: 'ExternalName', externalName: 'example.com' }),
    svc('app', 'alias', { type: 'ExternalName', externalName: 'web.app.svc.cluster.local' }),
  ];
  for (const s of services) z.index.setService(toDnsService(s));
  const slices = [
    slice('app', 'web-abc', 'web', [{ addresses: ['10.244.1.5'], conditions: { ready: true } }], [{ name: 'http', port: 80, protocol: 'TCP' }]),
    slice('app', 'db-1', 'db', [
      { addresses: ['10.244.1.7'], hostname: 'db-0', conditions: { ready: true } },
      { addresses: ['10.244.2.8'], hostname: 'db-1' }, // ready unset counts as ready
      { addresses: ['10.244.2.9'], hostname: 'db-2', conditions: { ready: false } },
    ], [{ name: 'pg', port: 5432, protocol: 'TCP' }]),
    slice('app', 'empty-1', 'empty', [{ addresses: ['10.244.3.3'], conditions: { ready: false } }], [{ port: 80, protocol: 'TCP' }]),
  ];
  for (const s of slices) z.index.setSlice(toDnsSlice(s)!);
  return z;
}

const z = fixture();
const data = (name: string, type: string) => z.query(name, type).answers.map((a) => `${a.type} ${rdataText(a)}`);

const cases: { name: string; q: string; type: string; rcode: string; answers?: string[] }[] = [
  { name: 'ClusterIP Service', q: 'kubernetes.default.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.96.0.1'] },
  { name: 'trailing dot and upper case', q: 'Kubernetes.Default.SVC.cluster.local.', type: 'A', rcode: 'NOERROR', answers: ['A 10.96.0.1'] },
  { name: 'dual-stack A', q: 'dual.app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.96.1.3'] },
  { name: 'dual-stack AAAA', q: 'dual.app.svc.cluster.local', type: 'AAAA', rcode: 'NOERROR', answers: ['AAAA fd00:10:96::3'] },
  { name: 'AAAA of an IPv4 Service is NODATA', q: 'web.app.svc.cluster.local', type: 'AAAA', rcode: 'NOERROR', answers: [] },
  { name: 'headless: ready endpoints (ready unset counts)', q: 'db.app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.244.1.7', 'A 10.244.2.8'] },
  { name: 'headless without ready endpoints is NXDOMAIN', q: 'empty.app.svc.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'endpoint hostname', q: 'db-0.db.app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.244.1.7'] },
  { name: 'not-ready endpoint hostname', q: 'db-2.db.app.svc.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'endpoint by dashed address of a ClusterIP Service', q: '10-244-1-5.web.app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.244.1.5'] },
  { name: 'ExternalName: CNAME, target unresolvable without internet', q: 'ext.app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['CNAME example.com.'] },
  { name: 'ExternalName in the zone is followed', q: 'alias.app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['CNAME web.app.svc.cluster.local.', 'A 10.96.1.1'] },
  { name: 'CNAME query', q: 'ext.app.svc.cluster.local', type: 'CNAME', rcode: 'NOERROR', answers: ['CNAME example.com.'] },
  { name: 'pod A record (pods insecure)', q: '10-244-1-5.app.pod.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.244.1.5'] },
  { name: 'pod name that is no address', q: 'web-0.app.pod.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'pod in a namespace that does not exist', q: '10-244-1-5.nope.pod.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'unknown Service', q: 'nope.app.svc.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'Windows-style partial name kubernetes.default', q: 'kubernetes.default', type: 'A', rcode: 'SERVFAIL' },
  { name: 'namespace that exists', q: 'app.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: [] },
  { name: 'namespace that does not', q: 'nope.svc.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'neither svc nor pod', q: 'foo.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'too many labels', q: 'a.b.c.web.app.svc.cluster.local', type: 'A', rcode: 'NXDOMAIN' },
  { name: 'zone apex A is NODATA', q: 'cluster.local', type: 'A', rcode: 'NOERROR', answers: [] },
  { name: 'svc apex', q: 'svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: [] },
  { name: 'outside the cluster: no upstream', q: 'www.example.com', type: 'A', rcode: 'SERVFAIL' },
  { name: 'SRV by port name', q: '_https._tcp.kubernetes.default.svc.cluster.local', type: 'SRV', rcode: 'NOERROR', answers: ['SRV 0 100 443 kubernetes.default.svc.cluster.local.'] },
  { name: 'SRV of every port', q: 'kube-dns.kube-system.svc.cluster.local', type: 'SRV', rcode: 'NOERROR', answers: ['SRV 0 33 53 kube-dns.kube-system.svc.cluster.local.', 'SRV 0 33 9153 kube-dns.kube-system.svc.cluster.local.'] },
  { name: 'SRV with protocol', q: '_dns._udp.kube-dns.kube-system.svc.cluster.local', type: 'SRV', rcode: 'NOERROR', answers: ['SRV 0 100 53 kube-dns.kube-system.svc.cluster.local.'] },
  { name: 'SRV wrong protocol', q: '_dns._tcp.kube-dns.kube-system.svc.cluster.local', type: 'SRV', rcode: 'NXDOMAIN' },
  { name: 'headless SRV per endpoint', q: '_pg._tcp.db.app.svc.cluster.local', type: 'SRV', rcode: 'NOERROR', answers: ['SRV 0 50 5432 db-0.db.app.svc.cluster.local.', 'SRV 0 50 5432 db-1.db.app.svc.cluster.local.'] },
  { name: 'SRV of an ExternalName is NODATA', q: 'ext.app.svc.cluster.local', type: 'SRV', rcode: 'NOERROR', answers: [] },
  { name: 'PTR of a ClusterIP', q: '10.0.96.10.in-addr.arpa', type: 'PTR', rcode: 'NOERROR', answers: ['PTR kube-dns.kube-system.svc.cluster.local.'] },
  { name: 'PTR of an endpoint with hostname', q: '7.1.244.10.in-addr.arpa', type: 'PTR', rcode: 'NOERROR', answers: ['PTR db-0.db.app.svc.cluster.local.'] },
  { name: 'PTR of an endpoint without hostname', q: '5.1.244.10.in-addr.arpa', type: 'PTR', rcode: 'NOERROR', answers: ['PTR 10-244-1-5.web.app.svc.cluster.local.'] },
  { name: 'PTR of an IPv6 ClusterIP', q: '3.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa', type: 'PTR', rcode: 'NOERROR', answers: ['PTR dual.app.svc.cluster.local.'] },
  { name: 'PTR of an unknown address falls through to forward', q: '9.9.9.9.in-addr.arpa', type: 'PTR', rcode: 'SERVFAIL' },
  { name: 'dns-version TXT', q: 'dns-version.cluster.local', type: 'TXT', rcode: 'NOERROR', answers: ['TXT 1.1.0'] },
  { name: 'TXT of a Service is NODATA', q: 'web.app.svc.cluster.local', type: 'TXT', rcode: 'NOERROR', answers: [] },
  { name: 'TXT of nothing is NXDOMAIN', q: 'nope.app.svc.cluster.local', type: 'TXT', rcode: 'NXDOMAIN' },
  { name: 'MX of a Service is NODATA', q: 'web.app.svc.cluster.local', type: 'MX', rcode: 'NOERROR', answers: [] },
  { name: 'MX of nothing is NXDOMAIN', q: 'nope.app.svc.cluster.local', type: 'MX', rcode: 'NXDOMAIN' },
  { name: 'ns.dns A is kube-dns', q: 'ns.dns.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['A 10.96.0.10'] },
  { name: 'NS at the apex', q: 'cluster.local', type: 'NS', rcode: 'NOERROR', answers: ['NS kube-dns.kube-system.svc.cluster.local.'] },
  { name: 'SOA at the apex', q: 'cluster.local', type: 'SOA', rcode: 'NOERROR', answers: ['SOA ns.dns.cluster.local. hostmaster.cluster.local. 1700000000 7200 1800 86400 30'] },
  { name: 'zone transfer refused', q: 'cluster.local', type: 'AXFR', rcode: 'REFUSED' },
];

for (const c of cases) {
  test(`zone: ${c.name}`, () => {
    const r = z.query(c.q, c.type);
    assert.equal(r.rcode, c.rcode);
    if (c.answers) assert.deepEqual(data(c.q, c.type), c.answers);
  });
}

test('NXDOMAIN and NODATA carry the SOA in the authority section, TTL 30, and the AA bit', () => {
  for (const [q, type] of [['nope.app.svc.cluster.local', 'A'], ['web.app.svc.cluster.local', 'AAAA']]) {
    const r = z.query(q, type);
    assert.equal(r.authoritative, true);
    assert.equal(r.authority.length, 1);
    assert.equal(r.authority[0].type, 'SOA');
    assert.equal(r.authority[0].name, 'cluster.local');
    assert.equal(r.authority[0].ttl, 30);
  }
  assert.equal(z.query('www.example.com', 'A').authoritative, false);
});

test('answers keep the spelling of the question and have TTL 30; dns-version has 28800', () => {
  const r = z.query('KUBERNETES.default.svc.cluster.local', 'A');
  assert.equal(r.answers[0].name, 'KUBERNETES.default.svc.cluster.local');
  assert.equal(r.answers[0].ttl, 30);
  assert.equal(z.query('dns-version.cluster.local', 'TXT').answers[0].ttl, 28800);
});

test('SRV answers bring the targets\' addresses as additional records', () => {
  const r = z.query('_pg._tcp.db.app.svc.cluster.local', 'SRV');
  assert.deepEqual(r.additional.map((a) => `${a.name} ${a.type} ${rdataText(a)}`), ['db-0.db.app.svc.cluster.local A 10.244.1.7', 'db-1.db.app.svc.cluster.local A 10.244.2.8']);
});

test('updates: a deleted Service and slice disappear; the serial follows the last change', () => {
  let now = 100;
  const zz = new ClusterZone({ nowSeconds: () => now });
  zz.index.setNamespace('app');
  zz.index.setService(toDnsService(svc('app', 'web', { clusterIP: '10.96.1.1', ports: [{ port: 80 }] })));
  zz.index.setSlice(toDnsSlice(slice('app', 'web-1', 'web', [{ addresses: ['10.244.1.5'] }], [{ port: 80 }]))!);
  assert.equal(zz.query('5.1.244.10.in-addr.arpa', 'PTR').rcode, 'NOERROR');
  now = 200;
  zz.index.deleteSlice('app/web-1');
  zz.index.deleteService('web', 'app');
  assert.equal(zz.query('web.app.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
  assert.equal(zz.query('1.1.96.10.in-addr.arpa', 'PTR').rcode, 'SERVFAIL');
  assert.equal(zz.query('5.1.244.10.in-addr.arpa', 'PTR').rcode, 'SERVFAIL');
  assert.equal((zz.query('cluster.local', 'SOA').answers[0].data as { serial: number }).serial, 200);
});

test('answer(): the DnsResult the emulated shells read', () => {
  assert.deepEqual(z.answer('kubernetes.default.svc.cluster.local', 'A'), {
    answers: [{ name: 'kubernetes.default.svc.cluster.local.', type: 'A', data: '10.96.0.1', ttl: 30 }], rcode: 'NOERROR', server: '10.96.0.10', authoritative: true,
  });
  assert.equal(z.answer('10.0.96.10.in-addr.arpa', 'PTR').answers[0].data, 'kube-dns.kube-system.svc.cluster.local.');
  assert.equal(z.answer('www.example.com', 'A').rcode, 'SERVFAIL');
});

test('reverse names and IPv6 text', () => {
  assert.equal(addressFromReverse('4.3.2.1.in-addr.arpa'), '1.2.3.4');
  assert.equal(addressFromReverse('3.2.1.in-addr.arpa'), '');
  assert.equal(canonicalIP('FD00:0010:0096:0000:0000:0000:0000:0003'), 'fd00:10:96::3');
  assert.equal(canonicalIP('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
});
