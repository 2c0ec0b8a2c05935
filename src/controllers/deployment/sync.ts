// One Deployment sync's writes (pkg/controller/deployment/sync.go): the new ReplicaSet and revisions, scaling with
// events, proportional scaling, history cleanup and status; holds the working copy of the Deployment.

import type { DeploymentStatus } from 'kubernetes-types/apps/v1.js';
import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import type { EventRecorder } from '../util/events.js';
import { getControllerOf, newControllerRef } from '../util/owner.js';
import { sameStatus } from '../util/status.js';
import { clone, type DeploymentObj, type ReplicaSetObj } from '../util/types.js';
import { computeHash } from './hash.js';
import {
  calculateStatus, getCondition, hasProgressDeadline, isComplete, newCondition, Reason, setCondition, updateProgressing,
  updateReplicaFailure,
} from './status.js';
import {
  activeOnly, byRevision, bySizeNewer, bySizeOlder, DESIRED_REPLICAS, equalIgnoreHash, findActiveOrLatest, findNewReplicaSet,
  findOldReplicaSets, HASH_LABEL, isRollingUpdate, isSaturated, maxRevision, maxSurge, newRSNewReplicas, proportion,
  replicasAnnotationsNeedUpdate, replicasOf, REVISION, setNewReplicaSetAnnotations, setReplicasAnnotations, sumSpec,
  withDefaults,
} from './util.js';

export interface SyncDeps {
  client: Client;
  recorder: EventRecorder;
  clock: Clock;
  queue: WorkQueue;
  rsInformer: Informer<ReplicaSetObj>;
}

export type Defaulted = ReturnType<typeof withDefaults>;

export class DeploymentSync {
  constructor(private readonly deps: SyncDeps, public d: Defaulted) {}

  private get ns(): string {
    return this.d.metadata.namespace!;
  }

  get client(): Client {
    return this.deps.client;
  }

  /** An event on the Deployment. */
  event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.deps.recorder.event(this.d, type, reason, message);
  }

  // ---- status writes ----

  /** Writes `status` through the status subresource and keeps the working copy current. */
  async writeStatus(status: DeploymentStatus): Promise<void> {
    const body: DeploymentObj = { ...this.d, status };
    const res = await this.deps.client.update<DeploymentObj>(R.deployments, this.ns, body, { subresource: 'status' });
    this.d = withDefaults({ ...this.d, metadata: { ...this.d.metadata, resourceVersion: res.metadata.resourceVersion }, status: res.status });
  }

  /**
   * Sets the Deployment's revision annotation (SetDeploymentRevision). Like kube, through deployments/status: the
   * status strategy keeps annotations from the request, and a status write does not move metadata.generation (a
   * write to the main resource would, since annotation changes bump a Deployment's generation).
   */
  async setRevision(revision: string): Promise<void> {
    if (this.d.metadata.annotations?.[REVISION] === revision) return;
    // UpdateStatus, as kube's getNewReplicaSet does: system:controller:deployment-controller may update
    // deployments/status but not patch it.
    const body: DeploymentObj = { ...this.d, metadata: { ...this.d.metadata, annotations: { ...this.d.metadata.annotations, [REVISION]: revision } } };
    const res = await this.deps.client.update<DeploymentObj>(R.deployments, this.ns, body, { subresource: 'status' });
    this.d = withDefaults({ ...this.d, metadata: { ...this.d.metadata, annotations: res.metadata.annotations, resourceVersion: res.metadata.resourceVersion } });
  }

  // ---- the new ReplicaSet ----

  /** New and old ReplicaSets, with the new one's revision synced (getAllReplicaSetsAndSyncRevision). */
  async allReplicaSets(rsList: ReplicaSetObj[], create: boolean): Promise<{ newRS?: ReplicaSetObj; oldRSs: ReplicaSetObj[] }> {
    const oldRSs = findOldReplicaSets(this.d, rsList);
    const newRS = await this.getNewReplicaSet(rsList, oldRSs, create);
    return { newRS, oldRSs };
  }

  private async getNewReplicaSet(rsList: ReplicaSetObj[], oldRSs: ReplicaSetObj[], create: boolean): Promise<ReplicaSetObj | undefined> {
    const d = this.d;
    const now = this.deps.clock.now();
    const existing = findNewReplicaSet(d, rsList);
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) {
      const rs = clone(existing);
      const annotationsChanged = setNewReplicaSetAnnotations(d, rs, newRevision, true);
      const minReadyChanged = (rs.spec?.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
      if (annotationsChanged || minReadyChanged) {
        const spec = { ...rs.spec!, minReadySeconds: d.spec.minReadySeconds };
        return this.deps.client.update<ReplicaSetObj>(R.replicasets, this.ns, { ...rs, spec });
      }
      await this.setRevision(rs.metadata.annotations?.[REVISION] ?? '');
      if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
        const status = clone(d.status ?? {});
        setCondition(status, newCondition('Progressing', 'True', Reason.FoundNewRS, `Found new replica set "${rs.metadata.name}"`, now));
        await this.writeStatus(status);
      }
      return rs;
    }
    if (!create) return undefined;

    const template = clone(d.spec.template);
    const hash = computeHash(d.spec.template, d.status?.collisionCount);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [HASH_LABEL]: hash } };
    const selector = clone(d.spec.selector);
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [HASH_LABEL]: hash };
    const newRS: ReplicaSetObj = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`, namespace: this.ns, labels: template.metadata.labels,
        ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
      },
      spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds, selector, template },
    };
    const replicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    newRS.spec!.replicas = replicas;
    setNewReplicaSetAnnotations(d, newRS, newRevision, false);

    let created: ReplicaSetObj;
    let alreadyExists = false;
    try {
      created = await this.deps.client.create(R.replicasets, this.ns, newRS);
    } catch (err) {
      if (isAlreadyExists(err)) {
        const found = this.deps.rsInformer.get(objectKey(newRS))
          ?? await this.deps.client.get<ReplicaSetObj>(R.replicasets, this.ns, newRS.metadata.name!);
        if (getControllerOf(found)?.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, found.spec?.template)) {
          created = found;
          alreadyExists = true;
        } else {
          // A different template hashed to the same name: bump collisionCount so the next sync hashes differently.
          await this.writeStatus({ ...clone(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 });
          throw err;
        }
      } else {
        const msg = `Failed to create new replica set "${newRS.metadata.name}": ${err instanceof Error ? err.message : String(err)}`;
        if (hasProgressDeadline(d)) {
          const status = clone(d.status ?? {});
          setCondition(status, newCondition('Progressing', 'False', Reason.FailedRSCreate, msg, now));
          await this.writeStatus(status).catch(() => undefined);
        }
        this.deps.recorder.event(d, 'Warning', Reason.FailedRSCreate, msg);
        throw err;
      }
    }
    if (!alreadyExists && replicas > 0) {
      this.deps.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} to ${replicas}`);
    }
    await this.setRevision(String(newRevision));
    if (!alreadyExists && hasProgressDeadline(this.d)) {
      const status = clone(this.d.status ?? {});
      setCondition(status, newCondition('Progressing', 'True', Reason.NewReplicaSet, `Created new replica set "${created.metadata.name}"`, now));
      await this.writeStatus(status);
    }
    return created;
  }

  // ---- scaling ----

  /** Scales a ReplicaSet (and refreshes its replica annotations); returns whether the size changed. */
  async scaleReplicaSet(rs: ReplicaSetObj, newScale: number): Promise<{ scaled: boolean; rs: ReplicaSetObj }> {
    const d = this.d;
    const sizeChanged = replicasOf(rs) !== newScale;
    const max = d.spec.replicas! + maxSurge(d);
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, d.spec.replicas!, max)) return { scaled: false, rs };
    const oldScale = replicasOf(rs);
    const copy = clone(rs);
    copy.spec = { ...copy.spec!, replicas: newScale };
    setReplicasAnnotations(copy, d.spec.replicas!, max);
    const updated = await this.deps.client.update<ReplicaSetObj>(R.replicasets, this.ns, copy);
    if (sizeChanged) {
      const op = oldScale < newScale ? 'up' : 'down';
      this.deps.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${rs.metadata.name} to ${newScale} from ${oldScale}`);
    }
    return { scaled: sizeChanged, rs: updated };
  }

  /** scaleReplicaSetAndRecordEvent: nothing to do when the size already matches. */
  async scaleTo(rs: ReplicaSetObj, newScale: number): Promise<{ scaled: boolean; rs: ReplicaSetObj }> {
    if (replicasOf(rs) === newScale) return { scaled: false, rs };
    return this.scaleReplicaSet(rs, newScale);
  }

  /** A change of spec.replicas (or a paused Deployment): spread the difference proportionally (scale). */
  async scale(newRS: ReplicaSetObj | undefined, oldRSs: ReplicaSetObj[]): Promise<void> {
    const d = this.d;
    const single = findActiveOrLatest(newRS, oldRSs);
    if (single) {
      if (replicasOf(single) !== d.spec.replicas) await this.scaleReplicaSet(single, d.spec.replicas!);
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of activeOnly(oldRSs)) await this.scaleTo(old, 0);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const all = activeOnly(newRS ? [...oldRSs, newRS] : oldRSs);
    const allowed = d.spec.replicas! > 0 ? d.spec.replicas! + maxSurge(d) : 0;
    const toAdd = allowed - sumSpec(all);
    if (toAdd > 0) all.sort(bySizeNewer);
    else if (toAdd < 0) all.sort(bySizeOlder);
    const sizes = new Map<string, number>();
    let added = 0;
    for (const rs of all) {
      if (toAdd === 0) { sizes.set(rs.metadata.name!, replicasOf(rs)); continue; }
      const p = proportion(d, rs, toAdd, added);
      sizes.set(rs.metadata.name!, replicasOf(rs) + p);
      added += p;
    }
    // Rounding leftovers go to the largest ReplicaSet (first after sorting).
    if (toAdd !== 0 && all.length) {
      const first = all[0].metadata.name!;
      sizes.set(first, Math.max(0, sizes.get(first)! + toAdd - added));
    }
    for (const rs of all) await this.scaleReplicaSet(rs, sizes.get(rs.metadata.name!)!);
  }

  /** Some ReplicaSet's desired-replicas annotation differs from spec.replicas (isScalingEvent). */
  async isScalingEvent(rsList: ReplicaSetObj[]): Promise<boolean> {
    const { newRS, oldRSs } = await this.allReplicaSets(rsList, false);
    for (const rs of activeOnly(newRS ? [...oldRSs, newRS] : oldRSs)) {
      const desired = Number.parseInt(rs.metadata.annotations?.[DESIRED_REPLICAS] ?? '', 10);
      if (!Number.isNaN(desired) && desired !== this.d.spec.replicas) return true;
    }
    return false;
  }

  /** Deletes the oldest fully scaled-down ReplicaSets beyond revisionHistoryLimit (cleanupDeployment). */
  async cleanup(oldRSs: ReplicaSetObj[]): Promise<void> {
    const limit = this.d.spec.revisionHistoryLimit!;
    const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
    const diff = alive.length - limit;
    for (let i = 0; i < diff; i++) {
      const rs = alive[i];
      if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0) continue;
      if ((rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        await this.deps.client.delete(R.replicasets, this.ns, rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  // ---- status ----

  /** Counts and Available only (syncDeploymentStatus). */
  async syncStatus(allRSs: ReplicaSetObj[], newRS: ReplicaSetObj | undefined): Promise<void> {
    const s = calculateStatus(allRSs, newRS, this.d, this.deps.clock.now());
    if (!sameStatus(this.d.status, s)) await this.writeStatus(s);
  }

  /** Counts plus Progressing, and a timed re-check against the progress deadline (syncRolloutStatus). */
  async syncRolloutStatus(allRSs: ReplicaSetObj[], newRS: ReplicaSetObj | undefined): Promise<void> {
    const now = this.deps.clock.now();
    const s = calculateStatus(allRSs, newRS, this.d, now);
    updateProgressing(this.d, s, newRS, now);
    updateReplicaFailure(s, allRSs, newRS);
    if (!s.conditions?.length) delete s.conditions;
    if (sameStatus(this.d.status, s)) {
      this.requeueStuck(s);
      return;
    }
    await this.writeStatus(s);
  }

  /** Look again when the progress deadline would pass (requeueStuckDeployment). */
  private requeueStuck(s: DeploymentStatus): void {
    const c = getCondition(s, 'Progressing');
    if (!hasProgressDeadline(this.d) || !c) return;
    if (isComplete(this.d, s) || c.reason === Reason.TimedOut) return;
    const after = Date.parse(c.lastUpdateTime ?? '') + this.d.spec.progressDeadlineSeconds! * 1000 - this.deps.clock.now();
    const key = objectKey(this.d);
    if (Number.isNaN(after)) return;
    if (after < 1000) this.deps.queue.addRateLimited(key);
    else this.deps.queue.addAfter(key, after + 1000);
  }

  /** Progressing=Unknown while paused, and again when resumed (checkPausedConditions). */
  async checkPausedConditions(): Promise<void> {
    const d = this.d;
    if (!hasProgressDeadline(d)) return;
    const c = getCondition(d.status, 'Progressing');
    if (c?.reason === Reason.TimedOut) return;
    const pausedCond = c?.reason === Reason.Paused;
    const status = clone(d.status ?? {});
    const now = this.deps.clock.now();
    if (d.spec.paused && !pausedCond) {
      setCondition(status, newCondition('Progressing', 'Unknown', Reason.Paused, 'Deployment is paused', now));
    } else if (!d.spec.paused && pausedCond) {
      setCondition(status, newCondition('Progressing', 'Unknown', Reason.Resumed, 'Deployment is resumed', now));
    } else {
      return;
    }
    await this.writeStatus(status);
  }
}
