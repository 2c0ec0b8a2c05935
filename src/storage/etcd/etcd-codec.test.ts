// Unit tests for the etcd wire codec: byte-wise prefix ends, base64 round trips, event conversion.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { b64, prefixEndB64, toStoreEvent, unb64 } from './etcd-codec.js';

test('prefixEndB64 bumps the last byte below 0xff (clientv3 GetPrefixRangeEnd)', () => {
  const end = (p: string) => Buffer.from(prefixEndB64(p), 'base64');
  const cases: Array<[string, Buffer]> = [
    ['/registry/pods/', Buffer.from('/registry/pods0')],
    ['a', Buffer.from('b')],
    ['', Buffer.from([0])],
    // 'ÿ' is C3 BF in UTF-8: the byte rule bumps BF, not the UTF-16 unit.
    ['ÿ', Buffer.from([0xc3, 0xc0])],
  ];
  for (const [prefix, want] of cases) assert.deepEqual(end(prefix), want, JSON.stringify(prefix));
});

test('base64 round-trips any UTF-8 text, and absent fields decode to the empty string', () => {
  for (const s of ['', 'x', 'ünïcødé ✓ 𝄞', '{"a":1}']) assert.equal(unb64(b64(s)), s);
  assert.equal(unb64(undefined), '');
});

test('toStoreEvent: PUT is the default type; DELETE reports the deleted value at the deletion revision', () => {
  const kv = { key: b64('/p/a'), value: b64('v2'), create_revision: '3', mod_revision: '7' };
  const prev = { key: b64('/p/a'), value: b64('v1'), create_revision: '3', mod_revision: '5' };
  const put = toStoreEvent({ kv, prev_kv: prev }, '/p');
  assert.deepEqual(put, {
    type: 'put', key: '/a', revision: 7,
    kv: { key: '/a', value: 'v2', createRevision: 3, modRevision: 7 },
    prev: { key: '/a', value: 'v1', createRevision: 3, modRevision: 5 },
  });
  const del = toStoreEvent({ type: 'DELETE', kv: { key: b64('/p/a'), mod_revision: '9' }, prev_kv: kv }, '/p');
  assert.deepEqual(del, {
    type: 'delete', key: '/a', revision: 9,
    kv: { key: '/a', value: 'v2', createRevision: 3, modRevision: 9 },
    prev: { key: '/a', value: 'v2', createRevision: 3, modRevision: 7 },
  });
});
