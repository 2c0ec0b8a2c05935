import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serviceAccount } from './service-account.js';
import { attrs, fakeLookup } from './testing.js';

test('a pod spec without containers goes through (validation reports it), the token still mounted on init containers', () => {
  const lookup = fakeLookup({ serviceaccounts: [{ metadata: { name: 'default', namespace: 'default' } }] });
  const pod = { metadata: { name: 'p', namespace: 'default' }, spec: { initContainers: [{ name: 'i', image: 'x' }] } };
  serviceAccount().admit!(attrs('pods', pod), lookup);
  const spec = pod.spec as { serviceAccountName?: string; initContainers: { volumeMounts?: { mountPath: string }[] }[] };
  assert.equal(spec.serviceAccountName, 'default');
  assert.equal(spec.initContainers[0].volumeMounts?.[0].mountPath, '/var/run/secrets/kubernetes.io/serviceaccount');
});
