import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { applyServerSidePatch, parseApplyPatch, type ManagedFieldsEntry } from './apply-patch.js';
import { fieldSetOf, fromFieldsV1, pathString, toFieldsV1 } from './field-set.js';
import { patchMetaFromSchemas } from './patch-meta.js';
import { DEPLOYMENT, SCHEMAS } from './test-fixtures.js';

const meta = patchMetaFromSchemas(SCHEMAS, DEPLOYMENT);
const T = '2024-01-01T00:00:00Z';

function manifest(image: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
      ...extra,
    },
  };
}
const entries = (o: KubeObject) => o.metadata.managedFields as ManagedFieldsEntry[];

test('apply: create records the manager field set in the fieldsV1 shape', () => {
  const out = applyServerSidePatch(undefined, manifest('nginx:1'), meta, 'kubectl', { time: T });
  assert.equal((out.spec as { replicas: number }).replicas, 2);
  assert.deepEqual(entries(out), [{
    manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T, fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': {
            '.': {}, 'f:image': {}, 'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
          } } },
        },
      },
    },
  }]);
});

test('apply: same manager changes its values and drops fields it no longer sends', () => {
  const first = applyServerSidePatch(undefined, manifest('nginx:1', { paused: true }), meta, 'kubectl', { time: T });
  const second = applyServerSidePatch(first, manifest('nginx:2'), meta, 'kubectl', { time: T });
  const spec = second.spec as Record<string, unknown>;
  assert.equal(spec.paused, undefined);
  assert.equal((spec.template as { spec: { containers: Array<{ image: string }> } }).spec.containers[0].image, 'nginx:2');
  assert.equal(entries(second).length, 1);
});

test('apply: an annotation-only apply by another manager keeps the rest of the object', () => {
  const first = applyServerSidePatch(undefined, manifest('nginx:1'), meta, 'kubectl', { time: T });
  const out = applyServerSidePatch(first, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } } }, meta, 'kubectl-last-applied', { time: T });
  assert.deepEqual(out.spec, first.spec);
  assert.deepEqual(entries(out).map((e) => e.manager), ['kubectl', 'kubectl-last-applied']);
});

test('apply: conflict with another manager is a 409 with FieldManagerConflict causes; force takes ownership', () => {
  const first = applyServerSidePatch(undefined, manifest('nginx:1'), meta, 'kubectl', { time: T });
  // Another manager (an Update, as kubectl scale would record) owns .spec.replicas.
  const scaled = structuredClone(first);
  (scaled.spec as { replicas: number }).replicas = 5;
  // An Update that changes a field takes it away from its previous owner.
  delete (entries(scaled)[0].fieldsV1 as { 'f:spec': Record<string, unknown> })['f:spec']['f:replicas'];
  entries(scaled).push({ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'apps/v1', time: T, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });

  const err = (() => {
    try {
      applyServerSidePatch(scaled, manifest('nginx:1', { replicas: 3 }), meta, 'other', { time: T });
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 409);
  assert.equal(err.reason, 'Conflict');
  assert.ok(err.message.startsWith('Apply failed with '), err.message);
  assert.ok(err.details?.causes?.some((c) => c.reason === 'FieldManagerConflict' && c.field === '.spec.replicas' && c.message === 'conflict with "kubectl-client-side-apply" using apps/v1'));

  const single = (() => {
    try {
      applyServerSidePatch(scaled, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 3 } }, meta, 'other', { time: T });
    } catch (e) {
      return e as StatusError;
    }
    return undefined;
  })();
  assert.equal(single?.message, 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');

  const forced = applyServerSidePatch(scaled, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 3 } }, meta, 'other', { time: T, force: true });
  assert.equal((forced.spec as { replicas: number }).replicas, 3);
  assert.ok(!entries(forced).some((e) => e.manager === 'kubectl-client-side-apply'), 'the old owner lost its only field');
});

test('apply: same value owned by another manager is shared, not a conflict', () => {
  const first = applyServerSidePatch(undefined, manifest('nginx:1'), meta, 'a', { time: T });
  const out = applyServerSidePatch(first, manifest('nginx:1'), meta, 'b', { time: T });
  assert.deepEqual(entries(out).map((e) => e.manager), ['a', 'b']);
});

test('apply: first apply to an object without managedFields conflicts with before-first-apply', () => {
  const live = { ...manifest('nginx:1'), metadata: { name: 'web', uid: 'u1' } } as KubeObject;
  assert.throws(() => applyServerSidePatch(live, manifest('nginx:2'), meta, 'kubectl', { time: T }),
    (e: unknown) => e instanceof StatusError && e.code === 409 && e.message.includes('"before-first-apply" using apps/v1'));
});

test('apply: list-map elements merge by key, atomic lists are replaced', () => {
  const live = applyServerSidePatch(undefined, {
    spec: { template: { spec: { containers: [{ name: 'a', image: 'a' }], tolerations: [{ key: 'x' }] } } },
  }, meta, 'one', { time: T });
  const out = applyServerSidePatch(live, {
    spec: { template: { spec: { containers: [{ name: 'b', image: 'b' }], tolerations: [{ key: 'y' }] } } },
  }, meta, 'two', { time: T, force: true });
  const pod = (out.spec as { template: { spec: { containers: unknown[]; tolerations: unknown[] } } }).template.spec;
  assert.deepEqual(pod.containers, [{ name: 'a', image: 'a' }, { name: 'b', image: 'b' }]);
  assert.deepEqual(pod.tolerations, [{ key: 'y' }]);
});

test('field sets: fieldsV1 round trip and path strings', () => {
  const set = fieldSetOf({ metadata: { finalizers: ['a'] }, spec: { template: { spec: { containers: [{ name: 'x', image: 'i' }] } } } }, meta);
  assert.deepEqual(fromFieldsV1(toFieldsV1(set)), set);
  assert.equal(pathString(['f:spec', 'f:containers', 'k:{"name":"x"}', 'f:image']), '.spec.containers[name="x"].image');
  assert.equal(pathString(['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}']), '.ports[containerPort=80,protocol="TCP"]');
  assert.equal(pathString(['f:metadata', 'f:finalizers', 'v:"a"']), '.metadata.finalizers[="a"]');
});

test('apply body parsing', () => {
  assert.deepEqual(parseApplyPatch('{"a":1}'), { a: 1 });
  assert.deepEqual(parseApplyPatch('a: 1\nb: [x]\n'), { a: 1, b: ['x'] });
  assert.throws(() => parseApplyPatch('- 1'), (e: unknown) => e instanceof StatusError && e.code === 400);
  assert.throws(() => parseApplyPatch('a: [1'), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message.startsWith('error decoding patch: '));
});

test('apply: re-applying the same intent changes nothing, not even the manager\'s time (merge/update.go no-op)', () => {
  const first = applyServerSidePatch(undefined, manifest('nginx:1'), meta, 'helm', { time: T });
  const again = applyServerSidePatch(first, manifest('nginx:1'), meta, 'helm', { time: '2024-01-02T00:00:00Z' });
  assert.deepEqual(again, first);
  // A real change moves the time on.
  const changed = applyServerSidePatch(first, manifest('nginx:2'), meta, 'helm', { time: '2024-01-02T00:00:00Z' });
  assert.equal(entries(changed)[0].time, '2024-01-02T00:00:00Z');
});
