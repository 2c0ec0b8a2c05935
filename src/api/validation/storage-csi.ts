// Validation for the CSI objects of storage.k8s.io/v1: CSIDriver, CSINode and VolumeAttachment
// (pkg/apis/storage/validation/validation.go; ValidateCSIDriverName in pkg/apis/core/validation/validation.go).

import type { CSIDriver, CSINode, VolumeAttachment } from 'kubernetes-types/storage/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import type { ObjectMeta } from '../types.js';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from './names.js';
import { deepEqual, FIELD_IMMUTABLE, validateImmutable, validateNonnegative, validateObjectMeta } from './object-meta.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'];
/** csiNodeIDMaxLength; 256 with the longer-ID allowance an existing longer ID keeps. */
const CSI_NODE_ID_MAX = 192;
const CSI_NODE_ID_LONG_MAX = 256;
const MIN_TOKEN_SECONDS = 10 * 60;
const MAX_TOKEN_SECONDS = 2 ** 32;
const META_DATA_MAX = 256 * 1024;
const VOLUME_ERROR_MESSAGE_MAX = 1024;

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;

/** ValidateCSIDriverName: required, at most 63 characters, a DNS-1123 subdomain once lower-cased. */
export function validateCSIDriverName(name: string | undefined, path: string): FieldError[] {
  const n = name ?? '';
  const errs: FieldError[] = [];
  if (!n) errs.push(fieldErr.required(path));
  if (n.length > 63) errs.push(fieldErr.tooLong(path, n, 63));
  for (const msg of isDNS1123Subdomain(n.toLowerCase())) errs.push(fieldErr.invalid(path, n, msg));
  return errs;
}

type TokenRequests = NonNullable<CSIDriver['spec']['tokenRequests']>;

function validateTokenRequests(reqs: TokenRequests | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (reqs ?? []).forEach((r, i) => {
    const aud = r.audience ?? '';
    if (seen.has(aud)) errs.push(fieldErr.duplicate(`${path}[${i}].audience`, aud));
    seen.add(aud);
    const s = r.expirationSeconds;
    if (s !== undefined && s < MIN_TOKEN_SECONDS) errs.push(fieldErr.invalid(`${path}[${i}].expirationSeconds`, s, 'may not specify a duration less than 10 minutes'));
    if (s !== undefined && s > MAX_TOKEN_SECONDS) errs.push(fieldErr.invalid(`${path}[${i}].expirationSeconds`, s, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

/** validateCSIDriverSpec. kube spells the attachRequired path `attachedRequired`; so do we. */
function validateCSIDriverSpec(spec: CSIDriver['spec'] | undefined): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  if (s.attachRequired === undefined || s.attachRequired === null) errs.push(fieldErr.required('spec.attachedRequired'));
  if (s.podInfoOnMount === undefined || s.podInfoOnMount === null) errs.push(fieldErr.required('spec.podInfoOnMount'));
  if (s.storageCapacity === undefined || s.storageCapacity === null) errs.push(fieldErr.required('spec.storageCapacity'));
  if (!s.fsGroupPolicy) errs.push(fieldErr.required('spec.fsGroupPolicy'));
  else if (!FS_GROUP_POLICIES.includes(s.fsGroupPolicy)) errs.push(fieldErr.notSupported('spec.fsGroupPolicy', s.fsGroupPolicy, FS_GROUP_POLICIES));
  errs.push(...validateTokenRequests(s.tokenRequests, 'spec.tokenRequests'));
  for (const m of s.volumeLifecycleModes ?? []) {
    if (!LIFECYCLE_MODES.includes(m)) errs.push(fieldErr.notSupported('spec.volumeLifecycleModes', m, LIFECYCLE_MODES));
  }
  if (s.seLinuxMount === undefined || s.seLinuxMount === null) errs.push(fieldErr.required('spec.seLinuxMount'));
  return errs;
}

/** ValidateCSIDriver: the object's name is a driver name (its errors name the path `name`). */
export function validateCSIDriver(d: CSIDriver): FieldError[] {
  const m = meta(d);
  const errs = validateCSIDriverName(m?.name, 'name');
  // ObjectMeta's other rules (labels, annotations, finalizers) still apply; its name rule is the driver-name one.
  errs.push(...validateObjectMeta(m, () => []).filter((e) => e.field !== 'metadata.name'));
  errs.push(...validateCSIDriverSpec(d.spec));
  return errs;
}

/** ValidateCSIDriverUpdate: attachRequired and volumeLifecycleModes are immutable. */
export function validateCSIDriverUpdate(d: CSIDriver, old: CSIDriver): FieldError[] {
  return [
    ...validateCSIDriver(d),
    ...validateImmutable(d.spec?.attachRequired, old.spec?.attachRequired, 'spec.attachedRequired'),
    ...validateImmutable(d.spec?.volumeLifecycleModes, old.spec?.volumeLifecycleModes, 'spec.volumeLifecycleModes'),
  ];
}

type CSINodeDriver = CSINode['spec']['drivers'][number];

function validateCSINodeDriver(d: CSINodeDriver, seen: Set<string>, path: string, allowLongID: boolean): FieldError[] {
  const errs = validateCSIDriverName(d.name, `${path}.name`);
  const max = allowLongID ? CSI_NODE_ID_LONG_MAX : CSI_NODE_ID_MAX;
  if (!d.nodeID) errs.push(fieldErr.required(`${path}.nodeID`));
  if ((d.nodeID ?? '').length > max) errs.push(fieldErr.invalid(`${path}.nodeID`, d.nodeID, `must be ${max} characters or less`));
  errs.push(...validateNonnegative(d.allocatable?.count, `${path}.allocatable.count`));
  if (seen.has(d.name)) errs.push(fieldErr.duplicate(`${path}.name`, d.name));
  seen.add(d.name);
  const keys = new Set<string>();
  for (const key of d.topologyKeys ?? []) {
    if (!key) errs.push(fieldErr.required(path));
    if (keys.has(key)) errs.push(fieldErr.duplicate(path, key));
    keys.add(key);
    for (const msg of isQualifiedName(key)) errs.push(fieldErr.invalid(path, key, msg));
  }
  return errs;
}

/** ValidateCSINode: named like its Node; each driver once, with a node ID. */
export function validateCSINode(n: CSINode, allowLongID = false): FieldError[] {
  const errs = validateObjectMeta(meta(n), nameIsDNSSubdomain);
  const seen = new Set<string>();
  (n.spec?.drivers ?? []).forEach((d, i) => errs.push(...validateCSINodeDriver(d, seen, `spec.drivers[${i}]`, allowLongID)));
  return errs;
}

/** ValidateCSINodeUpdate: a driver's nodeID, allocatable and topologyKeys stay as registered. */
export function validateCSINodeUpdate(n: CSINode, old: CSINode): FieldError[] {
  const allowLong = (old.spec?.drivers ?? []).some((d) => (d.nodeID ?? '').length > CSI_NODE_ID_MAX);
  const errs = validateCSINode(n, allowLong);
  for (const oldDriver of old.spec?.drivers ?? []) {
    const i = (n.spec?.drivers ?? []).findIndex((d) => d.name === oldDriver.name);
    if (i < 0) continue;
    const d = n.spec.drivers[i];
    if (d.nodeID !== oldDriver.nodeID) errs.push(fieldErr.invalid(`spec.drivers[${i}].nodeID`, d.nodeID, FIELD_IMMUTABLE));
    if (!deepEqual(d.allocatable, oldDriver.allocatable)) errs.push(fieldErr.invalid(`spec.drivers[${i}].allocatable`, d.allocatable ?? null, FIELD_IMMUTABLE));
    if (!deepEqual(d.topologyKeys, oldDriver.topologyKeys)) errs.push(fieldErr.invalid(`spec.drivers[${i}].topologyKeys`, d.topologyKeys ?? null, FIELD_IMMUTABLE));
  }
  return errs;
}

function validateVolumeError(e: { message?: string } | undefined, path: string): FieldError[] {
  const msg = e?.message ?? '';
  return msg.length > VOLUME_ERROR_MESSAGE_MAX ? [fieldErr.tooLong(`${path}.message`, msg, VOLUME_ERROR_MESSAGE_MAX)] : [];
}

/** ValidateVolumeAttachment + ValidateVolumeAttachmentV1. */
export function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const errs = validateObjectMeta(meta(va), nameIsDNSSubdomain);
  const spec = va.spec ?? ({} as VolumeAttachment['spec']);
  if (!spec.attacher) errs.push(fieldErr.required('spec.attacher'));
  const src = spec.source ?? {};
  const pv = src.persistentVolumeName;
  if (src.inlineVolumeSpec === undefined && pv === undefined) errs.push(fieldErr.required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (src.inlineVolumeSpec !== undefined && pv !== undefined) errs.push(fieldErr.forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (pv !== undefined && !pv) errs.push(fieldErr.required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  for (const msg of isDNS1123Subdomain(spec.nodeName ?? '')) errs.push(fieldErr.invalid('spec.nodeName', spec.nodeName ?? '', msg));
  const md = va.status?.attachmentMetadata ?? {};
  const size = Object.entries(md).reduce((n, [k, v]) => n + k.length + v.length, 0);
  if (size > META_DATA_MAX) errs.push(fieldErr.tooLong('status.attachmentMetadata', '', META_DATA_MAX));
  errs.push(...validateVolumeError(va.status?.attachError, 'status.attachError'), ...validateVolumeError(va.status?.detachError, 'status.detachError'));
  // V1 only: the attacher is a CSI driver name and the PV name a valid one.
  if (spec.attacher) errs.push(...validateCSIDriverName(spec.attacher, 'spec.attacher'));
  if (pv) for (const msg of isDNS1123Subdomain(pv)) errs.push(fieldErr.invalid('spec.source.persistentVolumeName', pv, msg));
  return errs;
}

/** ValidateVolumeAttachmentUpdate: the spec is read-only. */
export function validateVolumeAttachmentUpdate(va: VolumeAttachment, old: VolumeAttachment): FieldError[] {
  const errs = validateVolumeAttachment(va);
  if (!deepEqual(va.spec, old.spec)) errs.push(fieldErr.invalid('spec', va.spec, FIELD_IMMUTABLE));
  return errs;
}
