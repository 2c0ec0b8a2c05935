// Continue tokens round-trip, and a token that is not one gets kube-apiserver's 400.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import { decodeContinue, encodeContinue } from './continue-token.js';

test('a continue token carries the revision and start key, in kube-apiserver\'s encoding', () => {
  const token = encodeContinue({ rv: 42, start: '/registry/pods/default/web-1' });
  assert.deepEqual(JSON.parse(Buffer.from(token, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: 42, start: '/registry/pods/default/web-1' });
  assert.deepEqual(decodeContinue(token), { rv: 42, start: '/registry/pods/default/web-1' });
});

test('a malformed continue token is a 400 with storage\'s wording', () => {
  for (const bad of ['!!!', Buffer.from('{"rv":"x"}').toString('base64url'), '']) {
    assert.throws(() => decodeContinue(bad), (err: unknown) => err instanceof StatusError && err.code === 400
      && err.message === 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
});
