import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { applyServerSidePatch } from './apply-patch.js';
import { patchMetaFromSchemas } from './patch-meta.js';
import { DEPLOYMENT, SCHEMAS } from './test-fixtures.js';
import { updateManagedFields } from './update-managed-fields.js';

const meta = patchMetaFromSchemas(SCHEMAS, DEPLOYMENT);
const T = '2024-01-01T00:00:00Z';

test('update: create owns every field; a later update takes only what it changed', () => {
  const created = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { a: '1' } }, spec: { replicas: 1 } } as KubeObject;
  created.metadata.managedFields = updateManagedFields(undefined, created, meta, 'kubectl-create', { time: T });
  assert.deepEqual(created.metadata.managedFields, [{
    manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: T, fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:replicas': {} } },
  }]);

  const scaled = structuredClone(created);
  (scaled.spec as { replicas: number }).replicas = 4;
  const mf = updateManagedFields(created, scaled, meta, 'kubectl-scale', { time: T, subresource: 'scale' });
  assert.deepEqual(mf.map((e) => [e.manager, e.fieldsV1]), [
    ['kubectl-create', { 'f:metadata': { 'f:labels': { 'f:a': {} } } }],
    ['kubectl-scale', { 'f:spec': { 'f:replicas': {} } }],
  ]);
  assert.equal(mf[1].subresource, 'scale');
});

test('update then apply: the updater owns the field, so a differing apply conflicts', () => {
  const applied = applyServerSidePatch(undefined, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1 } }, meta, 'kubectl', { time: T });
  const scaled = structuredClone(applied);
  (scaled.spec as { replicas: number }).replicas = 3;
  scaled.metadata.managedFields = updateManagedFields(applied, scaled, meta, 'kubectl-client-side-apply', { time: T });
  assert.throws(() => applyServerSidePatch(scaled, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1 } }, meta, 'kubectl', { time: T }),
    { code: 409, message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas' });
});
