// Small helpers the Store conformance suite shares: store lifetimes, event collection, error checks.

import assert from 'node:assert/strict';
import { StoreError, type Store, type StoreEvent } from '../interfaces.js';

export type MakeStore = () => Promise<Store>;

/** Runs `fn` against a fresh store and always closes it. */
export async function withStore(makeStore: MakeStore, fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await makeStore();
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

/** Collects watch events; `cb` is what the test passes to watch(). */
export function collector(): { events: StoreEvent[]; cb: (ev: StoreEvent) => void } {
  const events: StoreEvent[] = [];
  return { events, cb: (ev) => void events.push(ev) };
}

/**
 * Waits until `check()` holds. Backends may deliver live events asynchronously (etcd's watch stream),
 * so the suite never assumes delivery happened by the time a write resolved; sqlite passes at once.
 */
export async function eventually(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Gives an asynchronous backend time to deliver anything it (wrongly) would, before asserting absence. */
export async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
}

/** Asserts `p` rejects with a StoreError of this code (and message, when given). */
export async function rejectsWith(p: Promise<unknown>, code: StoreError['code'], message?: string): Promise<StoreError> {
  let caught: unknown;
  await assert.rejects(p, (err: unknown) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof StoreError, `expected a StoreError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  if (message !== undefined) assert.equal(caught.message, message);
  return caught;
}

/** The revisions of events, for compact order assertions. */
export function revs(events: StoreEvent[]): number[] {
  return events.map((e) => e.revision);
}
