// The in-flight buckets kube-apiserver uses without API Priority and Fairness, and the checks of their flags.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkMaxInFlight, MaxInFlight } from './max-in-flight.js';
import type { ApiResponse } from '../client/interfaces.js';
import type { ServerResponse } from './interfaces.js';
import { parseRequestInfo } from './request-info.js';

test('the flags: negatives refused; with APF their sum must be positive (kube-apiserver\'s messages)', () => {
  assert.deepEqual(checkMaxInFlight({ readOnly: 400, mutating: 200 }, true), { readOnly: 400, mutating: 200 });
  assert.deepEqual(checkMaxInFlight({ readOnly: 0, mutating: 0 }, false), { readOnly: 0, mutating: 0 }, 'without APF, 0 is no limit');
  const refused: [number, number, boolean, string][] = [
    [-1, 200, true, '--max-requests-inflight can not be negative value'],
    [400, -5, false, '--max-mutating-requests-inflight can not be negative value'],
    [0, 0, true, 'invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive'],
  ];
  for (const [readOnly, mutating, apf, message] of refused) {
    assert.throws(() => checkMaxInFlight({ readOnly, mutating }, apf), { message }, `${readOnly}/${mutating}`);
  }
});

test('a full bucket answers 429 with Retry-After 1, except to system:masters; long-running requests and 0 are unlimited', async () => {
  const m = new MaxInFlight({ readOnly: 1, mutating: 1 });
  const alice = { name: 'alice', groups: ['system:authenticated'] };
  const admin = { name: 'admin', groups: ['system:masters'] };
  let release!: () => void;
  const held = () => new Promise<ServerResponse>((resolve) => { release = () => resolve({ status: 200, body: {} }); });
  const ok = async (): Promise<ServerResponse> => ({ status: 200, body: {} });
  const get = parseRequestInfo('GET', '/api/v1/namespaces/a/pods/p', false);
  const post = parseRequestInfo('POST', '/api/v1/namespaces/a/pods', false);

  /** Every answer here is a plain one (no watch or relayed stream). */
  const serve = (...args: Parameters<MaxInFlight['serve']>): Promise<ApiResponse> => m.serve(...args) as Promise<ApiResponse>;
  const first = m.serve(get, alice, held);
  const refused = await serve(get, alice, ok);
  assert.equal(refused.status, 429);
  assert.equal(refused.body, 'Too many requests, please try again later.\n');
  assert.equal(refused.headers?.['Retry-After'], '1');
  assert.equal((await serve(get, admin, ok)).status, 200, 'system:masters is always served');
  assert.equal((await serve(post, alice, ok)).status, 200, 'writes have their own bucket');
  assert.equal((await serve(parseRequestInfo('GET', '/api/v1/pods', true), alice, ok)).status, 200, 'a watch is long-running');
  assert.match(m.metrics(), /apiserver_current_inflight_requests\{request_kind="readOnly"\} 1/);
  release();
  await first;
  assert.equal((await serve(get, alice, ok)).status, 200, 'the slot is free again');
  const unlimited = new MaxInFlight({ readOnly: 0, mutating: 0 });
  const a = unlimited.serve(post, alice, held);
  assert.equal(((await unlimited.serve(post, alice, ok)) as ApiResponse).status, 200);
  release();
  await a;
});
