import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../api/errors.js';
import { patchMetaFromSchemas } from './patch-meta.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { DEPLOYMENT, SCHEMAS } from './test-fixtures.js';

const meta = patchMetaFromSchemas(SCHEMAS, DEPLOYMENT);

/** A Deployment whose pod spec is `podSpec` (and metadata `metadata`). */
function deploy(podSpec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', ...(extra.metadata as object) }, spec: { replicas: 1, template: { spec: podSpec }, ...(extra.spec as object) } };
}
const podPatch = (podSpec: Record<string, unknown>) => ({ spec: { template: { spec: podSpec } } });

interface Case { name: string; original: unknown; patch: unknown; want?: unknown; code?: number; message?: string | RegExp }

const cases: Case[] = [
  {
    name: 'maps merge recursively and null deletes',
    original: { metadata: { name: 'a', labels: { x: '1', y: '2' } } },
    patch: { metadata: { labels: { y: null, z: '3' }, annotations: { n: 'v' } } },
    want: { metadata: { name: 'a', labels: { x: '1', z: '3' }, annotations: { n: 'v' } } },
  },
  {
    name: 'null for an absent key is dropped, nulls inside new values too',
    original: { spec: { replicas: 1 } },
    patch: { spec: { paused: null, template: { metadata: { labels: { a: 'b', c: null } } } } },
    want: { spec: { replicas: 1, template: { metadata: { labels: { a: 'b' } } } } },
  },
  {
    name: 'merge list by key: change one element, append a new one',
    original: deploy({ containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] }),
    patch: podPatch({ containers: [{ name: 'b', image: 'b:2' }, { name: 'c', image: 'c:1' }] }),
    want: deploy({ containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }, { name: 'c', image: 'c:1' }] }),
  },
  {
    name: 'primitive merge list: union without duplicates',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['b', 'c'] } },
    want: { metadata: { finalizers: ['a', 'b', 'c'] } },
  },
  {
    name: 'list without strategy is replaced whole',
    original: deploy({ tolerations: [{ key: 'a' }, { key: 'b' }] }),
    patch: podPatch({ tolerations: [{ key: 'c' }] }),
    want: deploy({ tolerations: [{ key: 'c' }] }),
  },
  {
    name: 'unknown field: maps merge, lists replace',
    original: { spec: { extra: { a: 1, list: [1, 2] } } },
    patch: { spec: { extra: { b: 2, list: [3] } } },
    want: { spec: { extra: { a: 1, b: 2, list: [3] } } },
  },
  {
    name: '$patch: replace in a map',
    original: { metadata: { labels: { x: '1', y: '2' } } },
    patch: { metadata: { labels: { $patch: 'replace', z: '3' } } },
    want: { metadata: { labels: { z: '3' } } },
  },
  {
    name: '$patch: delete in a map',
    original: { metadata: { name: 'n', labels: { x: '1' } } },
    patch: { metadata: { labels: { $patch: 'delete' } } },
    want: { metadata: { name: 'n', labels: {} } },
  },
  {
    name: '$patch: delete element by merge key',
    original: deploy({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
    patch: podPatch({ containers: [{ name: 'b', $patch: 'delete' }] }),
    want: deploy({ containers: [{ name: 'a' }, { name: 'c' }] }),
  },
  {
    name: '$patch: replace element replaces the list with the other elements',
    original: deploy({ containers: [{ name: 'a', image: 'a' }, { name: 'b' }] }),
    patch: podPatch({ containers: [{ $patch: 'replace' }, { name: 'z', image: 'z' }] }),
    want: deploy({ containers: [{ name: 'z', image: 'z' }] }),
  },
  {
    name: '$patch: merge in a list is refused',
    original: deploy({ containers: [{ name: 'a' }] }),
    patch: podPatch({ containers: [{ $patch: 'merge' }] }),
    code: 400,
    message: 'merging lists cannot yet be specified in the patch',
  },
  {
    name: 'unknown $patch in a map',
    original: { metadata: { labels: {} } },
    patch: { metadata: { labels: { $patch: 'frobnicate' } } },
    code: 400,
    message: 'unknown patch type: frobnicate in map: map[$patch:frobnicate]',
  },
  {
    name: 'element without the merge key',
    original: deploy({ containers: [{ name: 'a' }] }),
    patch: podPatch({ containers: [{ image: 'x' }] }),
    code: 400,
    message: 'map: map[image:x] does not contain declared merge key: name',
  },
  {
    name: 'lists of lists are refused with 422',
    original: { metadata: { finalizers: [] } },
    patch: { metadata: { finalizers: [['b']] } },
    code: 422,
    message: 'the server rejected our request due to an error in our request',
  },
  {
    name: 'mixed element kinds are refused',
    original: { metadata: { finalizers: ['a'] } },
    patch: { metadata: { finalizers: [['b']] } },
    code: 400,
    message: /^list element types are not identical/,
  },
  {
    name: '$deleteFromPrimitiveList removes values',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'x'] } },
    want: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: '$deleteFromPrimitiveList on an absent list is a no-op',
    original: { metadata: { name: 'n' } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: { metadata: { name: 'n' } },
  },
  {
    name: '$setElementOrder for primitives with additions and deletions',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'd', 'a'], finalizers: ['d'], '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: { metadata: { finalizers: ['c', 'd', 'a'] } },
  },
  {
    name: '$setElementOrder reorders without content change (kubectl apply reorder)',
    original: deploy({ containers: [{ name: 'a', image: 'a' }, { name: 'b', image: 'b' }] }),
    patch: podPatch({ '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] }),
    want: deploy({ containers: [{ name: 'b', image: 'b' }, { name: 'a', image: 'a' }] }),
  },
  {
    name: '$setElementOrder keeps server-only elements where the live list has them',
    original: deploy({ containers: [{ name: 'x' }, { name: 'a' }, { name: 'b' }, { name: 'y' }] }),
    patch: podPatch({ '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'a', image: 'new' }] }),
    want: deploy({ containers: [{ name: 'x' }, { name: 'b' }, { name: 'a', image: 'new' }, { name: 'y' }] }),
  },
  {
    name: 'patch list out of $setElementOrder order is refused',
    original: deploy({ containers: [{ name: 'a' }, { name: 'b' }] }),
    patch: podPatch({ '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b', image: '1' }, { name: 'a', image: '2' }] }),
    code: 400,
    message: /^the order in patch list:\n/,
  },
  {
    name: 'an out-of-order patch list whose items hold objects with a "toString" key is still a 400',
    original: deploy({ containers: [{ name: 'a' }, { name: 'b' }] }),
    patch: podPatch({ '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b', image: { toString: 1 } }, { name: 'a' }] }),
    code: 400,
    message: /^the order in patch list:\n\[map\[image:map\[toString:1\] name:b\] map\[name:a\]\]\n/,
  },
  {
    name: 'bad $setElementOrder directive name',
    original: deploy({ containers: [] }),
    patch: podPatch({ '$setElementOrderX/containers': [] }),
    code: 400,
    message: 'invalid patch format of setElementOrder list',
  },
  {
    name: 'new list with a $setElementOrder and a stale delete directive (live lacks the list)',
    original: deploy({ containers: [{ name: 'a' }] }),
    patch: podPatch({ containers: [{ name: 'a', '$setElementOrder/env': [{ name: 'B' }], env: [{ name: 'B', value: '2' }, { name: 'A', $patch: 'delete' }] }] }),
    want: deploy({ containers: [{ name: 'a', env: [{ name: 'B', value: '2' }] }] }),
  },
  {
    name: '$retainKeys: RollingUpdate → Recreate clears rollingUpdate',
    original: { spec: { replicas: 2, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
    want: { spec: { replicas: 2, strategy: { type: 'Recreate' } } },
  },
  {
    name: '$retainKeys: patch field missing from the list',
    original: { spec: { strategy: { type: 'RollingUpdate' } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } },
    code: 400,
    message: 'invalid patch format of retainKeys',
  },
  {
    name: '$retainKeys must be a list',
    original: { spec: { strategy: { type: 'RollingUpdate' } } },
    patch: { spec: { strategy: { $retainKeys: 'type' } } },
    code: 400,
    message: 'invalid patch format of retainKeys',
  },
  {
    name: 'volume source switch with per-element $retainKeys',
    original: deploy({ volumes: [{ name: 'data', emptyDir: {} }, { name: 'keep', emptyDir: {} }] }),
    patch: podPatch({
      '$setElementOrder/volumes': [{ name: 'data' }, { name: 'keep' }],
      volumes: [{ $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' }, name: 'data' }],
    }),
    want: deploy({ volumes: [{ name: 'data', configMap: { name: 'cm' } }, { name: 'keep', emptyDir: {} }] }),
  },
  {
    name: 'patch that is not an object',
    original: {},
    patch: [1],
    code: 400,
    message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
];

test('strategic merge patch: table', () => {
  for (const c of cases) {
    if (c.code) {
      assert.throws(() => applyStrategicMergePatch(c.original, c.patch, meta), (e: unknown) => {
        assert.ok(e instanceof StatusError, c.name);
        assert.equal(e.code, c.code, c.name);
        if (typeof c.message === 'string') assert.equal(e.message, c.message, c.name);
        else if (c.message) assert.match(e.message, c.message, c.name);
        return true;
      }, c.name);
    } else {
      assert.deepEqual(applyStrategicMergePatch(c.original, c.patch, meta), c.want, c.name);
    }
  }
});

test('strategic merge patch: inputs are not modified', () => {
  const original = deploy({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }] }] });
  const patch = podPatch({ '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'a', env: [{ name: 'X', $patch: 'delete' }] }] });
  const before = [JSON.stringify(original), JSON.stringify(patch)];
  const out = applyStrategicMergePatch(original, patch, meta);
  assert.deepEqual(out, deploy({ containers: [{ name: 'a', env: [] }] }));
  assert.deepEqual([JSON.stringify(original), JSON.stringify(patch)], before);
});

// Patches shaped like kubectl's CreateThreeWayMergePatch output (SetElementOrder: true).
test('strategic merge patch: kubectl apply three-way patches for a Deployment', () => {
  const lastApplied = '{"apiVersion":"apps/v1","kind":"Deployment"}';
  const live = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'old', 'deployment.kubernetes.io/revision': '1' } },
    spec: {
      replicas: 3,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.0', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }], terminationMessagePath: '/dev/termination-log' },
            { name: 'sidecar', image: 'envoy:1', terminationMessagePath: '/dev/termination-log' },
          ],
          restartPolicy: 'Always',
        },
      },
    },
    status: { conditions: [{ type: 'Available', status: 'True' }] },
  };
  const patch = {
    metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } },
    spec: {
      strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' },
      template: {
        spec: {
          '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }],
          containers: [{
            '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }],
            '$setElementOrder/ports': [{ containerPort: 80 }],
            env: [{ name: 'B', value: '2' }],
            image: 'nginx:1.1',
            name: 'web',
            ports: [{ $patch: 'delete', containerPort: 443 }],
          }],
        },
      },
    },
  };
  const want = structuredClone(live);
  want.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = lastApplied;
  (want.spec as Record<string, unknown>).strategy = { type: 'Recreate' };
  want.spec.template.spec.containers = [
    live.spec.template.spec.containers[1],
    { ...live.spec.template.spec.containers[0], image: 'nginx:1.1', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
  ];
  assert.deepEqual(applyStrategicMergePatch(live, patch, meta), want);
});

test('strategic merge patch: status conditions merge by type', () => {
  const live = { status: { conditions: [{ type: 'Available', status: 'False' }, { type: 'Progressing', status: 'True' }] } };
  const patch = { status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'ReplicaFailure', status: 'False' }] } };
  assert.deepEqual(applyStrategicMergePatch(live, patch, meta), {
    status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'ReplicaFailure', status: 'False' }, { type: 'Progressing', status: 'True' }] },
  });
});
