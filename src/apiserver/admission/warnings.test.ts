// Warning header values: escaping and de-duplication.

import test from 'node:test';
import assert from 'node:assert/strict';
import { addWarnings, warningValue } from './warnings.js';

test('warningValue escapes quotes and backslashes', () => {
  assert.equal(warningValue('would violate PodSecurity "baseline:latest": x'), '299 - "would violate PodSecurity \\"baseline:latest\\": x"');
  assert.equal(warningValue('a\\b'), '299 - "a\\\\b"');
});

test('addWarnings appends once', () => {
  const h: Record<string, string> = { Warning: '299 - "unknown field \\"spec.x\\""' };
  addWarnings(h, ['w1']);
  addWarnings(h, ['w1', 'w2']);
  assert.equal(h.Warning, '299 - "unknown field \\"spec.x\\"", 299 - "w1", 299 - "w2"');
  const empty: Record<string, string> = {};
  addWarnings(empty, []);
  assert.deepEqual(empty, {});
});
