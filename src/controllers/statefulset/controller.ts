// The StatefulSet controller (pkg/controller/statefulset: stateful_set.go, stateful_set_control.go,
// stateful_pod_control.go): pods named `<set>-<ordinal>` with a stable hostname, subdomain and claims, created in order
// and each Running and Ready before the next (OrderedReady) or all at once (Parallel), deleted from the highest
// ordinal; ControllerRevisions; RollingUpdate from the highest ordinal down to the partition, or OnDelete; the PVC
// retention policy through owner references; status and events.

import type { StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import { objectKey, type OwnerReference } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { adoptPatch, getControllerOf, newControllerRef } from '../util/owner.js';
import { isPodReady } from '../util/pod.js';
import { selectorMatches } from '../util/selector.js';
import { sameStatus } from '../util/status.js';
import { clone, type PodObj } from '../util/types.js';
import { HASH_LABEL, maxRevision, newRevision, revisionHash, revisionMatches, revisionTemplate, type RevisionObj } from './history.js';
import {
  claimsFor, isCreated, isFailedOrSucceeded, isHealthy, isMemberOf, isRunningAndAvailable, isRunningAndReady, isTerminating,
  newStatefulSetPod, ordinalOf, podRevision, replicaCount, startOrdinal, type ClaimObj, type StatefulSetObj,
} from './util.js';

export const NAME = 'statefulset-controller';
export const COMPONENT = 'statefulset-controller';
const OWNER_INDEX = 'statefulset-controller-owner';

export type { StatefulSetObj } from './util.js';
export type StatefulSetControllerOptions = RecordingControllerOptions;

const ownerIndex = (o: { metadata: { ownerReferences?: { controller?: boolean; kind: string; uid: string }[] } }): string[] => {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller === true);
  return ref?.kind === 'StatefulSet' ? [ref.uid] : [];
};

interface Revisions { current: RevisionObj; update: RevisionObj; old: RevisionObj[]; collisionCount: number }

export class StatefulSetController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly setInformer: Informer<StatefulSetObj>;
  private readonly podInformer: Informer<PodObj>;
  private readonly revInformer: Informer<RevisionObj>;
  private readonly claimInformer: Informer<ClaimObj>;

  constructor(opts: StatefulSetControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.setInformer = opts.informers.for<StatefulSetObj>(R.statefulsets);
    this.podInformer = opts.informers.for<PodObj>(R.pods);
    this.revInformer = opts.informers.for<RevisionObj>(R.controllerrevisions);
    this.claimInformer = opts.informers.for<ClaimObj>(R.persistentvolumeclaims);
    this.podInformer.addIndexer(OWNER_INDEX, ownerIndex);
    this.revInformer.addIndexer(OWNER_INDEX, ownerIndex);
    this.setInformer.addHandler({
      add: (s) => this.queue.add(objectKey(s)),
      update: (_o, s) => this.queue.add(objectKey(s)),
      delete: (s) => this.queue.add(objectKey(s)),
    });
    this.podInformer.addHandler({
      add: (p) => this.podChanged(p),
      update: (o, p) => {
        this.podChanged(p);
        const key = this.ownerKey(p);
        const minReady = key ? this.setInformer.get(key)?.spec?.minReadySeconds ?? 0 : 0;
        if (key && minReady > 0 && !isPodReady(o) && isPodReady(p)) this.queue.addAfter(key, minReady * 1000 + 1);
      },
      delete: (p) => this.podChanged(p),
    });
    this.revInformer.addHandler({
      add: (r) => this.enqueueOwner(r),
      update: (_o, r) => this.enqueueOwner(r),
      delete: (r) => this.enqueueOwner(r),
    });
  }

  protected informersToSync() {
    return [this.setInformer, this.podInformer, this.revInformer, this.claimInformer];
  }

  // ---- event handlers: they only find StatefulSet keys and enqueue them ----

  private ownerKey(obj: { metadata: PodObj['metadata'] }): string | undefined {
    const ref = getControllerOf(obj as PodObj);
    if (!ref || ref.kind !== 'StatefulSet') return undefined;
    const key = `${obj.metadata.namespace}/${ref.name}`;
    const set = this.setInformer.get(key);
    return set && set.metadata.uid === ref.uid ? key : undefined;
  }

  private enqueueOwner(obj: RevisionObj): void {
    const key = this.ownerKey(obj);
    if (key) this.queue.add(key);
  }

  private podChanged(pod: PodObj): void {
    const key = this.ownerKey(pod);
    if (key) return this.queue.add(key);
    if (getControllerOf(pod)) return;
    for (const set of this.setInformer.list(pod.metadata.namespace ?? '')) {
      if (selectorMatches(set.spec?.selector, pod.metadata.labels)) this.queue.add(objectKey(set));
    }
  }

  // ---- reconcile ----

  async reconcile(key: string): Promise<void> {
    const cached = this.setInformer.get(key);
    if (!cached) return;
    const set = clone(cached);
    if (set.metadata.deletionTimestamp) return;
    const pods = await this.claimPods(set);
    const revs = await this.constructHistory(set);
    await this.sync(set, pods, revs);
    await this.cleanupHistory(set, revs);
    await this.updateStatus(set, this.ownedPods(set), revs);
  }

  private ownedPods(set: StatefulSetObj): PodObj[] {
    return this.podInformer.byIndex(OWNER_INDEX, set.metadata.uid!)
      .filter((p) => p.metadata.namespace === set.metadata.namespace && selectorMatches(set.spec?.selector, p.metadata.labels) && isMemberOf(set, p));
  }

  /** getPodsForStatefulSet: owned pods plus orphans that match the selector and carry the set's name. */
  private async claimPods(set: StatefulSetObj): Promise<PodObj[]> {
    const owned = this.ownedPods(set);
    const orphans = this.podInformer.list(set.metadata.namespace)
      .filter((p) => !getControllerOf(p) && !p.metadata.deletionTimestamp && selectorMatches(set.spec?.selector, p.metadata.labels) && isMemberOf(set, p));
    for (const pod of orphans) {
      try {
        const adopted = await this.client.patch<PodObj>(R.pods, pod.metadata.namespace, pod.metadata.name!, 'json', adoptPatch(pod, this.ref(set)));
        owned.push(adopted);
      } catch (err) {
        if (!isNotFound(err) && (err as { code?: number }).code !== 422) throw err;
      }
    }
    return owned;
  }

  private ref(set: StatefulSetObj): OwnerReference {
    return newControllerRef(set, 'apps/v1', 'StatefulSet');
  }

  /** The pod a missing ordinal gets (newVersionedStatefulSetPod): the current revision below the partition, else the update revision. */
  private newPod(set: StatefulSetObj, revs: Revisions, index: number): PodObj {
    const ordinal = startOrdinal(set) + index;
    const us = set.spec?.updateStrategy;
    const partition = us?.rollingUpdate?.partition ?? 0;
    const useCurrent = us?.type === 'RollingUpdate' && revs.current !== revs.update &&
      (us.rollingUpdate ? index < partition : index < (set.status?.currentReplicas ?? 0));
    const rev = useCurrent ? revs.current : revs.update;
    const template: PodTemplateSpec = revisionTemplate(rev);
    return newStatefulSetPod(set, template, ordinal, rev.metadata.name!, this.ref(set));
  }

  /** updateStatefulSet: replicas in order, condemned pods from the top, then the rolling update. */
  private async sync(set: StatefulSetObj, pods: PodObj[], revs: Revisions): Promise<void> {
    const count = replicaCount(set), start = startOrdinal(set);
    const monotonic = set.spec?.podManagementPolicy !== 'Parallel';
    const minReady = set.spec?.minReadySeconds ?? 0, now = this.clock.now();
    const replicas: (PodObj | undefined)[] = new Array(count).fill(undefined);
    const condemned: PodObj[] = [];
    for (const pod of pods) {
      const ord = ordinalOf(pod);
      if (ord >= start && ord < start + count) replicas[ord - start] = pod;
      else if (ord >= 0) condemned.push(pod);
    }
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    await this.updateClaimOwners(set, replicas, condemned);

    for (let i = 0; i < count; i++) {
      const pod = replicas[i];
      if (isCreated(pod) && isFailedOrSucceeded(pod) && !isTerminating(pod)) {
        await this.deletePod(set, pod);
        if (monotonic) return;
        continue;
      }
      if (!isCreated(pod)) {
        await this.createPod(set, this.newPod(set, revs, i));
        if (monotonic) return;
        continue;
      }
      if (isTerminating(pod) || !isRunningAndReady(pod)) {
        if (monotonic) return;
        continue;
      }
      if (minReady > 0 && !isRunningAndAvailable(pod, minReady, now)) {
        if (monotonic) return;
        continue;
      }
      // Stable storage: a running pod whose claims went missing gets them back (createMissingPersistentVolumeClaims).
      await this.createClaims(set, pod, ordinalOf(pod));
    }

    const firstUnhealthy = condemned.find((p) => !isHealthy(p));
    for (const pod of condemned) {
      if (isTerminating(pod)) {
        if (monotonic) return;
        continue;
      }
      if (monotonic && !isHealthy(pod) && pod !== firstUnhealthy) return;
      await this.deletePod(set, pod);
      if (monotonic) return;
    }

    const us = set.spec?.updateStrategy;
    if (us?.type !== 'RollingUpdate') return;
    const partition = us.rollingUpdate?.partition ?? 0;
    for (let target = count - 1; target >= partition; target--) {
      const pod = replicas[target];
      if (!isCreated(pod)) return;
      if (podRevision(pod) !== revs.update.metadata.name && !isTerminating(pod)) {
        await this.deletePod(set, pod);
        return;
      }
      if (!isHealthy(pod)) return;
    }
  }

  private async createPod(set: StatefulSetObj, pod: PodObj): Promise<void> {
    await this.createClaims(set, pod, ordinalOf(pod));
    try {
      await this.client.create(R.pods, set.metadata.namespace, pod);
    } catch (err) {
      if (isAlreadyExists(err)) return;
      this.recorder.event(set, 'Warning', 'FailedCreate', `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errMessage(err)}`);
      throw err;
    }
    this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
  }

  private async deletePod(set: StatefulSetObj, pod: PodObj): Promise<void> {
    try {
      await this.client.delete(R.pods, pod.metadata.namespace, pod.metadata.name!);
    } catch (err) {
      if (isNotFound(err)) return;
      this.recorder.event(set, 'Warning', 'FailedDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errMessage(err)}`);
      throw err;
    }
    this.recorder.event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
  }

  /** createPersistentVolumeClaims: each missing claim of the pod, before the pod. */
  private async createClaims(set: StatefulSetObj, pod: PodObj, ordinal: number): Promise<void> {
    const ns = set.metadata.namespace;
    for (const claim of claimsFor(set, ordinal).values()) {
      if (this.claimInformer.get(`${ns}/${claim.metadata.name}`)) continue;
      const refs = this.claimRefs(set, undefined, false);
      if (refs.length) claim.metadata.ownerReferences = refs;
      try {
        await this.client.create(R.persistentvolumeclaims, ns, claim);
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        this.recorder.event(set, 'Warning', 'FailedCreate', `create Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errMessage(err)}`);
        throw err;
      }
      this.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
    }
  }

  /**
   * The owner references the retention policy wants on a claim (updateClaimOwnerRefForSetAndPod): the set when
   * whenDeleted is Delete; the pod when whenScaled is Delete and the pod is condemned by a scale-down.
   */
  private claimRefs(set: StatefulSetObj, pod: PodObj | undefined, condemned: boolean): OwnerReference[] {
    const policy = set.spec?.persistentVolumeClaimRetentionPolicy;
    const refs: OwnerReference[] = [];
    if (policy?.whenDeleted === 'Delete') refs.push({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name!, uid: set.metadata.uid! });
    if (pod && condemned && policy?.whenScaled === 'Delete') refs.push({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid! });
    return refs;
  }

  /** updateClaimOwnerRefs for every existing pod's claims, so the garbage collector applies the retention policy. */
  private async updateClaimOwners(set: StatefulSetObj, replicas: (PodObj | undefined)[], condemned: PodObj[]): Promise<void> {
    if (!set.spec?.volumeClaimTemplates?.length) return;
    const ns = set.metadata.namespace;
    const pods = [...replicas.filter(isCreated).map((p) => [p, false] as const), ...condemned.map((p) => [p, true] as const)];
    for (const [pod, isCondemned] of pods) {
      for (const want of claimsFor(set, ordinalOf(pod)).values()) {
        const claim = this.claimInformer.get(`${ns}/${want.metadata.name}`);
        if (!claim) continue;
        const mine = new Set([set.metadata.uid, pod.metadata.uid]);
        const others = (claim.metadata.ownerReferences ?? []).filter((r) => !(r.kind === 'StatefulSet' && r.name === set.metadata.name) && !(r.kind === 'Pod' && r.name === pod.metadata.name) && !mine.has(r.uid));
        const refs = [...others, ...this.claimRefs(set, pod, isCondemned)];
        const cur = claim.metadata.ownerReferences ?? [];
        if (JSON.stringify(cur) === JSON.stringify(refs)) continue;
        const next = clone(claim);
        if (refs.length) next.metadata.ownerReferences = refs;
        else delete next.metadata.ownerReferences;
        try {
          await this.client.update(R.persistentvolumeclaims, ns, next);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    }
  }

  // ---- history ----

  /** getStatefulSetRevisions: the update revision (created or renumbered) and the current one from status. */
  private async constructHistory(set: StatefulSetObj): Promise<Revisions> {
    const all = this.revInformer.byIndex(OWNER_INDEX, set.metadata.uid!).filter((r) => r.metadata.namespace === set.metadata.namespace)
      .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    let collisionCount = set.status?.collisionCount ?? 0;
    const equal = all.filter((r) => revisionMatches(set as never, r));
    let update: RevisionObj;
    const next = maxRevision(all) + 1;
    const latest = equal[equal.length - 1];
    if (latest && latest === all[all.length - 1]) {
      update = latest;
    } else if (latest) {
      update = await this.client.update<RevisionObj>(R.controllerrevisions, set.metadata.namespace, { ...clone(latest), revision: next });
    } else {
      const rev = newRevision(set, next);
      try {
        update = await this.client.create<RevisionObj>(R.controllerrevisions, set.metadata.namespace, rev);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const existing = await this.client.get<RevisionObj>(R.controllerrevisions, set.metadata.namespace, rev.metadata.name!);
        if (!revisionMatches(set as never, existing) || getControllerOf(existing)?.uid !== set.metadata.uid) {
          collisionCount++;
          const bumped = { ...clone(set), status: { ...(set.status ?? { replicas: 0 }), collisionCount } };
          await this.client.update(R.statefulsets, set.metadata.namespace, bumped, { subresource: 'status' });
          throw new Error(`found a hash collision for StatefulSet "${set.metadata.name}" - bumping collisionCount to resolve it`);
        }
        update = existing;
      }
    }
    const current = all.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    const old = all.filter((r) => r.metadata.name !== update.metadata.name && r.metadata.name !== current.metadata.name);
    return { current, update, old, collisionCount };
  }

  /** truncateHistory: keep revisionHistoryLimit revisions besides the current, the update and those live pods run. */
  private async cleanupHistory(set: StatefulSetObj, revs: Revisions): Promise<void> {
    const limit = set.spec?.revisionHistoryLimit ?? 10;
    const live = new Set(this.ownedPods(set).map(podRevision));
    const removable = revs.old.filter((r) => !live.has(r.metadata.name!)).sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    for (const r of removable.slice(0, Math.max(0, removable.length - limit))) {
      try {
        await this.client.delete(R.controllerrevisions, r.metadata.namespace, r.metadata.name!);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  // ---- status ----

  private async updateStatus(set: StatefulSetObj, pods: PodObj[], revs: Revisions): Promise<void> {
    const minReady = set.spec?.minReadySeconds ?? 0, now = this.clock.now();
    let replicas = 0, ready = 0, available = 0, current = 0, updated = 0;
    for (const pod of pods) {
      replicas++;
      if (isRunningAndReady(pod)) {
        ready++;
        if (isRunningAndAvailable(pod, minReady, now)) available++;
      }
      if (!isTerminating(pod)) {
        if (podRevision(pod) === revs.current.metadata.name) current++;
        if (podRevision(pod) === revs.update.metadata.name) updated++;
      }
    }
    const status: NonNullable<StatefulSet['status']> = {
      observedGeneration: set.metadata.generation,
      replicas, readyReplicas: ready, currentReplicas: current, updatedReplicas: updated,
      currentRevision: revs.current.metadata.name, updateRevision: revs.update.metadata.name,
      collisionCount: revs.collisionCount, availableReplicas: available,
      ...(set.status?.conditions ? { conditions: set.status.conditions } : {}),
    };
    // completeRollingUpdate: every pod updated and ready makes the update revision current.
    if (set.spec?.updateStrategy?.type === 'RollingUpdate' && updated === replicas && ready === replicas) {
      status.currentReplicas = updated;
      status.currentRevision = status.updateRevision;
    }
    if (!sameStatus(set.status, status)) {
      await this.client.update(R.statefulsets, set.metadata.namespace, { ...clone(set), status }, { subresource: 'status' });
    }
    if (minReady > 0 && ready !== available) this.queue.addAfter(objectKey(set), minReady * 1000);
  }
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { HASH_LABEL, revisionHash };
