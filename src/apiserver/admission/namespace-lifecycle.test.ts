// NamespaceLifecycle admission: cache, then storage on a miss or after a recent delete, and kube's texts
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/types.js';
import { StatusError } from '../../api/errors.js';
import type { AdmissionLookup } from './interfaces.js';
import { FORCE_LIVE_LOOKUP_TTL_MS, namespaceLifecycle } from './namespace-lifecycle.js';
import { attrs, decl } from './testing.js';

const ns = (name: string, phase: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } });

/** A lookup whose watch cache and storage can disagree; counts the reads of storage. */
function splitLookup(cached: KubeObject[], stored: KubeObject[]) {
  const find = (list: KubeObject[], name: string) => list.find((o) => o.metadata.name === name);
  const l = {
    liveReads: 0,
    cached,
    stored,
    get: (_g: string, _r: string, _ns: string | undefined, name: string) => find(l.cached, name),
    list: () => l.cached,
    getLive: async (_g: string, _r: string, _ns: string | undefined, name: string) => {
      l.liveReads++;
      return find(l.stored, name);
    },
  };
  return l satisfies AdmissionLookup;
}

const cm = (namespace: string) => attrs('configmaps', { metadata: { name: 'c', namespace } });

/** The plugin's refusal, whether it decided at once (a throw) or after a read of storage (a rejected promise). */
async function rejection(run: () => void | Promise<void>): Promise<StatusError> {
  const err = await (async () => run())().then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof StatusError, 'expected a StatusError');
  return err;
}

test('a namespace in the cache is read from nowhere else', async () => {
  const l = splitLookup([ns('team', 'Active')], []);
  await namespaceLifecycle().admit!(cm('team'), l);
  assert.equal(l.liveReads, 0);
});

test('a namespace the cache has not seen yet is found in storage', async () => {
  const l = splitLookup([], [ns('fresh', 'Active')]);
  await namespaceLifecycle().admit!(cm('fresh'), l);
  assert.equal(l.liveReads, 1);
});

test('a namespace in neither is NotFound with kube text', async () => {
  const err = await rejection(() => namespaceLifecycle().admit!(cm('nope'), splitLookup([], [])));
  assert.equal(err.code, 404);
  assert.equal(err.message, 'namespaces "nope" not found');
});

test('creating in a terminating namespace is Forbidden with the NamespaceTerminating cause', async () => {
  const err = await rejection(() => namespaceLifecycle().admit!(cm('old'), splitLookup([ns('old', 'Terminating')], [])));
  assert.equal(err.code, 403);
  assert.equal(err.message, 'configmaps "c" is forbidden: unable to create new content in namespace old because it is being terminated');
  assert.deepEqual(err.details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace old is being terminated', field: 'metadata.namespace' }]);
});

test('after a namespace DELETE, creates read storage until the TTL passes (forceLiveLookup)', async () => {
  let t = 1_000_000;
  const plugin = namespaceLifecycle({ now: () => t });
  // The cache still shows the namespace Active; storage has it Terminating.
  const l = splitLookup([ns('gone', 'Active')], [ns('gone', 'Terminating')]);
  await plugin.admit!({ ...attrs('namespaces', undefined, { operation: 'DELETE', name: 'gone', namespace: '' }), decl: decl('namespaces', '', false) }, l);
  const err = await rejection(() => plugin.admit!(cm('gone'), l));
  assert.equal(err.code, 403);
  assert.equal(l.liveReads, 1);
  t += FORCE_LIVE_LOOKUP_TTL_MS + 1;
  await plugin.admit!(cm('gone'), l);
  assert.equal(l.liveReads, 1, 'after the TTL the cache is trusted again');
});

test('system namespaces cannot be deleted', async () => {
  for (const name of ['default', 'kube-system', 'kube-public']) {
    const a = { ...attrs('namespaces', undefined, { operation: 'DELETE', name, namespace: '' }), decl: decl('namespaces', '', false) };
    const err = await rejection(() => namespaceLifecycle().admit!(a, splitLookup([], [])));
    assert.equal(err.message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
  }
});
