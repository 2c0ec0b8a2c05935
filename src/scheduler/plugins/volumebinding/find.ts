// What VolumeBinding asks of the cluster's storage: the pod's claims (GetPodVolumeClaims) and, per node, whether its
// bound volumes admit the node and its WaitForFirstConsumer claims can be met there (binder.go FindPodVolumes).

import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { reservedFor, volumeSatisfies } from '../../../controllers/volume/matching.js';
import { compareQuantity, tryParseQuantity } from '../../../api/quantity.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { ObjectListers } from '../../interfaces.js';
import type { Pod } from '../../types.js';
import { compileTerms, matchAnyTerm } from '../../util/node-selector.js';

export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const SELECTED_NODE = 'volume.kubernetes.io/selected-node';
const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

export const claimKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** A free volume chosen for a claim on one node. */
export interface Binding {
  pv: PersistentVolume;
  claim: PersistentVolumeClaim;
}

export interface PodVolumes {
  bindings: Binding[];
  provisions: PersistentVolumeClaim[];
}

/** The pod's claims from the listers, or the status that rejects the pod everywhere. */
export function podClaims(pod: Pod, listers: ObjectListers): { claims: PersistentVolumeClaim[]; status?: Status } {
  const ns = pod.metadata.namespace ?? '';
  const claims: PersistentVolumeClaim[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    // A generic ephemeral volume's claim is named <pod>-<volume> (ephemeral.VolumeClaimName).
    const name = v.persistentVolumeClaim?.claimName ?? (v.ephemeral ? `${pod.metadata.name}-${v.name}` : undefined);
    if (!name) continue;
    const c = listers.persistentVolumeClaim?.(ns, name);
    if (!c) return { claims, status: Status.unresolvable(`persistentvolumeclaim "${name}" not found`) };
    if (c.metadata?.deletionTimestamp) return { claims, status: Status.unresolvable(`persistentvolumeclaim "${name}" is being deleted`) };
    claims.push(c);
  }
  return { claims };
}

export interface Assumed {
  /** volume name -> `namespace/name` of the claim a pod in flight chose it for */
  assumedVolumes: ReadonlyMap<string, string>;
  /** `namespace/name` -> node a pod in flight chose for the claim's provisioning */
  assumedClaims: ReadonlyMap<string, string>;
}

/** Whether the volume's required node affinity admits the node (volume.CheckNodeAffinity); none admits all. */
export function volumeAdmitsNode(pv: PersistentVolume, node: NodeInfo): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return matchAnyTerm(compileTerms(terms), node.name, node.labels);
}

/** FindPodVolumes for one node: the reasons it fails, or the plan that makes it fit. */
export function findPodVolumes(
  bound: readonly PersistentVolumeClaim[], delayed: readonly PersistentVolumeClaim[], node: NodeInfo,
  listers: ObjectListers, assumed: Assumed,
): { reasons: string[]; volumes: PodVolumes } {
  const volumes: PodVolumes = { bindings: [], provisions: [] };
  let boundSatisfied = true, unboundSatisfied = true, pvsFound = true;
  for (const c of bound) {
    const pv = listers.persistentVolume?.(c.spec!.volumeName!);
    if (!pv) {
      pvsFound = false;
      continue;
    }
    if (!volumeAdmitsNode(pv, node)) boundSatisfied = false;
  }
  const toMatch: PersistentVolumeClaim[] = [];
  for (const c of delayed) {
    const key = claimKey(c.metadata?.namespace ?? '', c.metadata?.name ?? '');
    const selected = c.metadata?.annotations?.[SELECTED_NODE] ?? assumed.assumedClaims.get(key);
    if (selected !== undefined) {
      // Provisioning was already asked for on one node: only that node can have the volume.
      if (selected !== node.name) unboundSatisfied = false;
      else volumes.provisions.push(c);
    } else {
      toMatch.push(c);
    }
  }
  if (unboundSatisfied && toMatch.length) {
    const chosen = new Set<string>();
    const all = listers.persistentVolumes?.() ?? [];
    for (const c of toMatch) {
      const pv = matchOnNode(c, all, node, chosen, assumed.assumedVolumes);
      if (pv) {
        chosen.add(pv.metadata!.name!);
        volumes.bindings.push({ pv, claim: c });
      } else if (canProvision(c, node, listers)) {
        volumes.provisions.push(c);
      } else {
        unboundSatisfied = false;
      }
    }
  }
  const reasons: string[] = [];
  if (!boundSatisfied) reasons.push(ERR_REASON_NODE_CONFLICT);
  if (!unboundSatisfied) reasons.push(ERR_REASON_BIND_CONFLICT);
  if (!pvsFound) reasons.push(ERR_REASON_PV_NOT_EXIST);
  return { reasons, volumes };
}

/** The volume reserved for the claim, else the smallest free one that satisfies it on this node. */
function matchOnNode(
  c: PersistentVolumeClaim, pvs: readonly PersistentVolume[], node: NodeInfo, chosen: ReadonlySet<string>,
  assumedVolumes: ReadonlyMap<string, string>,
): PersistentVolume | undefined {
  const key = claimKey(c.metadata?.namespace ?? '', c.metadata?.name ?? '');
  let best: PersistentVolume | undefined;
  for (const pv of pvs) {
    const name = pv.metadata?.name ?? '';
    if (chosen.has(name)) continue;
    const holder = assumedVolumes.get(name);
    if (holder !== undefined && holder !== key) continue;
    const reserved = reservedFor(pv, c);
    if (!reserved) {
      if (pv.spec?.claimRef) continue;
      if (pv.status?.phase && pv.status.phase !== 'Available' && pv.status.phase !== 'Pending') continue;
    }
    if (!volumeSatisfies(pv, c) || !volumeAdmitsNode(pv, node)) continue;
    if (reserved) return pv;
    if (!best || compareQuantity(tryParseQuantity(pv.spec!.capacity!.storage)!, tryParseQuantity(best.spec!.capacity!.storage)!) < 0) best = pv;
  }
  return best;
}

/** checkVolumeProvisions: the claim's class has a provisioner whose allowed topologies include the node. */
function canProvision(c: PersistentVolumeClaim, node: NodeInfo, listers: ObjectListers): boolean {
  const name = c.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? c.spec?.storageClassName ?? '';
  const sc = name ? listers.storageClass?.(name) : undefined;
  if (!sc || !sc.provisioner || sc.provisioner === NO_PROVISIONER) return false;
  const topologies = sc.allowedTopologies;
  if (!topologies?.length) return true;
  return topologies.some((t) => (t.matchLabelExpressions ?? []).every((e) => e.values.includes(node.labels[e.key] ?? '\u0000')));
}
