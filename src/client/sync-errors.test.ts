// Failed syncs reach the log at error level in kube's words, once per key per window.

import test from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../util/log.js';
import { StatusError } from '../api/errors.js';
import { SyncErrorReporter, SYNC_ERROR_WINDOW_MS } from './sync-errors.js';
import { runWorkers, WorkQueue } from './workqueue.js';
import { FakeClock } from '../util/clock.js';

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'info', write: (l) => lines.push(l.slice(13)) }) };
}

const forbidden = new StatusError(403, 'Forbidden', 'replicasets.apps "web" is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot update resource "replicasets/status" in API group "apps" in the namespace "default"', {});

test('a failed sync is an error line with the key and kube\'s text; retries inside the window are held back and counted', () => {
  let now = 0;
  const { lines, logger } = capture();
  const r = new SyncErrorReporter(logger, () => now);
  r.failed('default/web', forbidden);
  for (let i = 0; i < 5; i++) r.failed('default/web', forbidden);
  assert.deepEqual(lines, [`ERROR sync "default/web" failed with ${forbidden.message} key=default/web`]);
  now += SYNC_ERROR_WINDOW_MS;
  r.failed('default/web', forbidden);
  assert.equal(lines[1], `ERROR sync "default/web" failed with ${forbidden.message} key=default/web suppressed=5`);
});

test('another key, another error text, or a failure after a success is reported at once', () => {
  const { lines, logger } = capture();
  const r = new SyncErrorReporter(logger, () => 0);
  r.failed('a', new Error('boom'));
  r.failed('b', new Error('boom'));
  r.failed('a', new Error('other'));
  r.succeeded('a');
  r.failed('a', new Error('other'));
  assert.deepEqual(lines.map((l) => l.split(' key=')[0]), [
    'ERROR sync "a" failed with boom', 'ERROR sync "b" failed with boom', 'ERROR sync "a" failed with other', 'ERROR sync "a" failed with other',
  ]);
});

test('runWorkers reports a failing reconcile and retries it', async () => {
  const clock = new FakeClock(0);
  const { lines, logger } = capture();
  const queue = new WorkQueue({ clock, baseDelayMs: 5 });
  let calls = 0;
  const done = runWorkers(queue, 1, async () => {
    calls++;
    if (calls < 3) throw new Error('the server could not find the requested resource');
  }, logger);
  queue.add('ns/x');
  for (let i = 0; i < 20 && calls < 3; i++) {
    await new Promise((r) => setImmediate(r));
    await clock.advance(10);
  }
  queue.shutDown();
  await done;
  assert.equal(calls, 3);
  assert.deepEqual(lines, ['ERROR sync "ns/x" failed with the server could not find the requested resource key=ns/x']);
});

test('a conflict (a lost optimistic-concurrency race) is retried without an error line', () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', write: (l) => lines.push(l) });
  const r = new SyncErrorReporter(logger, () => 0);
  r.failed('default/web', StatusError.staleResourceVersion('apps', 'deployments', 'web'));
  r.failed('default/web', new Error('pods is forbidden'));
  assert.equal(lines.length, 1, 'only the non-conflict failure is an error line');
  assert.match(lines[0]!, /sync "default\/web" failed with pods is forbidden/);
});
