// The informer's retry pacing: a watch that ends with a non-410 in-stream error waits before watching again (the
// 429's retryAfterSeconds, else exponential backoff); a 410 re-lists at once; a watch closed at once and empty waits.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '../api/errors.js';
import type { KubeObject, WatchEvent } from '../api/types.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { Informer } from './informer.js';
import type { Client, WatchStream } from './interfaces.js';
import { R } from './resources.js';

/** A client whose every watch ends at once with `ending` (an ERROR event's Status, or a plain close). */
function fakeClient(ending: () => Partial<Status> | undefined) {
  const calls = { lists: 0, watches: [] as number[] };
  let clock!: FakeClock;
  const client = {
    list: async () => {
      calls.lists++;
      return { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [] };
    },
    watch: async (_rt: unknown, _ns: unknown, _opts: unknown, onEvent: (ev: WatchEvent) => void): Promise<WatchStream> => {
      calls.watches.push(clock.now());
      let finish!: () => void;
      const done = new Promise<void>((r) => (finish = r));
      const status = ending();
      queueMicrotask(() => {
        if (status) onEvent({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, ...status } as unknown as KubeObject });
        finish();
      });
      return { done, stop: finish };
    },
  } as unknown as Client;
  return { client, calls, setClock: (c: FakeClock) => (clock = c) };
}

async function run(ending: () => Partial<Status> | undefined, forMs: number) {
  const clock = new FakeClock(0);
  const fake = fakeClient(ending);
  fake.setClock(clock);
  const inf = new Informer({ client: fake.client, resource: R.configmaps, clock, logger: silentLogger });
  inf.start();
  await clock.advance(forMs);
  inf.stop();
  await clock.advance(60_000);
  return fake.calls;
}

test('a 429 in the stream: the next watch waits retryAfterSeconds', async () => {
  const calls = await run(() => ({ code: 429, reason: 'TooManyRequests', message: 'storage is (re)initializing', details: { retryAfterSeconds: 1 } }), 3500);
  assert.deepEqual(calls.watches, [0, 1000, 2000, 3000]);
  assert.equal(calls.lists, 1, 'no re-list: the resourceVersion is still good');
});

test('a 500 in the stream: exponential backoff between watches', async () => {
  const calls = await run(() => ({ code: 500, reason: 'InternalError', message: 'boom' }), 1600);
  assert.deepEqual(calls.watches, [0, 200, 600, 1400]);
});

test('a 410 in the stream re-lists at once; a stream closed at once and empty counts as a failure', async () => {
  let n = 0;
  const calls = await run(() => (n++ === 0 ? { code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' } : undefined), 700);
  assert.equal(calls.lists, 2, 'the 410 made it list again');
  // reflector.go: "very short watch ... lasted less than a second and no items received" backs off like an error.
  assert.deepEqual(calls.watches, [0, 0, 200, 600]);
});
