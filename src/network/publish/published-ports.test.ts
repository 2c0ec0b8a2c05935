import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addNode, addPod, addService, modelCluster } from '../testing/model-cluster.js';
import { parsePortMapping, PortMappingError, PublishedPort } from './published-ports.js';

test('port mappings parse as kind and k3d spell them, with clear errors', () => {
  assert.deepEqual(parsePortMapping('8080:30080'), { hostPort: 8080, nodePort: 30080, node: undefined });
  assert.deepEqual(parsePortMapping('0:30080@win-1'), { hostPort: 0, nodePort: 30080, node: 'win-1' });
  assert.throws(() => parsePortMapping('8080'), PortMappingError);
  assert.throws(() => parsePortMapping('70000:30080'), /invalid host port 70000/);
});

test('a published NodePort reaches the Service through the node\'s kube-proxy; the backend sees the node (SNAT)', async () => {
  const net = modelCluster();
  addNode(net, { name: 'linux-1', os: 'linux', index: 1 });
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2 });
  const web = addPod(net, win, 5, 'web', [{
    port: 80, protocol: 'TCP', program: 'powershell.exe',
    handler: async (req) => ({ status: 200, headers: { 'Content-Type': 'text/plain', 'Content-Length': '99' }, body: Buffer.from(`hello from ${req.localAddress}, caller ${req.remoteAddress}`) }),
  }]);
  addService(net, 'web', '10.96.0.50', [web], { type: 'NodePort', ports: [{ port: 80, targetPort: 80, nodePort: 30080, protocol: 'TCP' }] });
  const published = new PublishedPort(net, { hostPort: 0, nodePort: 30080, node: 'win-1' });
  const port = await published.listen();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), `hello from ${web.ip}, caller ${win.ip}`);
    // Through the Linux node: kube-proxy's iptables NodePort rule forwards to the Windows pod, masqueraded.
    const viaLinux = new PublishedPort(net, { hostPort: 0, nodePort: 30080 });
    const p2 = await viaLinux.listen();
    assert.equal(await (await fetch(`http://127.0.0.1:${p2}/`)).text(), `hello from ${web.ip}, caller 172.18.0.3`);
    await viaLinux.close();
    // A NodePort nothing serves: the connection closes without an answer.
    const none = new PublishedPort(net, { hostPort: 0, nodePort: 31000, node: 'win-1' });
    const p3 = await none.listen();
    await assert.rejects(fetch(`http://127.0.0.1:${p3}/`));
    await none.close();
  } finally {
    await published.close();
  }
});
