// Tests for EventPump: FIFO order under re-entrancy, inactive subscribers, callback errors.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventPump, type Subscriber } from './event-pump.js';

test('items enqueued from inside a delivery go after everything already queued', () => {
  const pump = new EventPump<number>(() => {});
  const log: string[] = [];
  const b: Subscriber<number> = { active: true, deliver: (n) => void log.push(`b${n}`) };
  const a: Subscriber<number> = {
    active: true,
    deliver: (n) => {
      log.push(`a${n}`);
      if (n === 1) {
        pump.enqueue(a, 2);
        pump.enqueue(b, 2);
        pump.run(); // nested: must not deliver 2 to anyone before b has 1
      }
    },
  };
  pump.enqueue(a, 1);
  pump.enqueue(b, 1);
  pump.run();
  assert.deepEqual(log, ['a1', 'b1', 'a2', 'b2']);
  assert.equal(pump.pending(), 0);
});

test('inactive subscribers are skipped, even mid-run; errors are reported and delivery goes on', () => {
  const errors: unknown[] = [];
  const pump = new EventPump<number>((e) => errors.push(e));
  const got: number[] = [];
  const quitter: Subscriber<number> = {
    active: true,
    deliver: (n) => {
      got.push(n);
      quitter.active = false;
    },
  };
  const thrower: Subscriber<number> = {
    active: true,
    deliver: () => {
      throw new Error('bad');
    },
  };
  for (const n of [1, 2, 3]) {
    pump.enqueue(quitter, n);
    pump.enqueue(thrower, n);
  }
  pump.run();
  assert.deepEqual(got, [1]);
  assert.equal(errors.length, 3);
});
