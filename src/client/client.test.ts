// The typed client's handling of answers that ask to be retried (client-go rest/request.go checkWait): a 429 or
// 500–504 with Retry-After is sent again after that wait, up to ten times; anything else is final.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClient } from './client.js';
import type { ApiRequest, ApiResponse, Transport } from './interfaces.js';
import { R } from './resources.js';

/** Answers requests from a script, counting them. */
function scripted(answers: ApiResponse[]): Transport & { sent: number } {
  const t = {
    sent: 0,
    request: async (_req: ApiRequest): Promise<ApiResponse> => answers[Math.min(t.sent++, answers.length - 1)]!,
    watch: () => Promise.reject(new Error('no watches here')),
  };
  return t;
}

const ok: ApiResponse = { status: 200, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } };
const busy = (headers?: Record<string, string>): ApiResponse => ({ status: 429, body: 'Too many requests, please try again later.\n', headers });

const cases: { name: string; answers: ApiResponse[]; sent: number; outcome: 'ok' | RegExp }[] = [
  { name: 'a 429 with Retry-After is sent again', answers: [busy({ 'Retry-After': '0' }), ok], sent: 2, outcome: 'ok' },
  { name: 'lower-case header (HTTP) counts too', answers: [busy({ 'retry-after': '0' }), busy({ 'retry-after': '0' }), ok], sent: 3, outcome: 'ok' },
  { name: 'a 503 with Retry-After is sent again', answers: [{ status: 503, body: {}, headers: { 'Retry-After': '0' } }, ok], sent: 2, outcome: 'ok' },
  { name: 'a 429 without Retry-After is final', answers: [busy(), ok], sent: 1, outcome: /too many requests/ },
  { name: 'a 500 without Retry-After is final', answers: [{ status: 500, body: {} }, ok], sent: 1, outcome: /status 500/ },
  { name: 'ten retries, then the 429 is the answer', answers: [busy({ 'Retry-After': '0' })], sent: 11, outcome: /too many requests/ },
];

for (const c of cases) {
  test(c.name, async () => {
    const t = scripted(c.answers);
    const get = createClient(t).get(R.pods, 'default', 'p');
    if (c.outcome === 'ok') assert.equal((await get).metadata.name, 'p');
    else await assert.rejects(get, c.outcome);
    assert.equal(t.sent, c.sent);
  });
}
