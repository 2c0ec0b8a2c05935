// kube-apiserver's legacy token tracking ConfigMap (pkg/controlplane/controller/legacytokentracking/controller.go)
// on an in-process control plane with a fake clock: created at start with the UTC date as `since`, recreated when
// deleted — not sooner than 30 minutes after the last creation (rate.Every(30*time.Minute), burst 1) — with the date
// of the recreation, and a `since` that is no "2006-01-02" date rewritten.

import test from 'node:test';
import assert from 'node:assert/strict';
import { R } from '../../src/client/resources.js';
import { TRACKING_CONFIGMAP } from '../../src/apiserver/authn/legacy-token-tracking.js';
import type { KubeObject } from '../../src/api/types.js';
import { FakeClock } from '../../src/util/clock.js';
import { startControlPlane } from './helpers.js';

type ConfigMap = KubeObject & { data?: Record<string, string> };

/** Polls (real time) until `fn` holds; fails after 10 s. */
async function until(what: string, fn: () => Promise<boolean> | boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`never: ${what}`);
}

test('the tracking ConfigMap comes back after deletion, rate-limited, dated the day it was recreated', async () => {
  // 15 minutes before midnight UTC: the recreation 30 minutes on falls on the next day.
  const clock = new FakeClock(Date.parse('2026-03-09T23:45:00Z'));
  const t = await startControlPlane(clock);
  const get = () => t.client.get<ConfigMap>(R.configmaps, 'kube-system', TRACKING_CONFIGMAP).catch(() => undefined);
  try {
    assert.deepEqual((await get())?.data, { since: '2026-03-09' });

    // Deleted within 30 minutes of its creation: the controller waits for the limiter (a timer on the clock).
    const timers = clock.waiting;
    await t.client.delete(R.configmaps, 'kube-system', TRACKING_CONFIGMAP);
    await until('the controller schedules the recreation', () => clock.waiting > timers);
    assert.equal(await get(), undefined, 'not recreated before 30 minutes have passed since the last creation');
    await clock.advance(30 * 60_000);
    await until('the ConfigMap is recreated', async () => (await get()) !== undefined);
    assert.deepEqual((await get())?.data, { since: '2026-03-10' });

    // A `since` that is no date is rewritten with today's.
    const cm = (await get())!;
    await t.client.update(R.configmaps, 'kube-system', { ...cm, data: { since: 'last tuesday' } });
    await until('the date is rewritten', async () => (await get())?.data?.since === '2026-03-10');

    // 30 minutes after the last creation, a deletion is repaired at once.
    await clock.advance(31 * 60_000);
    await t.client.delete(R.configmaps, 'kube-system', TRACKING_CONFIGMAP);
    await until('the ConfigMap is recreated at once', async () => (await get()) !== undefined);
    assert.deepEqual((await get())?.data, { since: '2026-03-10' });
  } finally {
    await t.stop();
  }
});
