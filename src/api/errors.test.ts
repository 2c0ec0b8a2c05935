import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from './errors.js';

test('Status bodies serialise their fields in metav1.Status order, as kube-apiserver writes them', () => {
  // What the Python client's FailToCreateError prints is this raw body: the order is part of what users see.
  assert.equal(
    JSON.stringify(StatusError.alreadyExists('apps', 'deployments', 'web').toStatus()),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"web\\" already exists","reason":"AlreadyExists","details":{"name":"web","group":"apps","kind":"deployments"},"code":409}',
  );
  assert.deepEqual(Object.keys(StatusError.badRequest('x').toStatus()), ['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'code']);
});
