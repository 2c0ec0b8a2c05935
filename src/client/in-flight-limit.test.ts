// limitInFlight: requests beyond the cap wait in order, each answer admits exactly one, and watches pass by.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limitInFlight } from './in-flight-limit.js';
import type { ApiResponse, Transport } from './interfaces.js';

/** A transport that answers only when told, so the test sees what is out at any moment. */
function held(): Transport & { out: string[]; answer(): void; watches: number } {
  const pending: { path: string; resolve: (r: ApiResponse) => void }[] = [];
  const t = {
    watches: 0,
    get out() { return pending.map((p) => p.path); },
    answer() { pending.shift()!.resolve({ status: 200, body: {} }); },
    request: (req: { path: string }) => new Promise<ApiResponse>((resolve) => pending.push({ path: req.path, resolve })),
    watch: async () => { t.watches++; return { done: new Promise<void>(() => undefined), stop: () => undefined }; },
  };
  return t as unknown as Transport & { out: string[]; answer(): void; watches: number };
}

const settle = () => new Promise((r) => setImmediate(r));

test('requests beyond the cap wait, in order; each freed slot admits exactly one; freed slots are free again', async () => {
  const inner = held();
  const t = limitInFlight(inner, 2);
  const done: string[] = [];
  const paths = ['/a', '/b', '/c', '/d', '/e'];
  const all = paths.map((path) => t.request({ method: 'GET', path }).then(() => done.push(path)));
  await settle();
  assert.deepEqual(inner.out, ['/a', '/b'], 'two out, three waiting');
  // A newcomer arriving while a slot is being handed over does not jump the queue.
  inner.answer();
  const late = t.request({ method: 'GET', path: '/late' }).then(() => done.push('/late'));
  await settle();
  assert.deepEqual(inner.out, ['/b', '/c']);
  inner.answer(); inner.answer();
  await settle();
  assert.deepEqual(inner.out, ['/d', '/e']);
  inner.answer(); inner.answer();
  await settle();
  assert.deepEqual(inner.out, ['/late']);
  inner.answer();
  await Promise.all([...all, late]);
  assert.deepEqual(done, [...paths, '/late']);
  const again = [t.request({ method: 'GET', path: '/f' }), t.request({ method: 'GET', path: '/g' })];
  await settle();
  assert.deepEqual(inner.out, ['/f', '/g']);
  inner.answer(); inner.answer();
  await Promise.all(again);
});

test('a failed request frees its slot too; watches are not counted', async () => {
  const failing: Transport = { request: () => Promise.reject(new Error('boom')), watch: () => Promise.reject(new Error('no')) };
  const t = limitInFlight(failing, 1);
  await assert.rejects(t.request({ method: 'GET', path: '/x' }), /boom/);
  await assert.rejects(t.request({ method: 'GET', path: '/y' }), /boom/, 'the slot came back');
  const inner = held();
  const w = limitInFlight(inner, 1);
  void w.request({ method: 'GET', path: '/busy' });
  await w.watch({ method: 'GET', path: '/w' }, () => undefined);
  assert.equal(inner.watches, 1, 'a watch opens while the only slot is taken');
});
