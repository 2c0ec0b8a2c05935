// Validation for PersistentVolumes, PersistentVolumeClaims (pkg/apis/core/validation/validation.go
// ValidatePersistentVolume*, ValidatePersistentVolumeClaim*) and StorageClasses (pkg/apis/storage/validation).

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { compareQuantity, isZeroQuantity, tryParseQuantity } from '../quantity.js';
import type { ObjectMeta } from '../types.js';
import { isDNS1123Subdomain } from './names.js';
import { deepEqual, FIELD_IMMUTABLE, validateObjectMeta } from './object-meta.js';

const nameIsDNSSubdomain = (name: string) => isDNS1123Subdomain(name);
const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const SC_RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
export const PVC_IMMUTABLE = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** The volume sources a PV may carry (one exactly). */
const PV_SOURCES = [
  'hostPath', 'local', 'nfs', 'csi', 'iscsi', 'fc', 'rbd', 'cephfs', 'glusterfs', 'awsElasticBlockStore', 'gcePersistentDisk',
  'azureDisk', 'azureFile', 'vsphereVolume', 'portworxVolume', 'flexVolume', 'cinder', 'quobyte', 'scaleIO', 'storageos',
  'photonPersistentDisk', 'flocker',
];

function validateAccessModes(modes: string[] | undefined, path: string, requiredDetail: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!modes?.length) return [fieldErr.required(path, requiredDetail)];
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(fieldErr.notSupported(path, m, ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.length > 1) errs.push(fieldErr.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validateStorageQuantity(v: unknown, path: string): FieldError[] {
  const q = tryParseQuantity(v);
  if (!q) return [fieldErr.invalid(path, v, 'must be a valid quantity')];
  if (isZeroQuantity(q) || q.nano < 0n) return [fieldErr.invalid(path, v, 'must be greater than zero')];
  return [];
}

function validateClassName(name: string | undefined, path: string): FieldError[] {
  if (!name) return [];
  return isDNS1123Subdomain(name).map((m) => fieldErr.invalid(path, name, m));
}

/** ValidatePersistentVolumeClaimSpec. */
export function validatePersistentVolumeClaimSpec(spec: PersistentVolumeClaim['spec'], path = 'spec'): FieldError[] {
  const errs = validateAccessModes(spec?.accessModes, `${path}.accessModes`, 'at least 1 access mode is required');
  const storage = spec?.resources?.requests?.storage;
  if (storage === undefined) errs.push(fieldErr.required(`${path}.resources[storage]`));
  else errs.push(...validateStorageQuantity(storage, `${path}.resources[storage]`));
  if (spec?.volumeMode && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(fieldErr.notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  errs.push(...validateClassName(spec?.storageClassName, `${path}.storageClassName`));
  return errs;
}

export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  return [...validateObjectMeta(meta(pvc), nameIsDNSSubdomain), ...validatePersistentVolumeClaimSpec(pvc.spec)];
}

/**
 * ValidatePersistentVolumeClaimUpdate: the spec is fixed once created, except that the binder sets volumeName and a
 * bound claim's storage request and volumeAttributesClassName may change (a request may not shrink).
 */
export function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs = validatePersistentVolumeClaimSpec(pvc.spec);
  const oldSpec = structuredClone(old.spec ?? {}) as Record<string, unknown> & NonNullable<PersistentVolumeClaim['spec']>;
  const newSpec = structuredClone(pvc.spec ?? {}) as Record<string, unknown> & NonNullable<PersistentVolumeClaim['spec']>;
  // Binding fills an empty volumeName.
  if (!oldSpec.volumeName) oldSpec.volumeName = newSpec.volumeName;
  const bound = old.status?.phase === 'Bound';
  if (bound) {
    oldSpec.resources = { ...(oldSpec.resources ?? {}), requests: newSpec.resources?.requests };
    oldSpec.volumeAttributesClassName = newSpec.volumeAttributesClassName;
  }
  if (!deepEqual(prune(newSpec), prune(oldSpec))) errs.push(fieldErr.forbidden('spec', PVC_IMMUTABLE));
  const was = tryParseQuantity(old.spec?.resources?.requests?.storage);
  const now = tryParseQuantity(pvc.spec?.resources?.requests?.storage);
  if (bound && was && now && compareQuantity(now, was) < 0) {
    errs.push(fieldErr.forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  return errs;
}

/** JSON equality ignores undefined members. */
const prune = (v: unknown) => JSON.parse(JSON.stringify(v ?? {}));

/** ValidatePersistentVolumeSpec (the parts the emulation models). */
export function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  const errs = validateObjectMeta(meta(pv), nameIsDNSSubdomain);
  const spec = pv.spec ?? {};
  errs.push(...validateAccessModes(spec.accessModes, 'spec.accessModes', ''));
  const capacity = spec.capacity ?? {};
  const keys = Object.keys(capacity);
  if (!keys.length) errs.push(fieldErr.required('spec.capacity'));
  else if (!('storage' in capacity) || keys.length > 1) errs.push(fieldErr.notSupported('spec.capacity', keys.filter((k) => k !== 'storage')[0] ?? keys[0], ['storage']));
  else errs.push(...validateStorageQuantity(capacity.storage, 'spec.capacity[storage]'));
  if (spec.persistentVolumeReclaimPolicy && !RECLAIM_POLICIES.includes(spec.persistentVolumeReclaimPolicy)) {
    errs.push(fieldErr.notSupported('spec.persistentVolumeReclaimPolicy', spec.persistentVolumeReclaimPolicy, RECLAIM_POLICIES));
  }
  if (spec.volumeMode && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(fieldErr.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  errs.push(...validateClassName(spec.storageClassName, 'spec.storageClassName'));
  const sources = PV_SOURCES.filter((s) => (spec as Record<string, unknown>)[s] !== undefined);
  if (!sources.length) errs.push(fieldErr.required('spec', 'must specify a volume type'));
  for (const s of sources.slice(1)) errs.push(fieldErr.forbidden(`spec.${s}`, 'may not specify more than 1 volume type'));
  if (spec.hostPath && !spec.hostPath.path) errs.push(fieldErr.required('spec.hostPath.path'));
  return errs;
}

/** ValidatePersistentVolumeUpdate: the volume source and volumeMode are fixed. */
export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs = validatePersistentVolume(pv).filter((e) => !e.field.startsWith('metadata.'));
  if ((pv.spec?.volumeMode ?? '') !== (old.spec?.volumeMode ?? '')) errs.push(fieldErr.invalid('spec.volumeMode', pv.spec?.volumeMode, FIELD_IMMUTABLE));
  if (old.spec?.nodeAffinity && !deepEqual(pv.spec?.nodeAffinity, old.spec.nodeAffinity)) {
    errs.push(fieldErr.invalid('nodeAffinity', pv.spec?.nodeAffinity, FIELD_IMMUTABLE));
  }
  return errs;
}

/** ValidateStorageClass. */
export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = validateObjectMeta(meta(sc), nameIsDNSSubdomain);
  if (!sc.provisioner) errs.push(fieldErr.required('provisioner'));
  else if (sc.provisioner.length > 63) errs.push(fieldErr.tooLong('provisioner', sc.provisioner, 63));
  if (sc.reclaimPolicy && !SC_RECLAIM_POLICIES.includes(sc.reclaimPolicy)) errs.push(fieldErr.notSupported('reclaimPolicy', sc.reclaimPolicy, SC_RECLAIM_POLICIES));
  if (!sc.volumeBindingMode) errs.push(fieldErr.required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(sc.volumeBindingMode)) errs.push(fieldErr.notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  return errs;
}

/** ValidateStorageClassUpdate: parameters, provisioner, reclaimPolicy and volumeBindingMode are fixed. */
export function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs = validateStorageClass(sc).filter((e) => !e.field.startsWith('metadata.'));
  if (!deepEqual(sc.parameters ?? {}, old.parameters ?? {})) errs.push(fieldErr.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(fieldErr.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? '')) errs.push(fieldErr.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode) errs.push(fieldErr.invalid('volumeBindingMode', sc.volumeBindingMode, FIELD_IMMUTABLE));
  return errs;
}
