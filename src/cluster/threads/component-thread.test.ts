// The component thread's lifecycle: a failed start, a crash started again after the back-off, and stop.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { Transport } from '../../client/interfaces.js';
import { createLogger } from '../../util/log.js';
import { startComponentThread } from './component-thread.js';

const entry = new URL('./testing/flaky-worker.js', import.meta.url);
/** Never called: the test worker makes no requests. */
const transport = {} as Transport;

function recordingLogger() {
  const lines: string[] = [];
  return { logger: createLogger({ level: 'info', component: 'test', write: (line) => lines.push(line) }), lines };
}

describe('startComponentThread', () => {
  test('a worker that reports failed makes the start fail with its error', async () => {
    const { logger } = recordingLogger();
    await assert.rejects(startComponentThread({ entry, transport, logger, logLevel: 'error', workerData: { failStart: true } }), /cannot start/);
  });

  test('a worker that dies is logged and started again after the back-off; stop ends the new one', async () => {
    const { logger, lines } = recordingLogger();
    const launches = new Int32Array(new SharedArrayBuffer(4));
    const thread = await startComponentThread({ entry, transport, logger, logLevel: 'error', workerData: { launches }, restartBackoffMs: { base: 20, max: 40 } });
    assert.equal(thread.detail, 'launch 1');
    for (let i = 0; i < 200 && !lines.some((l) => l.includes('running again')); i++) await sleep(25);
    assert.equal(Atomics.load(launches, 0), 2);
    assert.ok(lines.some((l) => l.includes('component thread exited with code 1; starting it again')), lines.join('\n'));
    await thread.stop();
    await sleep(100);
    assert.equal(Atomics.load(launches, 0), 2, 'a requested stop is not restarted');
  });

  test('stop during the back-off starts nothing', async () => {
    const { logger, lines } = recordingLogger();
    const launches = new Int32Array(new SharedArrayBuffer(4));
    const thread = await startComponentThread({ entry, transport, logger, logLevel: 'error', workerData: { launches }, restartBackoffMs: { base: 300, max: 300 } });
    for (let i = 0; i < 200 && !lines.some((l) => l.includes('starting it again')); i++) await sleep(10);
    await thread.stop();
    await sleep(400);
    assert.equal(Atomics.load(launches, 0), 1);
  });
});
