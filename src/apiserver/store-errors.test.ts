// Storage failures that reach a request become kube-apiserver's Status: 429 while the cache (re)initializes, 504 for
// a resourceVersion the cache did not reach, 410 for a compacted one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STRATEGIES } from '../api/strategies/index.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { StoreError } from '../storage/interfaces.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { errorResponse } from './server.js';
import { storeErrorStatus } from './store-errors.js';

describe('storage errors as Status', () => {
  const cases: Array<{ err: StoreError; code: number; reason: string; message: string; retryAfter?: number }> = [
    { err: new StoreError('Initializing', 'watch cache /registry/pods/ is re-listing'), code: 429, reason: 'TooManyRequests', message: 'storage is (re)initializing', retryAfter: 1 },
    { err: new StoreError('TooLargeResourceVersion', 'Too large resource version: 90, current: 12'), code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 90, current: 12', retryAfter: 1 },
    { err: new StoreError('Compacted', 'too old resource version: 3 (7)'), code: 410, reason: 'Expired', message: 'too old resource version: 3 (7)' },
  ];
  for (const c of cases) {
    it(`${c.err.code} → ${c.code} ${c.reason}`, () => {
      const res = errorResponse(c.err, silentLogger);
      const body = res.body as { code: number; reason: string; message: string; details?: { retryAfterSeconds?: number } };
      assert.equal(res.status, c.code);
      assert.equal(body.reason, c.reason);
      assert.equal(body.message, c.message);
      assert.equal(body.details?.retryAfterSeconds, c.retryAfter);
      assert.equal(res.headers?.['Retry-After'], c.retryAfter === undefined ? undefined : String(c.retryAfter));
    });
  }

  it('backend failures without a Kubernetes answer stay internal errors', () => {
    assert.equal(storeErrorStatus(new StoreError('Unavailable', 'sqlite: disk I/O error')), undefined);
    assert.equal(errorResponse(new StoreError('Unavailable', 'sqlite: disk I/O error'), silentLogger).status, 500);
  });

  it('a watch from a resourceVersion the cache never reaches is answered 504 Timeout with ResourceVersionTooLarge', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES });
    await cp.start();
    try {
      const client = cp.client();
      const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
      const rv = Number((await client.list(configmaps, 'default')).metadata.resourceVersion);
      const answer = client.transport.request({
        method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: { watch: 'true', resourceVersion: String(rv + 50) },
      });
      // waitFor polls the store's progress on the clock, so time moves in steps past its 3 s limit.
      for (let waited = 0; waited <= 3100; waited += 100) await clock.advance(100);
      // The watch is refused before it starts: the HTTP answer itself, as cacher.Watch gives it.
      const res = await answer;
      assert.equal(res.status, 504);
      assert.equal(res.headers?.['Retry-After'], '1');
      assert.deepEqual(res.body, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 504, reason: 'Timeout',
        message: `Timeout: Too large resource version: ${rv + 50}, current: ${rv}`,
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      });
    } finally {
      await cp.stop();
    }
  });
});
