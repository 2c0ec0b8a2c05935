import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.js';
import type { AdmissionAttributes } from './interfaces.js';

const attrs = (plural: string, operation: AdmissionAttributes['operation'], finalizers?: string[]): AdmissionAttributes => ({
  operation, decl: { group: '', plural } as AdmissionAttributes['decl'], namespace: 'default', name: 'x', subresource: '',
  object: { apiVersion: 'v1', kind: 'X', metadata: { name: 'x', finalizers } }, user: { name: 'u', groups: [] }, dryRun: false,
});

describe('StorageObjectInUseProtection', () => {
  const pl = storageObjectInUseProtection();
  const table: { plural: string; op: AdmissionAttributes['operation']; given?: string[]; want?: string[] }[] = [
    { plural: 'persistentvolumeclaims', op: 'CREATE', want: ['kubernetes.io/pvc-protection'] },
    { plural: 'persistentvolumes', op: 'CREATE', want: ['kubernetes.io/pv-protection'] },
    { plural: 'persistentvolumeclaims', op: 'CREATE', given: ['a', 'kubernetes.io/pvc-protection'], want: ['a', 'kubernetes.io/pvc-protection'] },
    { plural: 'persistentvolumeclaims', op: 'UPDATE', given: [], want: [] },
    { plural: 'configmaps', op: 'CREATE', want: undefined },
  ];
  for (const t of table) {
    it(`${t.op} ${t.plural} ${JSON.stringify(t.given ?? null)}`, () => {
      const a = attrs(t.plural, t.op, t.given);
      pl.admit!(a, { get: () => undefined, list: () => [] });
      assert.deepEqual(a.object!.metadata.finalizers, t.want);
    });
  }
});
