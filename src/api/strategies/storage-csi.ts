// Strategies for CSIDriver, CSINode and VolumeAttachment (pkg/registry/storage/{csidriver,csinode,volumeattachment};
// pkg/apis/storage/v1/defaults.go SetDefaults_CSIDriver).

import type { CSIDriver, CSINode, VolumeAttachment } from 'kubernetes-types/storage/v1.js';
import type { Strategy, StrategyContext } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateCSIDriver, validateCSIDriverUpdate, validateCSINode, validateCSINodeUpdate, validateVolumeAttachment,
  validateVolumeAttachmentUpdate,
} from '../validation/storage-csi.js';
import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import { as, isStatusWrite, keepStatusOrSpec } from './common.js';

/** SetDefaults_CSIDriver: attach required, no pod info, no capacity tracking, ReadWriteOnceWithFSType, Persistent. */
export function defaultCSIDriver(d: CSIDriver): void {
  const spec = (d.spec ??= {});
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}

const metaUpdate = (obj: KubeObject, old: KubeObject) => validateObjectMetaUpdate(obj.metadata, old.metadata);

export const csiDriverStrategy = {
  defaults: (obj: KubeObject) => defaultCSIDriver(as<CSIDriver>(obj)),
  validate: (obj: KubeObject) => validateCSIDriver(as<CSIDriver>(obj)),
  validateUpdate: (obj: KubeObject, old: KubeObject) => [...metaUpdate(obj, old), ...validateCSIDriverUpdate(as<CSIDriver>(obj), as<CSIDriver>(old))],
} satisfies Strategy;

export const csiNodeStrategy = {
  validate: (obj: KubeObject) => validateCSINode(as<CSINode>(obj)),
  validateUpdate: (obj: KubeObject, old: KubeObject) => [...metaUpdate(obj, old), ...validateCSINodeUpdate(as<CSINode>(obj), as<CSINode>(old))],
} satisfies Strategy;

/**
 * VolumeAttachment: v1 clears the status on create and keeps it on spec writes; only the attacher writes it, through
 * /status (volumeattachment/strategy.go PrepareForCreate, PrepareForUpdate, statusStrategy).
 */
export const volumeAttachmentStrategy = {
  prepareForCreate(obj: KubeObject): void {
    delete obj.status;
  },
  prepareForUpdate: keepStatusOrSpec,
  validate: (obj: KubeObject) => validateVolumeAttachment(as<VolumeAttachment>(obj)),
  validateUpdate(obj: KubeObject, old: KubeObject, ctx?: StrategyContext) {
    if (isStatusWrite(ctx)) return [...metaUpdate(obj, old), ...validateVolumeAttachment(as<VolumeAttachment>(obj))];
    return [...metaUpdate(obj, old), ...validateVolumeAttachmentUpdate(as<VolumeAttachment>(obj), as<VolumeAttachment>(old))];
  },
} satisfies Strategy;
