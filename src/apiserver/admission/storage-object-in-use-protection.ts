// StorageObjectInUseProtection admission: every new PersistentVolumeClaim gets the `kubernetes.io/pvc-protection`
// finalizer and every new PersistentVolume `kubernetes.io/pv-protection`, so the protection controllers can hold a
// deletion while the object is in use (plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go).

import type { AdmissionAttributes, AdmissionPlugin } from './interfaces.js';

export const NAME = 'StorageObjectInUseProtection';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

const FINALIZERS: Record<string, string> = {
  persistentvolumeclaims: PVC_PROTECTION_FINALIZER,
  persistentvolumes: PV_PROTECTION_FINALIZER,
};

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: NAME,
    admit(a: AdmissionAttributes) {
      if (a.operation !== 'CREATE' || a.subresource || a.decl.group !== '' || !a.object) return;
      const finalizer = FINALIZERS[a.decl.plural];
      if (!finalizer) return;
      const meta = a.object.metadata;
      const finalizers = meta.finalizers ?? [];
      if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
    },
  };
}
