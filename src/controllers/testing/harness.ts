// Test wiring for controllers: a fake client, a fake clock, informers over the client, a recording event recorder,
// and `drain` to run queued keys to completion without worker loops.

import type { KubeObject } from '../../api/types.js';
import { InformerFactory } from '../../client/informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import type { EventRecorder, EventType } from '../util/events.js';
import { FakeClient } from './fake-client.js';

/** Collects events as `Type Reason Message` strings, like client-go's record.FakeRecorder. */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];
  event(_obj: KubeObject, type: EventType, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }
}

export interface Harness {
  clock: FakeClock;
  client: FakeClient;
  informers: InformerFactory;
  recorder: FakeRecorder;
  logger: typeof silentLogger;
  /** Starts the informers and waits for their first list. */
  sync(): Promise<void>;
}

export function newHarness(): Harness {
  const clock = new FakeClock();
  const client = new FakeClient(clock);
  const informers = new InformerFactory({ client, clock, logger: silentLogger });
  return {
    clock, client, informers, recorder: new FakeRecorder(), logger: silentLogger,
    async sync() {
      informers.start();
      await informers.waitForSync();
      // Let the watches open so later writes reach the caches.
      for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    },
  };
}

interface Reconciler { queue: WorkQueue; reconcile(key: string): Promise<void> }

/**
 * Runs queued keys of every controller until all queues are empty (or `maxRounds` keys ran). Failed keys are re-added
 * with the queue's backoff, which only fires when the fake clock advances. Returns the errors seen.
 */
export async function drain(controllers: Reconciler[], maxRounds = 200): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (let n = 0; n < maxRounds; n++) {
    const c = controllers.find((x) => x.queue.length > 0);
    if (!c) return errors;
    const key = (await c.queue.get())!;
    try {
      await c.reconcile(key);
      c.queue.forget(key);
    } catch (err) {
      errors.push(err);
      c.queue.addRateLimited(key);
    } finally {
      c.queue.done(key);
    }
  }
  throw new Error(`controllers did not settle in ${maxRounds} rounds`);
}
