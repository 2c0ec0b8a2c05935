// The ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps `spec.replicas` pods that match the
// selector, adopting orphans and releasing pods that stopped matching, and reports counts in status.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import { objectKey, splitKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { R } from '../../client/resources.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { Expectations } from '../util/expectations.js';
import { adoptPatch, getControllerOf, newControllerRef, releasePatch } from '../util/owner.js';
import { isPodActive, isPodReady } from '../util/pod.js';
import { selectorMatches } from '../util/selector.js';
import { sameStatus } from '../util/status.js';
import { clone, type PodObj, type ReplicaSetObj } from '../util/types.js';
import { podFromTemplate } from './pod-template.js';
import { podsToDelete } from './rank.js';
import { createPodsInBatches, deletePods, type PodControl } from '../util/pod-control.js';
import { calculateStatus } from './status.js';

/**
 * A ReplicaSet's pod events are gathered for at least podEventBatchMs, and for longer when its last sync was slow:
 * this many times that sync's duration, so re-reading a big ReplicaSet's pods takes at most about 1/20 of the
 * controller's time, up to MAX_POD_EVENT_BATCH_MS (the Job controller's syncJobBatchPeriod, pkg/controller/job).
 */
const BATCH_PER_SYNC_MS = 20;
const MAX_POD_EVENT_BATCH_MS = 1000;

/** Pods by their controller's UID (orphans under ORPHAN): what a ReplicaSet may own or adopt. */
const CONTROLLER_UID_INDEX = 'replicaset-controller-uid';
const ORPHAN = '';

export const NAME = 'replicaset-controller';
/** The event source kube-controller-manager uses for this controller. */
export const COMPONENT = 'replicaset-controller';
/** At most this many pods are created or deleted in one sync (BurstReplicas). */
export const BURST_REPLICAS = 500;
/** Pod creations start with this batch size and double (controller.SlowStartInitialBatchSize). */

/**
 * What the controller manages: ReplicaSets by default; the ReplicationController manager runs the same code over
 * ReplicationControllers and their equality-based selectors (pkg/controller/replication wraps this controller).
 */
export interface ReplicaSetFlavor {
  name: string;
  resource: ResourceType;
  apiVersion: string;
  kind: string;
  /** The owner's pod selector as a LabelSelector. */
  selector(owner: ReplicaSetObj): LabelSelector | undefined;
}

export const REPLICA_SET_FLAVOR: ReplicaSetFlavor = {
  name: NAME, resource: R.replicasets, apiVersion: 'apps/v1', kind: 'ReplicaSet', selector: (rs) => rs.spec?.selector,
};

export type ReplicaSetControllerOptions = RecordingControllerOptions & {
  flavor?: ReplicaSetFlavor;
  /**
   * How long pod events for one ReplicaSet are gathered into one sync (0: each event queues at once). A burst of
   * pod status changes then costs one sync over the ReplicaSet's pods, not one per pod (issue 11).
   */
  podEventBatchMs?: number;
};

export class ReplicaSetController extends QueueController {
  readonly name: string;
  private readonly flavor: ReplicaSetFlavor;
  private readonly podEventBatchMs: number;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly rsInformer: Informer<ReplicaSetObj>;
  private readonly podInformer: Informer<PodObj>;
  readonly expectations: Expectations;
  /** How long each ReplicaSet's last sync took (ms), which stretches its pod-event batch. */
  private readonly syncMs = new Map<string, number>();

  constructor(opts: ReplicaSetControllerOptions) {
    const flavor = opts.flavor ?? REPLICA_SET_FLAVOR;
    super(opts.clock, opts.logger.child(flavor.name), opts.workers ?? 5);
    this.flavor = flavor;
    this.name = flavor.name;
    this.podEventBatchMs = opts.podEventBatchMs ?? 0;
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.expectations = new Expectations(opts.clock);
    this.rsInformer = opts.informers.for<ReplicaSetObj>(flavor.resource);
    this.podInformer = opts.informers.for<PodObj>(R.pods);
    this.podInformer.addIndexer(CONTROLLER_UID_INDEX, (p) => [getControllerOf(p)?.uid ?? ORPHAN]);
    this.rsInformer.addHandler({
      add: (rs) => this.queue.add(objectKey(rs)),
      update: (_old, rs) => this.queue.add(objectKey(rs)),
      delete: (rs) => {
        this.expectations.delete(objectKey(rs));
        this.syncMs.delete(objectKey(rs));
        this.queue.add(objectKey(rs));
      },
    });
    this.podInformer.addHandler({
      add: (p) => this.podAdded(p),
      update: (o, p) => this.podUpdated(o, p),
      delete: (p) => this.podDeleted(p),
    });
  }

  protected informersToSync() {
    return [this.rsInformer, this.podInformer];
  }

  // ---- event handlers: they only find the ReplicaSet key and enqueue it ----

  private ownerKey(pod: PodObj): string | undefined {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== this.flavor.kind) return undefined;
    const key = `${pod.metadata.namespace}/${ref.name}`;
    const rs = this.rsInformer.get(key);
    return rs && rs.metadata.uid === ref.uid ? key : undefined;
  }

  /** ReplicaSets whose selector matches an orphan pod: one of them may adopt it. */
  private matchingKeys(pod: PodObj): string[] {
    return this.rsInformer.list(pod.metadata.namespace ?? '')
      .filter((rs) => selectorMatches(this.flavor.selector(rs), pod.metadata.labels))
      .map(objectKey);
  }

  private podAdded(pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    const key = this.ownerKey(pod);
    if (key) {
      this.expectations.creationObserved(key);
      this.enqueueForPod(key);
    } else if (!getControllerOf(pod)) {
      for (const k of this.matchingKeys(pod)) this.enqueueForPod(k);
    }
  }

  private podUpdated(old: PodObj, pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) {
      // A graceful deletion counts as observed now, so a replacement is created without waiting for the kubelet.
      this.podDeleted(pod);
      return;
    }
    const oldRef = getControllerOf(old), ref = getControllerOf(pod);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const k = this.ownerKey(old);
      if (k) this.enqueueForPod(k);
    }
    const key = this.ownerKey(pod);
    if (key) {
      this.enqueueForPod(key);
      // Re-check once the pod has been ready for minReadySeconds, when it becomes available.
      const rs = this.rsInformer.get(key);
      const minReady = rs?.spec?.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(key, minReady * 1000 + 1);
    } else if (!ref) {
      for (const k of this.matchingKeys(pod)) this.enqueueForPod(k);
    }
  }

  /** A pod of this ReplicaSet changed: sync it, gathering a burst of such events into one sync. */
  private enqueueForPod(key: string): void {
    if (this.podEventBatchMs <= 0) return this.queue.add(key);
    const slow = BATCH_PER_SYNC_MS * (this.syncMs.get(key) ?? 0);
    this.queue.addAfter(key, Math.min(MAX_POD_EVENT_BATCH_MS, Math.max(this.podEventBatchMs, slow)));
  }

  private podDeleted(pod: PodObj): void {
    const key = this.ownerKey(pod);
    if (!key) return;
    this.expectations.deletionObserved(key, objectKey(pod));
    this.enqueueForPod(key);
  }

  // ---- reconcile ----

  async reconcile(key: string): Promise<void> {
    const started = this.clock.now();
    try {
      await this.sync(key);
    } finally {
      if (this.rsInformer.get(key)) this.syncMs.set(key, this.clock.now() - started);
      else this.syncMs.delete(key);
    }
  }

  private async sync(key: string): Promise<void> {
    const { namespace } = splitKey(key);
    const cached = this.rsInformer.get(key);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const rs = clone(cached);
    const needsSync = this.expectations.satisfied(key) && !rs.metadata.deletionTimestamp;
    // Only this ReplicaSet's pods and the namespace's orphans can be claimed: read them from the owner index
    // instead of every pod of the namespace, so a sync costs what the ReplicaSet has, not what the namespace has.
    const candidates = [
      ...this.podInformer.byIndex(CONTROLLER_UID_INDEX, rs.metadata.uid ?? ''),
      ...this.podInformer.byIndex(CONTROLLER_UID_INDEX, ORPHAN).filter((p) => p.metadata.namespace === namespace),
    ];
    const pods = await this.claimPods(rs, candidates.filter(isPodActive));

    let manageErr: unknown;
    if (needsSync) {
      try {
        await this.manageReplicas(rs, key, pods);
      } catch (err) {
        manageErr = err;
      }
    }
    await this.updateStatus(rs, pods);
    if (manageErr) throw manageErr;
  }

  /**
   * The pods this ReplicaSet owns after adopting matching orphans and releasing owned pods that no longer match
   * (pkg/controller/controller_ref_manager.go ClaimPods).
   */
  private async claimPods(rs: ReplicaSetObj, pods: PodObj[]): Promise<PodObj[]> {
    const owned: PodObj[] = [];
    const uid = rs.metadata.uid;
    const deleting = !!rs.metadata.deletionTimestamp;
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      const matches = selectorMatches(this.flavor.selector(rs), pod.metadata.labels);
      if (ref) {
        if (ref.uid !== uid) continue;
        if (matches) owned.push(pod);
        else if (!deleting) await this.patchPod(pod, releasePatch(pod, [uid!]));
        continue;
      }
      if (!matches || deleting || pod.metadata.deletionTimestamp) continue;
      if (await this.patchPod(pod, adoptPatch(pod, newControllerRef(rs, this.flavor.apiVersion, this.flavor.kind)))) owned.push(pod);
    }
    return owned;
  }

  /** Applies an adopt/release patch; a pod that is gone (or was replaced) is skipped rather than retried. */
  private async patchPod(pod: PodObj, patch: unknown[]): Promise<boolean> {
    try {
      await this.client.patch(R.pods, pod.metadata.namespace, pod.metadata.name!, 'json', patch);
      return true;
    } catch (err) {
      if (isNotFound(err) || (err as { code?: number }).code === 422) return false;
      throw err;
    }
  }

  private get podControl(): PodControl {
    return { client: this.client, recorder: this.recorder, expectations: this.expectations };
  }

  private async manageReplicas(rs: ReplicaSetObj, key: string, pods: PodObj[]): Promise<void> {
    const want = rs.spec?.replicas ?? 1;
    const diff = pods.length - want;
    if (diff < 0) await this.createPods(rs, key, Math.min(-diff, BURST_REPLICAS));
    else if (diff > 0) await this.deletePods(rs, key, pods, Math.min(diff, BURST_REPLICAS));
  }

  /** Creates pods in doubling batches so a failing create (quota, admission) stops early (slowStartBatch). */
  private async createPods(rs: ReplicaSetObj, key: string, count: number): Promise<void> {
    const ns = rs.metadata.namespace!;
    const ref = newControllerRef(rs, this.flavor.apiVersion, this.flavor.kind);
    await createPodsInBatches(this.podControl, rs, key, ns, Array.from({ length: count }), () => podFromTemplate(rs.spec?.template, ns, rs.metadata.name!, ref));
  }

  private async deletePods(rs: ReplicaSetObj, key: string, pods: PodObj[], count: number): Promise<void> {
    await deletePods(this.podControl, rs, key, podsToDelete(pods, this.relatedPods(rs), count, this.clock.now()) as PodObj[]);
  }

  /** Active pods of every ReplicaSet with the same controller as `rs` (getIndirectlyRelatedPods). */
  private relatedPods(rs: ReplicaSetObj): Pod[] {
    const owner = getControllerOf(rs);
    const siblings = owner
      ? this.rsInformer.list(rs.metadata.namespace).filter((r) => getControllerOf(r)?.uid === owner.uid)
      : [rs];
    return siblings.flatMap((r) => this.podInformer.byIndex(CONTROLLER_UID_INDEX, r.metadata.uid ?? '')).filter(isPodActive);
  }

  private async updateStatus(rs: ReplicaSetObj, pods: PodObj[]): Promise<void> {
    const status = calculateStatus(rs, pods, this.clock.now());
    if (!sameStatus(rs.status, status)) {
      const next: ReplicaSetObj = { ...clone(rs), status };
      await this.client.update(this.flavor.resource, rs.metadata.namespace, next, { subresource: 'status' });
    }
    // Available counts lag readiness by minReadySeconds: look again when they should have caught up.
    const minReady = rs.spec?.minReadySeconds ?? 0;
    const replicas = status.replicas ?? 0;
    if (minReady > 0 && (status.readyReplicas ?? 0) === replicas && (status.availableReplicas ?? 0) !== replicas) {
      this.queue.addAfter(objectKey(rs), minReady * 1000);
    }
  }
}
