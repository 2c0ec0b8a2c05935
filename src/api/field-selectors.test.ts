// Field selectors: parsing (sorted terms, escapes, kube's error messages) and matching.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldSelector, parseFieldSelector } from './field-selectors.js';

test('field selectors', () => {
  assert.deepEqual(parseFieldSelector('spec.nodeName=n1,status.phase!=Running,metadata.name==x'), [
    { field: 'metadata.name', operator: '=', value: 'x' },
    { field: 'spec.nodeName', operator: '=', value: 'n1' },
    { field: 'status.phase', operator: '!=', value: 'Running' },
  ]);
  assert.deepEqual(parseFieldSelector('a=x\\,y'), [{ field: 'a', operator: '=', value: 'x,y' }]);
  assert.deepEqual(parseFieldSelector(''), []);
  assert.throws(() => parseFieldSelector('abc'), { message: "invalid selector: 'abc'; can't understand 'abc'" });
  assert.throws(() => parseFieldSelector('a=b=c'), { message: 'invalid field selector: unescaped character in value: =' });
  assert.throws(() => parseFieldSelector('a=b\\q'), { message: 'invalid field selector: invalid escape sequence: \\q' });
  const fields: Record<string, string> = { 'spec.nodeName': 'n1', 'status.phase': 'Pending' };
  const get = (f: string) => fields[f];
  assert.equal(fieldSelector('spec.nodeName=n1,status.phase!=Running').matches(get), true);
  assert.equal(fieldSelector('spec.nodeName=').matches(get), false);
  assert.equal(fieldSelector('spec.other=').matches(get), true);
});
