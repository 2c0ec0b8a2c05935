import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { validatePersistentVolume, validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate, validateStorageClass } from './storage.js';

const claim = (spec: PersistentVolumeClaim['spec'], phase = 'Pending'): PersistentVolumeClaim =>
  ({ metadata: { name: 'c', namespace: 'default' }, spec, status: { phase } });
const msgs = (errs: { toString(): string }[]) => errs.map(String);

describe('storage validation', () => {
  const cases: { name: string; spec: PersistentVolumeClaim['spec']; want: string[] }[] = [
    { name: 'valid', spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, want: [] },
    { name: 'no access modes', spec: { resources: { requests: { storage: '1Gi' } } }, want: ['spec.accessModes: Required value: at least 1 access mode is required'] },
    { name: 'no storage', spec: { accessModes: ['ReadWriteOnce'] }, want: ['spec.resources[storage]: Required value'] },
    { name: 'bad mode', spec: { accessModes: ['Nope'], resources: { requests: { storage: '1Gi' } } }, want: ['spec.accessModes: Unsupported value: "Nope": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'] },
  ];
  for (const c of cases) it(`PVC: ${c.name}`, () => assert.deepEqual(msgs(validatePersistentVolumeClaim(claim(c.spec))), c.want));

  it('PVC spec is immutable, except a bound claim\'s storage request', () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' };
    const grown = { ...spec, resources: { requests: { storage: '2Gi' } } };
    assert.deepEqual(msgs(validatePersistentVolumeClaimUpdate(claim(grown), claim(spec))),
      ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims']);
    assert.deepEqual(msgs(validatePersistentVolumeClaimUpdate(claim(grown, 'Bound'), claim(spec, 'Bound'))), []);
    assert.deepEqual(msgs(validatePersistentVolumeClaimUpdate(claim({ ...spec, volumeName: 'pv1' }), claim(spec))), [], 'binding sets volumeName');
    assert.equal(msgs(validatePersistentVolumeClaimUpdate(claim({ ...spec, storageClassName: 'x' }, 'Bound'), claim(spec, 'Bound'))).length, 1);
  });

  it('PV needs capacity, access modes and one volume source', () => {
    assert.deepEqual(msgs(validatePersistentVolume({ metadata: { name: 'pv' }, spec: {} })),
      ['spec.accessModes: Required value', 'spec.capacity: Required value', 'spec: Required value: must specify a volume type']);
    assert.deepEqual(msgs(validatePersistentVolume({ metadata: { name: 'pv' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/x' } } })), []);
  });

  it('StorageClass needs a provisioner', () => {
    assert.deepEqual(msgs(validateStorageClass({ metadata: { name: 's' }, provisioner: '', volumeBindingMode: 'Immediate' })), ['provisioner: Required value']);
  });
});
