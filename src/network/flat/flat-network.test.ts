import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from 'kubernetes-types/core/v1.js';
import type { Listener } from '../../node/shell/interfaces.js';
import { EMPTY_CLUSTER, FlatNetwork, type FlatNetworkSource } from './flat-network.js';

const web: Listener = { port: 80, protocol: 'TCP', program: 'nginx', handler: async (req) => ({ status: 200, headers: {}, body: Buffer.from(`hello ${req.remoteAddress} ${req.path}`) }) };
const source: FlatNetworkSource = {
  ...EMPTY_CLUSTER,
  listenerAt: (ip, port) => (ip === '10.244.1.5' ? (port === 80 ? web : undefined) : null),
  isPodIP: (ip) => ip === '10.244.1.5',
  isNodeIP: (ip) => ip === '172.18.0.3',
  services: () => [
    { metadata: { namespace: 'app', name: 'web' }, spec: { clusterIP: '10.96.1.1', ports: [{ name: 'http', port: 8080, targetPort: 80 }] } },
    { metadata: { namespace: 'app', name: 'empty' }, spec: { clusterIP: '10.96.1.2', ports: [{ port: 80 }] } },
    { metadata: { namespace: 'app', name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } },
  ] as Service[],
  endpoints: (ns, svc) => (ns === 'app' && svc === 'web' ? [{ ip: '10.244.1.5', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }] : []),
};
const net = new FlatNetwork(source);

const routes: { name: string; ip: string; port: number; want: string }[] = [
  { name: 'a pod port something listens on', ip: '10.244.1.5', port: 80, want: 'open' },
  { name: 'a pod port nothing listens on', ip: '10.244.1.5', port: 81, want: 'refused' },
  { name: 'a Service port to its ready endpoint', ip: '10.96.1.1', port: 8080, want: 'open' },
  { name: 'a Service without endpoints rejects', ip: '10.96.1.2', port: 80, want: 'refused' },
  { name: 'an address nobody has', ip: '10.244.9.9', port: 80, want: 'timeout' },
  { name: 'a node port nothing serves', ip: '172.18.0.3', port: 80, want: 'refused' },
];
for (const r of routes) test(`connect: ${r.name}`, () => assert.equal(net.connect(r.ip, r.port), r.want));

test('DNS answers Service A records, ExternalName CNAMEs, pod names, NXDOMAIN in the zone, SERVFAIL outside it', () => {
  assert.deepEqual(net.lookup('web.app.svc.cluster.local', 'A').answers.map((a) => a.data), ['10.96.1.1']);
  assert.equal(net.lookup('ext.app.svc.cluster.local', 'A').answers[0].data, 'example.com.');
  assert.deepEqual(net.lookup('10-244-1-5.app.pod.cluster.local', 'A').answers.map((a) => a.data), ['10.244.1.5']);
  assert.equal(net.lookup('nope.app.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
  assert.equal(net.lookup('www.example.com', 'A').rcode, 'SERVFAIL');
});

test('HTTP to an address reaches the listener behind a Service; names must be resolved first', async () => {
  const r = await net.http('10.244.2.7', { method: 'GET', url: 'http://10.96.1.1:8080/x?y=1' });
  assert.ok('status' in r);
  assert.equal(r.body.toString(), 'hello 10.244.2.7 /x?y=1');
  assert.deepEqual(await net.http('10.244.2.7', { method: 'GET', url: 'http://web/' }), { error: 'resolve', message: 'web' });
});
