// The attach/detach controller's single-attachment rule: a volume that may not be attached to two nodes at once waits
// until its attachment elsewhere is gone, and the pods that wait are told why with kube's FailedAttachVolume texts.

import type { PersistentVolume } from 'kubernetes-types/core/v1.js';

/**
 * pkg/volume/util/util.go IsMultiAttachAllowed for a PersistentVolume: without access modes nothing is known and the
 * attach is tried; a ReadWriteMany or ReadOnlyMany mode allows it; otherwise (ReadWriteOnce, ReadWriteOncePod) not.
 */
export function multiAttachAllowed(pv: PersistentVolume): boolean {
  const modes = pv.spec?.accessModes ?? [];
  if (modes.length === 0) return true;
  return modes.some((m) => m === 'ReadWriteMany' || m === 'ReadOnlyMany');
}

/** A pod that holds the volume on another node. */
export interface Holder { namespace: string; name: string }

/**
 * reconciler.go reportMultiAttachError, as kube-controller-manager v1.33.0 words it (through
 * operation_executor.go generateVolumeMsg: `<prefix> for volume "<spec name>" <suffix>`). Each waiting pod sees the
 * names of the holders in its own namespace only, and a count of the others; with no holder left (the pods are gone
 * but the volume is still attached) the message says the volume is exclusively attached.
 */
export function multiAttachMessage(volume: string, waitingNamespace: string, holders: Holder[]): string {
  const prefix = `Multi-Attach error for volume ${JSON.stringify(volume)}`;
  if (holders.length === 0) return `${prefix} Volume is already exclusively attached to one node and can't be attached to another`;
  const local = holders.filter((h) => h.namespace === waitingNamespace).map((h) => h.name);
  const others = holders.length - local.length;
  if (local.length === 0) return `${prefix} Volume is already used by ${others} pod(s) in different namespaces`;
  const used = `Volume is already used by pod(s) ${local.join(', ')}`;
  return `${prefix} ${others > 0 ? `${used} and ${others} pod(s) in different namespaces` : used}`;
}
