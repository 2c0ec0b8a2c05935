// DefaultStorageClass admission: a new PVC that names no class gets the cluster's default StorageClass
// (plugin/pkg/admission/storage/storageclass/setdefault/admission.go); and PersistentVolumeClaimResize: a bound
// claim may only grow when its class allows expansion (plugin/pkg/admission/storage/persistentvolume/resize).

import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import { StatusError } from '../../api/errors.js';
import { compareQuantity, tryParseQuantity } from '../../api/quantity.js';
import { isDefaultClass } from '../../api/printers/storage.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';

export const NAME = 'DefaultStorageClass';
export const RESIZE_NAME = 'PersistentVolumeClaimResize';
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
export const RESIZE_FORBIDDEN = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

const isPVC = (a: AdmissionAttributes) => a.decl.group === '' && a.decl.plural === 'persistentvolumeclaims' && !a.subresource && !!a.object;

/** GetDefaultClass: of several default classes the newest wins (then the name sorts first). */
export function defaultClass(classes: StorageClass[]): StorageClass | undefined {
  const defaults = classes.filter(isDefaultClass);
  defaults.sort((x, y) => {
    const tx = Date.parse(x.metadata?.creationTimestamp ?? '') || 0;
    const ty = Date.parse(y.metadata?.creationTimestamp ?? '') || 0;
    return ty - tx || (x.metadata?.name ?? '').localeCompare(y.metadata?.name ?? '');
  });
  return defaults[0];
}

export function defaultStorageClass(): AdmissionPlugin {
  return {
    name: NAME,
    admit(a: AdmissionAttributes, lookup: AdmissionLookup) {
      if (a.operation !== 'CREATE' || !isPVC(a)) return;
      const pvc = a.object as unknown as PersistentVolumeClaim;
      // An explicit class, even "", is the user's choice.
      if (pvc.spec?.storageClassName !== undefined && pvc.spec.storageClassName !== null) return;
      if (pvc.metadata?.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return;
      const def = defaultClass(lookup.list('storage.k8s.io', 'storageclasses') as unknown as StorageClass[]);
      if (!def?.metadata?.name) return;
      (pvc.spec ??= {}).storageClassName = def.metadata.name;
    },
  };
}

export function persistentVolumeClaimResize(): AdmissionPlugin {
  return {
    name: RESIZE_NAME,
    validate(a: AdmissionAttributes, lookup: AdmissionLookup) {
      if (a.operation !== 'UPDATE' || !isPVC(a) || !a.oldObject) return;
      const pvc = a.object as unknown as PersistentVolumeClaim;
      const old = a.oldObject as unknown as PersistentVolumeClaim;
      const now = tryParseQuantity(pvc.spec?.resources?.requests?.storage);
      const was = tryParseQuantity(old.spec?.resources?.requests?.storage);
      if (!now || !was || compareQuantity(now, was) <= 0) return;
      // Growing an unbound claim is left to validation (its spec is immutable).
      if (old.status?.phase !== 'Bound') return;
      const className = old.spec?.storageClassName ?? old.metadata?.annotations?.[BETA_CLASS_ANNOTATION];
      const sc = className ? lookup.get('storage.k8s.io', 'storageclasses', undefined, className) as unknown as StorageClass | undefined : undefined;
      if (!sc?.allowVolumeExpansion) throw StatusError.forbidden('', 'persistentvolumeclaims', a.name, RESIZE_FORBIDDEN);
    },
  };
}
