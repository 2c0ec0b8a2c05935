// buildOpenApi caches what it builds, and /openapi/v2 content negotiation picks protobuf only when asked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOpenApi, wantsV2Protobuf } from './index.js';
import { TEST_DECLS } from './test-fixtures.js';

test('documents are built once and reused', () => {
  const oa = buildOpenApi(TEST_DECLS);
  assert.equal(oa.v2Json(), oa.v2Json());
  assert.equal(oa.v2Protobuf(), oa.v2Protobuf());
  assert.equal(oa.v3('apis/apps/v1'), oa.v3('apis/apps/v1'));
  assert.equal(oa.v3Discovery(), oa.v3Discovery());
  assert.equal(oa.v3('apis/nope/v1'), undefined);
});

test('discovery points at the cached documents', () => {
  const oa = buildOpenApi(TEST_DECLS);
  const paths = (oa.v3Discovery() as { paths: Record<string, unknown> }).paths;
  for (const gv of Object.keys(paths)) assert.ok(oa.v3(gv), gv);
});

test('wantsV2Protobuf', async (t) => {
  const cases: [string | undefined, boolean][] = [
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', true], // client-go OpenAPISchema()
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', true],
    ['application/json', false],
    ['application/json, application/com.github.proto-openapi.spec.v2@v1.0+protobuf', false],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf;q=1, application/json', true],
    ['*/*', false],
    [undefined, false],
  ];
  for (const [accept, want] of cases) await t.test(String(accept), () => assert.equal(wantsV2Protobuf(accept), want));
});
