import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PATCH_META, patchMetaFromSchemas } from './patch-meta.js';
import { DEPLOYMENT, SCHEMAS } from './test-fixtures.js';

const meta = patchMetaFromSchemas(SCHEMAS, DEPLOYMENT);
const at = (...path: string[]) => {
  let m = meta;
  let fm = m.lookup(path[0]);
  for (const p of path.slice(1)) {
    m = fm.meta;
    fm = m.lookup(p);
  }
  return fm;
};

test('patch meta: strategies and merge keys at any depth', () => {
  const cases: Array<[string[], string[], string]> = [
    [['spec', 'template', 'spec', 'containers'], ['merge'], 'name'],
    [['spec', 'template', 'spec', 'containers', 'ports'], ['merge'], 'containerPort'],
    [['spec', 'template', 'spec', 'containers', 'env'], ['merge'], 'name'],
    [['spec', 'template', 'spec', 'volumes'], ['merge', 'retainKeys'], 'name'],
    [['spec', 'strategy'], ['retainKeys'], ''],
    [['spec', 'template', 'spec', 'tolerations'], [], ''],
    [['metadata', 'finalizers'], ['merge'], ''],
    [['status', 'conditions'], ['merge'], 'type'],
    [['spec', 'unknownField', 'deeper'], [], ''],
  ];
  for (const [path, strategies, mergeKey] of cases) {
    const fm = at(...path);
    assert.deepEqual(fm.strategies, strategies, path.join('.'));
    assert.equal(fm.mergeKey, mergeKey, path.join('.'));
  }
});

test('patch meta: list and map types for server-side apply', () => {
  const ports = at('spec', 'template', 'spec', 'containers', 'ports');
  assert.equal(ports.listType, 'map');
  assert.deepEqual(ports.listMapKeys, ['containerPort', 'protocol']);
  assert.deepEqual(ports.keyDefaults, { protocol: 'TCP' });
  assert.equal(at('spec', 'selector').mapType, 'atomic', 'map type on the referenced definition');
  assert.equal(at('spec', 'template', 'spec', 'nodeSelector').mapType, 'atomic');
  assert.equal(at('metadata', 'finalizers').listType, 'set');
  assert.equal(at('spec', 'template', 'spec', 'containers').meta.name, 'io.k8s.api.core.v1.Container');
});

test('patch meta: additionalProperties values and unknown definitions get defaults', () => {
  assert.deepEqual(at('metadata', 'labels', 'app').strategies, []);
  const unknown = patchMetaFromSchemas(SCHEMAS, 'io.example.v1.Nope');
  assert.equal(unknown, DEFAULT_PATCH_META);
  assert.deepEqual(unknown.lookup('spec').meta.lookup('x').strategies, []);
});
