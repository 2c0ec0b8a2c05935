import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getComponentSchemas } from '../../../api/openapi/index.js';
import { GO_ZERO_FIELDS, withGoZeroFields } from './go-zero-fields.js';

// The table mirrors k8s.io/api v0.33 core/v1 and apps/v1 types.go; it must name real definitions and fields.
describe('Go always-written fields table', () => {
  it('names definitions and fields the built-in OpenAPI knows, each always-written field in its order', () => {
    const schemas = getComponentSchemas() as unknown as Record<string, { properties?: Record<string, unknown> }>;
    for (const [def, t] of Object.entries(GO_ZERO_FIELDS)) {
      const props = schemas[def]?.properties;
      assert.ok(props, `${def} is a definition`);
      for (const f of t.order) assert.ok(f in props, `${def}.${f} is a property`);
      for (const f of Object.keys(t.zero)) assert.ok(t.order.includes(f), `${def}.${f} is in the order`);
    }
  });

  it('places a missing field before the first present one Go writes after it, and leaves complete objects alone', () => {
    const c = { name: 'c', image: 'nginx', ports: [], volumeMounts: [] };
    assert.deepEqual(Object.keys(withGoZeroFields('io.k8s.api.core.v1.Container', c)), ['name', 'image', 'ports', 'resources', 'volumeMounts']);
    const done = { name: 'c', resources: { limits: {} } };
    assert.equal(withGoZeroFields('io.k8s.api.core.v1.Container', done), done);
    assert.deepEqual(withGoZeroFields('io.k8s.api.apps.v1.ReplicaSetStatus', { observedGeneration: 1 }), { replicas: 0, observedGeneration: 1 });
    assert.deepEqual(withGoZeroFields('io.k8s.api.core.v1.ConfigMap', { data: {} }), { data: {} });
  });
});
