// Deployment helpers (pkg/controller/deployment/util/deployment_util.go): defaults, surge/unavailable fenceposts,
// revisions and replica annotations, finding the new and old ReplicaSets, and ReplicaSet orderings.

import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { DeploymentObj, ReplicaSetObj } from '../util/types.js';
import { canonicalJson } from '../util/json.js';

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const HASH_LABEL = 'pod-template-hash';
/** What apps/v1 keeps of the removed spec.rollbackTo: the revision to roll back to, 0 for the previous one. */
export const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
/** Deployment annotations never copied to ReplicaSets, nor back on rollback (annotationsToSkip). */
const SKIP_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration', REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS,
  ROLLBACK_TO,
]);
/** Revision history kept on a ReplicaSet is capped at this many characters (maxRevHistoryLengthInChars). */
const MAX_REV_HISTORY_CHARS = 2000;

/**
 * The apps/v1 defaults (pkg/apis/apps/v1/defaults.go SetDefaults_Deployment), applied to a copy so the controller
 * behaves the same whether or not the API server filled them in.
 */
export function withDefaults(d: DeploymentObj): DeploymentObj & { spec: NonNullable<DeploymentObj['spec']> } {
  const spec = { ...(d.spec ?? { selector: {}, template: {} }) };
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  const strategy = { ...(spec.strategy ?? {}) };
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    strategy.rollingUpdate = { maxSurge: '25%', maxUnavailable: '25%', ...(strategy.rollingUpdate ?? {}) };
  }
  spec.strategy = strategy;
  return { ...d, spec };
}

/** intstr.GetScaledValueFromIntOrPercent: a number as is, `N%` of total rounded up or down. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (!m) {
    if (/^-?\d+$/.test(v)) return Number(v);
    throw new Error(`invalid value for IntOrString: invalid value "${v}"`);
  }
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** ResolveFenceposts: surge rounds up, unavailable down; both zero would deadlock, so unavailable becomes 1. */
export function resolveFenceposts(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): [number, number] {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

type Defaulted = ReturnType<typeof withDefaults>;

export function isRollingUpdate(d: Defaulted): boolean {
  return d.spec.strategy?.type === 'RollingUpdate';
}

export function maxSurge(d: Defaulted): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec.strategy!.rollingUpdate!;
  return resolveFenceposts(ru.maxSurge, ru.maxUnavailable, d.spec.replicas!)[0];
}

export function maxUnavailable(d: Defaulted): number {
  if (!isRollingUpdate(d) || d.spec.replicas === 0) return 0;
  const ru = d.spec.strategy!.rollingUpdate!;
  const u = resolveFenceposts(ru.maxSurge, ru.maxUnavailable, d.spec.replicas!)[1];
  return Math.min(u, d.spec.replicas!);
}

export const replicasOf = (rs: ReplicaSetObj): number => rs.spec?.replicas ?? 0;
export const sumSpec = (rss: ReplicaSetObj[]): number => rss.reduce((n, rs) => n + replicasOf(rs), 0);
export const sumStatus = (rss: ReplicaSetObj[], f: 'replicas' | 'readyReplicas' | 'availableReplicas'): number =>
  rss.reduce((n, rs) => n + (rs.status?.[f] ?? 0), 0);
export const activeOnly = (rss: ReplicaSetObj[]): ReplicaSetObj[] => rss.filter((rs) => replicasOf(rs) > 0);

export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  const n = Number.parseInt(obj.metadata.annotations?.[REVISION] ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
}

export function maxRevision(rss: ReplicaSetObj[]): number {
  return Math.max(0, ...rss.map(revisionOf));
}

/** The second-highest revision: the one before the current (LastRevision); 0 when there is none. */
export function lastRevision(rss: ReplicaSetObj[]): number {
  let max = 0, second = 0;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v >= max) [second, max] = [max, v];
    else if (v > second) second = v;
  }
  return second;
}

/** The revision asked for by the deprecated rollback annotation; undefined when absent or not an integer (getRollbackTo). */
export function rollbackTo(d: DeploymentObj): number | undefined {
  const v = d.metadata.annotations?.[ROLLBACK_TO];
  if (!v || !/^[+-]?\d+$/.test(v)) return undefined;
  return Number(v);
}

/**
 * Points the Deployment back at a ReplicaSet: its template without the hash label (SetFromReplicaSetTemplate), and
 * its annotations in place of the Deployment's own, keeping only those never copied (SetDeploymentAnnotationsTo).
 */
export function setFromReplicaSet(d: DeploymentObj, rs: ReplicaSetObj): void {
  const template = structuredClone(rs.spec?.template ?? {});
  if (template.metadata?.labels) {
    delete template.metadata.labels[HASH_LABEL];
    if (!Object.keys(template.metadata.labels).length) delete template.metadata.labels;
  }
  d.spec = { ...d.spec!, template };
  const kept = Object.entries(d.metadata.annotations ?? {}).filter(([k]) => SKIP_ANNOTATIONS.has(k));
  const copied = Object.entries(rs.metadata.annotations ?? {}).filter(([k]) => !SKIP_ANNOTATIONS.has(k));
  d.metadata.annotations = Object.fromEntries([...kept, ...copied]);
}

/** Templates equal apart from the pod-template-hash label, treating empty and absent maps/lists alike. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined) => {
    const c = structuredClone(t ?? {});
    if (c.metadata?.labels) delete c.metadata.labels[HASH_LABEL];
    return canonicalJson(prune(c));
  };
  return strip(a) === strip(b);
}

/** Removes empty objects/arrays and nulls, like apimachinery's semantic DeepEqual treats nil and empty as equal. */
function prune(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(prune) : undefined;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = prune(x);
      if (p !== undefined && p !== null) out[k] = p;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

/** Oldest first, then by name (ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSetObj, b: ReplicaSetObj): number {
  const ta = a.metadata.creationTimestamp ?? '', tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** Larger first; ties newer first (ReplicaSetsBySizeNewer) — used when adding replicas. */
export const bySizeNewer = (a: ReplicaSetObj, b: ReplicaSetObj): number =>
  replicasOf(a) !== replicasOf(b) ? replicasOf(b) - replicasOf(a) : byCreation(b, a);
/** Larger first; ties older first (ReplicaSetsBySizeOlder) — used when removing replicas. */
export const bySizeOlder = (a: ReplicaSetObj, b: ReplicaSetObj): number =>
  replicasOf(a) !== replicasOf(b) ? replicasOf(b) - replicasOf(a) : byCreation(a, b);
/** Lowest revision first, ties by creation (ReplicaSetsByRevision). */
export const byRevision = (a: ReplicaSetObj, b: ReplicaSetObj): number =>
  revisionOf(a) !== revisionOf(b) ? revisionOf(a) - revisionOf(b) : byCreation(a, b);

/** The ReplicaSet whose template equals the Deployment's; the oldest if several do (FindNewReplicaSet). */
export function findNewReplicaSet(d: DeploymentObj, rss: ReplicaSetObj[]): ReplicaSetObj | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** Every ReplicaSet but the new one (FindOldReplicaSets' allOldRSs). */
export function findOldReplicaSets(d: DeploymentObj, rss: ReplicaSetObj[]): ReplicaSetObj[] {
  const newRS = findNewReplicaSet(d, rss);
  return rss.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid);
}

/** Sets desired/max replica annotations; returns whether anything changed (SetReplicasAnnotations). */
export function setReplicasAnnotations(rs: ReplicaSetObj, desired: number, max: number): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  if (a[DESIRED_REPLICAS] !== String(desired)) { a[DESIRED_REPLICAS] = String(desired); changed = true; }
  if (a[MAX_REPLICAS] !== String(max)) { a[MAX_REPLICAS] = String(max); changed = true; }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSetObj, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DESIRED_REPLICAS] !== String(desired) || a[MAX_REPLICAS] !== String(max);
}

/**
 * Copies the Deployment's annotations, sets the revision (keeping the old one in revision-history when a rollback
 * reuses this ReplicaSet) and, for a ReplicaSet about to be created, the replica annotations
 * (SetNewReplicaSetAnnotations). Returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(d: Defaulted, rs: ReplicaSetObj, newRevision: number, exists: boolean): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIP_ANNOTATIONS.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const had = REVISION in a;
  const oldRevision = a[REVISION] ?? '';
  const oldInt = oldRevision === '' ? 0 : Number.parseInt(oldRevision, 10);
  if (Number.isNaN(oldInt)) return changed;
  if (oldInt < newRevision) {
    a[REVISION] = String(newRevision);
    changed = true;
    if (had) {
      const history = a[REVISION_HISTORY] ?? '';
      let olds = history === '' ? [] : history.split(',');
      let total = history.length + oldRevision.length + 1;
      while (total > MAX_REV_HISTORY_CHARS && olds.length) total -= olds.shift()!.length + 1;
      if (total <= MAX_REV_HISTORY_CHARS) a[REVISION_HISTORY] = (olds = [...olds, oldRevision]).join(',');
    }
  }
  if (!exists && setReplicasAnnotations(rs, d.spec.replicas!, d.spec.replicas! + maxSurge(d))) changed = true;
  return changed;
}

/** How many replicas the new ReplicaSet should have now (NewRSNewReplicas). */
export function newRSNewReplicas(d: Defaulted, allRSs: ReplicaSetObj[], newRS: ReplicaSetObj): number {
  if (!isRollingUpdate(d)) return d.spec.replicas!;
  const maxTotal = d.spec.replicas! + maxSurge(d);
  const current = sumSpec(allRSs);
  if (current >= maxTotal) return replicasOf(newRS);
  const up = Math.min(maxTotal - current, d.spec.replicas! - replicasOf(newRS));
  return replicasOf(newRS) + up;
}

/** Scaled to the desired count with every pod available (IsSaturated). */
export function isSaturated(d: Defaulted, rs: ReplicaSetObj | undefined): boolean {
  if (!rs) return false;
  const desired = Number.parseInt(rs.metadata.annotations?.[DESIRED_REPLICAS] ?? '', 10);
  return replicasOf(rs) === d.spec.replicas && desired === d.spec.replicas && (rs.status?.availableReplicas ?? 0) === d.spec.replicas;
}

/** The only active ReplicaSet, or the newest when none is active; undefined if several are (FindActiveOrLatest). */
export function findActiveOrLatest(newRS: ReplicaSetObj | undefined, oldRSs: ReplicaSetObj[]): ReplicaSetObj | undefined {
  if (!newRS && !oldRSs.length) return undefined;
  const olds = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeOnly(newRS ? [...olds, newRS] : olds);
  if (active.length === 0) return newRS ?? olds[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** Share of a proportional scale for one ReplicaSet (GetProportion / getReplicaSetFraction). */
export function proportion(d: Defaulted, rs: ReplicaSetObj, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (d.spec.replicas === 0) fraction = -replicasOf(rs);
  else {
    const deploymentReplicas = d.spec.replicas! + maxSurge(d);
    const annotated = Number.parseInt(rs.metadata.annotations?.[MAX_REPLICAS] ?? '', 10);
    const base = Number.isNaN(annotated) ? (d.status?.replicas ?? 0) : annotated;
    // Go's math.Round rounds halves away from zero; the value is never negative here, so Math.round agrees.
    fraction = base > 0 ? Math.round((replicasOf(rs) * deploymentReplicas) / base) - replicasOf(rs) : 0;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
