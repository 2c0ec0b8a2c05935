// Which PersistentVolume a claim may bind to (pkg/controller/volume/persistentvolume/index.go findMatchingVolume,
// pkg/volume/util/volume.go CheckNodeAffinity): class, volume mode, access modes, capacity, selector, node.

import type { NodeSelectorRequirement, PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { labelSelectorAsSelector } from '../../api/labels.js';
import { classOf } from '../../api/printers/storage.js';
import { compareQuantity, tryParseQuantity } from '../../api/quantity.js';

/** Whether the PV's required node affinity admits the node with these labels (no affinity admits every node). */
export function nodeAffinityAllows(pv: PersistentVolume, nodeLabels: Record<string, string>): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms?.length) return true;
  return terms.some((t) => (t.matchExpressions ?? []).every((r) => requirementHolds(r, nodeLabels)));
}

function requirementHolds(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const v = labels[r.key];
  switch (r.operator) {
    case 'In': return v !== undefined && (r.values ?? []).includes(v);
    case 'NotIn': return v === undefined || !(r.values ?? []).includes(v);
    case 'Exists': return v !== undefined;
    case 'DoesNotExist': return v === undefined;
    default: return false;
  }
}

/** Whether `pv` satisfies `claim`, ignoring which claim it may be reserved for. */
export function volumeSatisfies(pv: PersistentVolume, claim: PersistentVolumeClaim, nodeLabels?: Record<string, string>): boolean {
  if (pv.metadata?.deletionTimestamp) return false;
  if (classOf(pv) !== classOf(claim)) return false;
  if ((pv.spec?.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem')) return false;
  const modes = new Set(pv.spec?.accessModes ?? []);
  if (!(claim.spec?.accessModes ?? []).every((m) => modes.has(m))) return false;
  const want = tryParseQuantity(claim.spec?.resources?.requests?.storage);
  const have = tryParseQuantity(pv.spec?.capacity?.storage);
  if (!want || !have || compareQuantity(have, want) < 0) return false;
  if (claim.spec?.selector && !labelSelectorAsSelector(claim.spec.selector).matches(pv.metadata?.labels ?? {})) return false;
  if (nodeLabels && !nodeAffinityAllows(pv, nodeLabels)) return false;
  return true;
}

/** Whether the PV is reserved for (claimRef names) this claim. */
export function reservedFor(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref || ref.name !== claim.metadata?.name || (ref.namespace ?? '') !== (claim.metadata?.namespace ?? '')) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/**
 * findMatchingVolume: a volume reserved for the claim wins; otherwise the smallest free volume that satisfies it.
 * A free volume is one with no claimRef that is Available (or not yet marked).
 */
export function findMatchingVolume(claim: PersistentVolumeClaim, volumes: PersistentVolume[], nodeLabels?: Record<string, string>): PersistentVolume | undefined {
  const reserved = volumes.find((pv) => reservedFor(pv, claim) && volumeSatisfies(pv, claim, nodeLabels));
  if (reserved) return reserved;
  let best: PersistentVolume | undefined;
  for (const pv of volumes) {
    if (pv.spec?.claimRef) continue;
    if (pv.status?.phase && pv.status.phase !== 'Available' && pv.status.phase !== 'Pending') continue;
    if (!volumeSatisfies(pv, claim, nodeLabels)) continue;
    if (!best || compareQuantity(tryParseQuantity(pv.spec!.capacity!.storage)!, tryParseQuantity(best.spec!.capacity!.storage)!) < 0) best = pv;
  }
  return best;
}
