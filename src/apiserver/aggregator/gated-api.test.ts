// An in-process group behind a service-backed APIService: served and discoverable only as its availability allows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AggregatedApi, ServerRequest } from '../interfaces.js';
import type { RequestInfo } from '../request-info.js';
import { GatedApi } from './gated-api.js';

const inner: AggregatedApi = {
  group: 'metrics.k8s.io', version: 'v1beta1',
  resources: [{ plural: 'nodes', singular: '', kind: 'NodeMetrics', namespaced: false, verbs: ['get', 'list'] }],
  handle: async () => ({ status: 200, body: { kind: 'NodeMetricsList' } }),
};
const call = (api: AggregatedApi) => api.handle({ method: 'GET', path: '/apis/metrics.k8s.io/v1beta1/nodes' } as ServerRequest, {} as RequestInfo, { lookup: { get: () => undefined, list: () => [] } });

test('available: the inner API answers and its resources are Current', async () => {
  const api = new GatedApi(inner, true);
  assert.equal(api.freshness, 'Current');
  assert.equal(api.resources.length, 1);
  assert.deepEqual((await call(api)), { status: 200, body: { kind: 'NodeMetricsList' } });
});

test('unavailable: 503 `service unavailable`; Stale and empty', async () => {
  const never = new GatedApi(inner, false);
  assert.deepEqual([never.freshness, never.resources.length], ['Stale', 0]);
  const res = (await call(never)) as { status: number; body: unknown };
  assert.equal(res.status, 503);
  assert.equal(res.body, 'service unavailable\n');
});
