// What particular to the MessagePort transport the conformance suite cannot see: objects the server decoded from
// storage cross as their stored text (and arrive equal to what an in-process client gets), others as clones.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import type { KubeObject, WatchEvent } from '../api/types.js';
import { STRATEGIES } from '../api/strategies/index.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { RealClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { createClient } from './client.js';
import type { Client } from './interfaces.js';
import { InProcessTransport } from './in-process.js';
import { PortTransport, servePort, type Port } from './port-transport.js';
import { R } from './resources.js';

/** A port that records what the host sends, so the test can see how objects crossed. */
type Recording = Port & { sent: unknown[] };

function recording(port: Port): Recording {
  const sent: unknown[] = [];
  return { sent, postMessage: (m) => { sent.push(m); port.postMessage(m); }, on: (e, l) => port.on(e, l) };
}

/** A control plane served over a MessageChannel, both ends recording what they send; torn down after `fn`. */
async function overPort(fn: (p: { cp: ControlPlane; viaPort: Client; host: Recording; worker: Recording }) => Promise<void>): Promise<void> {
  const cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  const { port1, port2 } = new MessageChannel();
  const host = recording(port2);
  const end = servePort(host, new InProcessTransport(cp.api));
  const worker = recording(port1);
  const transport = new PortTransport(worker);
  try {
    await fn({ cp, viaPort: createClient(transport), host, worker });
  } finally {
    transport.close();
    end();
    port1.close();
    await cp.stop();
  }
}

test('stored objects cross as their text and arrive as an in-process client sees them; others as clones', () => overPort(async ({ cp, viaPort, host }) => {
  const direct = cp.client();
  const events: WatchEvent[] = [];
  const stream = await viaPort.watch(R.configmaps, 'default', {}, (ev) => events.push(ev));
  const made = await viaPort.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { k: 'v' } });
  const got = await viaPort.get<KubeObject>(R.configmaps, 'default', 'c');
  assert.deepEqual(got, await direct.get(R.configmaps, 'default', 'c'));
  assert.deepEqual(made, got);
  const listed = await viaPort.list(R.configmaps, 'default');
  assert.deepEqual(listed.items, [got]);
  await viaPort.delete(R.configmaps, 'default', 'c');
  for (let i = 0; i < 100 && events.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(events.map((e) => e.type), ['ADDED', 'DELETED']);
  assert.deepEqual(events[0]!.object, got);
  const deletedRv = Number(events[1]!.object.metadata.resourceVersion);
  assert.ok(deletedRv > Number(got.metadata.resourceVersion), 'a DELETED event carries the deletion revision');
  assert.deepEqual({ ...events[1]!.object, metadata: { ...events[1]!.object.metadata, resourceVersion: got.metadata.resourceVersion } }, got);
  stream.stop();
  const wire = JSON.stringify(host.sent);
  assert.match(wire, /"\$stored":"\{/, 'decoded objects crossed as text');
  assert.equal((wire.match(/"\$stored"/g) ?? []).length, 5, 'create, get, list item and the two events');
}));

test('what one side sends in a turn of its loop crosses as one message, answers and events in their order', () => overPort(async ({ viaPort, host, worker }) => {
  const order: string[] = [];
  const stream = await viaPort.watch(R.configmaps, 'default', {}, (ev) => order.push(`${ev.type} ${ev.object.metadata.name}`));
  worker.sent.length = 0;
  host.sent.length = 0;
  // Ten creates in one turn: one message out; their answers and the watch's events come back in few messages.
  const names = Array.from({ length: 10 }, (_, i) => `c${i}`);
  await Promise.all(names.map((name) => viaPort.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })
    .then(() => order.push(`created ${name}`))));
  for (let i = 0; i < 100 && order.filter((o) => o.startsWith('ADDED')).length < 10; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(worker.sent.length, 1, 'the ten requests left together');
  assert.deepEqual((worker.sent[0] as { t: string; msgs: unknown[] }).t, 'many');
  assert.ok(host.sent.length < 10, `answers and events gathered (${host.sent.length} messages)`);
  assert.deepEqual(order.filter((o) => o.startsWith('created')).sort(), names.map((n) => `created ${n}`));
  assert.deepEqual(order.filter((o) => o.startsWith('ADDED')), names.map((n) => `ADDED ${n}`), 'events in the order of the writes');
  stream.stop();
}));
