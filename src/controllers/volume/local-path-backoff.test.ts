import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newHarness } from '../testing/harness.js';
import { LocalPathProvisioner } from './local-path.js';

// sig-storage-lib-external-provisioner controller.go: ItemExponentialFailureRateLimiter(15*time.Second, 1000*time.Second).
test('local-path retries a failed key after 15 s, doubling up to 1000 s (the provisioner library\'s limiter)', async () => {
  const h = newHarness();
  const lp = new LocalPathProvisioner({ ...h, recorder: h.recorder });
  const waits: number[] = [];
  for (let n = 0; n < 8; n++) {
    lp.queue.addRateLimited('default/c');
    let waited = 0;
    while (lp.queue.length === 0) {
      await h.clock.advance(1_000);
      waited += 1_000;
    }
    waits.push(waited);
    await lp.queue.get();
    lp.queue.done('default/c');
  }
  assert.deepEqual(waits, [15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_000_000]);
});
