import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addNode, addPod, addService, listener, modelCluster } from '../testing/model-cluster.js';
import { formatNetCheck, netCheck } from './net-check.js';

test('the seed verification list passes on a mixed cluster, with the documented Windows limitations marked', async () => {
  const net = modelCluster();
  addNode(net, { name: 'control-plane', os: 'linux', index: 0 });
  const w1 = addNode(net, { name: 'win-1', os: 'windows', index: 2 });
  const w2 = addNode(net, { name: 'win-2', os: 'windows', index: 3 });
  const a = addPod(net, w1, 5, 'win-webserver-a', [listener(80, 'powershell.exe')]);
  const b = addPod(net, w2, 5, 'win-webserver-b', [listener(80, 'powershell.exe')]);
  addService(net, 'win-webserver', '10.96.0.50', [a, b], { type: 'NodePort', ports: [{ port: 80, targetPort: 80, nodePort: 30080, protocol: 'TCP' }] });
  const cells = await netCheck(net, { resolve: async (_p, name) => (name === 'win-webserver' ? '10.96.0.50' : undefined) });
  const failed = cells.filter((c) => c.result === 'fail');
  assert.deepEqual(failed, []);
  const limits = cells.filter((c) => c.result === 'limitation').map((c) => `${c.check} | ${c.from} | ${c.to}`);
  assert.deepEqual(limits.sort(), [
    'node → Service IP | node win-1 | service default/win-webserver 10.96.0.50:80',
    'node → Service IP | node win-2 | service default/win-webserver 10.96.0.50:80',
    'outbound (ICMP) | pod default/win-webserver-a | 203.0.113.10',
    'outbound (ICMP) | pod default/win-webserver-b | 203.0.113.10',
  ]);
  const text = formatNetCheck(cells);
  assert.match(text, /node → pod:\n {2}PASS {2}node control-plane/);
  assert.match(text, /passed, 4 documented Windows limitations, 0 failed\n$/);
});
