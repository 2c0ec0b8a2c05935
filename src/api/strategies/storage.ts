// Strategies for PersistentVolumes, PersistentVolumeClaims and StorageClasses (pkg/registry/core/persistentvolume,
// pkg/registry/core/persistentvolumeclaim, pkg/registry/storage/storageclass; pkg/apis/core/v1/defaults.go
// SetDefaults_PersistentVolume(Claim), pkg/apis/storage/v1/defaults.go SetDefaults_StorageClass).

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validatePersistentVolume, validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate, validatePersistentVolumeUpdate,
  validateStorageClass, validateStorageClassUpdate,
} from '../validation/storage.js';
import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import { as, isStatusWrite, keepStatusOrSpec } from './common.js';

/** SetDefaults_PersistentVolume: phase Pending, reclaim Retain, Filesystem. */
export function defaultPersistentVolume(pv: PersistentVolume): void {
  const spec = (pv.spec ??= {});
  spec.persistentVolumeReclaimPolicy ??= 'Retain';
  spec.volumeMode ??= 'Filesystem';
  const o = pv as { status?: { phase?: string } };
  (o.status ??= {}).phase ??= 'Pending';
}

/** SetDefaults_PersistentVolumeClaim: phase Pending, Filesystem. */
export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  const spec = (pvc.spec ??= {});
  spec.volumeMode ??= 'Filesystem';
  const o = pvc as { status?: { phase?: string } };
  (o.status ??= {}).phase ??= 'Pending';
}

/** SetDefaults_StorageClass: reclaim Delete, binding Immediate. */
export function defaultStorageClass(sc: StorageClass): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

const metaUpdate = (obj: KubeObject, old: KubeObject) => validateObjectMetaUpdate(obj.metadata, old.metadata);

export const persistentVolumeStrategy = {
  prepareForCreate(obj: KubeObject): void {
    obj.status = { phase: 'Pending' };
  },
  prepareForUpdate: keepStatusOrSpec,
  defaults: (obj: KubeObject) => defaultPersistentVolume(as<PersistentVolume>(obj)),
  validate: (obj: KubeObject) => validatePersistentVolume(as<PersistentVolume>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    if (isStatusWrite(ctx)) return metaUpdate(obj, old);
    return [...metaUpdate(obj, old), ...validatePersistentVolumeUpdate(as<PersistentVolume>(obj), as<PersistentVolume>(old))];
  },
  fieldSelectors: { 'status.phase': (o: KubeObject) => as<PersistentVolume>(o).status?.phase ?? '' },
} satisfies Strategy;

export const persistentVolumeClaimStrategy = {
  prepareForCreate(obj: KubeObject): void {
    obj.status = { phase: 'Pending' };
  },
  prepareForUpdate: keepStatusOrSpec,
  defaults: (obj: KubeObject) => defaultPersistentVolumeClaim(as<PersistentVolumeClaim>(obj)),
  validate: (obj: KubeObject) => validatePersistentVolumeClaim(as<PersistentVolumeClaim>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    if (isStatusWrite(ctx)) return metaUpdate(obj, old);
    return [...metaUpdate(obj, old), ...validatePersistentVolumeClaimUpdate(as<PersistentVolumeClaim>(obj), as<PersistentVolumeClaim>(old))];
  },
} satisfies Strategy;

export const storageClassStrategy = {
  defaults: (obj: KubeObject) => defaultStorageClass(as<StorageClass>(obj)),
  validate: (obj: KubeObject) => validateStorageClass(as<StorageClass>(obj)),
  validateUpdate: (obj: KubeObject, old: KubeObject) => [
    ...metaUpdate(obj, old), ...validateStorageClassUpdate(as<StorageClass>(obj), as<StorageClass>(old)),
  ],
} satisfies Strategy;
