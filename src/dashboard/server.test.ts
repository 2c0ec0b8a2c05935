// The dashboard server against an in-process control plane: the page, /api/snapshot, one SSE event, and refusals.

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { STRATEGIES } from '../api/strategies/index.js';
import type { KubeObject } from '../api/types.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { RealClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { makeNode, makePod } from './fixtures.js';
import { startDashboard, type Dashboard } from './server.js';
import type { Snapshot } from './view-types.js';

let cp: ControlPlane;
let client: Client;
let dash: Dashboard;

const FIT_ERROR = '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn\'t match Pod\'s node affinity/selector.';

before(async () => {
  cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  client = cp.client();
  // No controller manager runs here, so the ServiceAccount admission plugin needs the default account made by hand.
  await client.create(R.serviceaccounts, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  await client.create(R.nodes, undefined, makeNode('lin-1'));
  await client.create(R.nodes, undefined, makeNode('win-1', { os: 'windows', build: '10.0.20348', osImage: 'Windows Server 2022 Datacenter', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] }));
  await client.create(R.pods, 'default', makePod('web', { node: 'win-1', cpu: '250m', memory: '256Mi' }));
  const big: Pod & KubeObject = await client.create(R.pods, 'default', makePod('big', { cpu: '64', os: 'windows' }));
  const status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: FIT_ERROR }] };
  await client.update(R.pods, 'default', { ...big, status }, { subresource: 'status' });
  dash = await startDashboard({ client, port: 0, logger: silentLogger });
});

after(async () => {
  await dash?.close();
  await cp?.stop();
});

interface Reply { status: number; headers: http.IncomingHttpHeaders; body: string }

function request(method: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, dash.url), { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens /api/stream and yields each `snapshot` event's data, parsed. */
function openStream(): { next(): Promise<Snapshot>; close(): void } {
  let buf = '';
  const queue: Snapshot[] = [];
  const waiters: ((s: Snapshot) => void)[] = [];
  const req = http.get(new URL('/api/stream', dash.url), (res) => {
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/event-stream/);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (!/^event: snapshot$/m.test(block)) continue;
        const snap = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as Snapshot;
        const w = waiters.shift();
        if (w) w(snap);
        else queue.push(snap);
      }
    });
  });
  req.on('error', () => {});
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiters.push(resolve))),
    close: () => req.destroy(),
  };
}

test('serves the page and its assets', async () => {
  const page = await request('GET', '/');
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.body, /<script src="\/assets\/app\.js" defer><\/script>/);
  assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
  const js = await request('GET', '/assets/app.js');
  assert.equal(js.status, 200);
  assert.match(String(js.headers['content-type']), /^text\/javascript/);
  assert.doesNotThrow(() => new Function(js.body), 'app.js is valid JavaScript');
  const css = await request('GET', '/assets/app.css');
  assert.equal(css.status, 200);
  const again = await request('GET', '/assets/app.css', { 'if-none-match': String(css.headers.etag) });
  assert.equal(again.status, 304);
  assert.equal((await request('GET', '/nope')).status, 404);
});

test('/api/snapshot: nodes with their pods, the unscheduled lane', async () => {
  const res = await request('GET', '/api/snapshot');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const snap = JSON.parse(res.body) as Snapshot;
  assert.deepEqual(snap.nodes.map((n) => [n.name, n.os]), [['lin-1', 'linux'], ['win-1', 'windows']]);
  const win = snap.nodes[1]!;
  assert.equal(win.windows?.release, 'WS2022');
  assert.deepEqual(win.taints, [{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
  assert.deepEqual(win.pods.map((p) => p.name), ['web']);
  assert.equal(win.cpu.requestedMilli, 250);
  assert.deepEqual(snap.unscheduled.map((p) => [p.name, p.reason, p.message]), [['big', 'Unschedulable', FIT_ERROR]]);
  assert.equal(snap.summary.nodes, 2);
  const cached = await request('GET', '/api/snapshot', { 'if-none-match': String(res.headers.etag) });
  assert.equal(cached.status, 304);
});

test('/api/stream sends the current snapshot, then a new one when the cluster changes', async () => {
  const stream = openStream();
  try {
    const first = await stream.next();
    assert.deepEqual(first.nodes.map((n) => n.name), ['lin-1', 'win-1']);
    await client.create(R.pods, 'default', makePod('late', { node: 'lin-1' }));
    let snap = await stream.next();
    while (!snap.nodes[0]!.pods.some((p) => p.name === 'late')) snap = await stream.next();
    assert.deepEqual(snap.nodes[0]!.pods.map((p) => p.name), ['late']);
  } finally {
    stream.close();
  }
});

test('read-only: every method but GET and HEAD gets 405', async () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    for (const path of ['/', '/api/snapshot', '/api/stream']) {
      const res = await request(method, path);
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.allow, 'GET, HEAD');
    }
  }
  const head = await request('HEAD', '/api/snapshot');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
});

test('refuses foreign Host headers and non-loopback addresses', async () => {
  assert.equal((await request('GET', '/api/snapshot', { host: 'evil.example:80' })).status, 403);
  assert.equal((await request('GET', '/api/snapshot', { host: `localhost:${dash.port}` })).status, 200);
  await assert.rejects(startDashboard({ client, port: 0, host: '0.0.0.0', logger: silentLogger }), /non-loopback/);
});
