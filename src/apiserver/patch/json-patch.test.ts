import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../api/errors.js';
import { applyJsonPatch, JSON_PATCH_APPLY_FAILED, MAX_JSON_PATCH_OPERATIONS } from './json-patch.js';
import { parsePointer } from './json-pointer.js';

const doc = { metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'web', 'a~b': '1' } }, spec: { list: [1, 2, 3] } };

test('json patch: operations (RFC 6902 §4)', () => {
  const cases: Array<[string, unknown[], unknown]> = [
    ['add to map', [{ op: 'add', path: '/spec/x', value: { y: 1 } }], { ...doc, spec: { list: [1, 2, 3], x: { y: 1 } } }],
    ['add replaces an existing member', [{ op: 'add', path: '/metadata/name', value: 'y' }], { ...doc, metadata: { ...doc.metadata, name: 'y' } }],
    ['add inserts into a list', [{ op: 'add', path: '/spec/list/1', value: 9 }], { ...doc, spec: { list: [1, 9, 2, 3] } }],
    ['add appends with -', [{ op: 'add', path: '/spec/list/-', value: 4 }], { ...doc, spec: { list: [1, 2, 3, 4] } }],
    ['remove from list', [{ op: 'remove', path: '/spec/list/0' }], { ...doc, spec: { list: [2, 3] } }],
    ['remove with ~1 escaping', [{ op: 'remove', path: '/metadata/labels/app.kubernetes.io~1name' }], { ...doc, metadata: { name: 'x', labels: { 'a~b': '1' } } }],
    ['replace with ~0 escaping', [{ op: 'replace', path: '/metadata/labels/a~0b', value: '2' }], { ...doc, metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'web', 'a~b': '2' } } }],
    ['move', [{ op: 'move', from: '/metadata/name', path: '/spec/name' }], { metadata: { labels: doc.metadata.labels }, spec: { list: [1, 2, 3], name: 'x' } }],
    ['copy', [{ op: 'copy', from: '/spec/list', path: '/spec/copy' }], { ...doc, spec: { list: [1, 2, 3], copy: [1, 2, 3] } }],
    ['test then replace (rollout undo shape)', [{ op: 'test', path: '/metadata/name', value: 'x' }, { op: 'replace', path: '/spec', value: {} }], { ...doc, spec: {} }],
    ['replace the whole document', [{ op: 'replace', path: '', value: { a: 1 } }], { a: 1 }],
  ];
  for (const [name, ops, want] of cases) {
    const before = JSON.stringify(doc);
    assert.deepEqual(applyJsonPatch(doc, ops), want, name);
    assert.equal(JSON.stringify(doc), before, `${name}: input untouched`);
  }
});

test('json patch: failures', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['not a list', { op: 'add' }, 400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['element not an object', ['add'], 400, 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
    ['failed test', [{ op: 'test', path: '/metadata/name', value: 'y' }], 422, JSON_PATCH_APPLY_FAILED],
    ['test of a missing path', [{ op: 'test', path: '/nope', value: 1 }], 422, JSON_PATCH_APPLY_FAILED],
    ['remove missing key', [{ op: 'remove', path: '/metadata/nope' }], 422, JSON_PATCH_APPLY_FAILED],
    ['replace missing key', [{ op: 'replace', path: '/metadata/nope', value: 1 }], 422, JSON_PATCH_APPLY_FAILED],
    ['add under a missing parent', [{ op: 'add', path: '/a/b', value: 1 }], 422, JSON_PATCH_APPLY_FAILED],
    ['index out of range', [{ op: 'add', path: '/spec/list/9', value: 1 }], 422, JSON_PATCH_APPLY_FAILED],
    ['unknown op', [{ op: 'frob', path: '/a' }], 422, JSON_PATCH_APPLY_FAILED],
    ['missing value', [{ op: 'add', path: '/a' }], 422, JSON_PATCH_APPLY_FAILED],
    ['move into own child', [{ op: 'move', from: '/spec', path: '/spec/x' }], 422, JSON_PATCH_APPLY_FAILED],
    ['too many operations', Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '', value: doc })), 413,
      `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001`],
  ];
  for (const [name, ops, code, message] of cases) {
    assert.throws(() => applyJsonPatch(doc, ops), (e: unknown) => {
      assert.ok(e instanceof StatusError, name);
      assert.equal(e.code, code, name);
      assert.equal(e.message, message, name);
      return true;
    }, name);
  }
});

test('json patch: a failing operation leaves no partial result behind', () => {
  const input = { a: 1 };
  assert.throws(() => applyJsonPatch(input, [{ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/zz' }]));
  assert.deepEqual(input, { a: 1 });
});

test('json pointer parsing', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.deepEqual(parsePointer('/a~1b/~01'), ['a/b', '~1']);
  assert.equal(parsePointer('a'), undefined);
  assert.equal(parsePointer('/a~2'), undefined);
});
