// The Deployment controller (pkg/controller/deployment/deployment_controller.go): claims ReplicaSets by selector and
// owner reference, then runs the paused/rollback/scaling/rollout sync that fits.

import { objectKey, splitKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { adoptPatch, getControllerOf, newControllerRef, releasePatch } from '../util/owner.js';
import { selectorMatches, selectsEverything } from '../util/selector.js';
import { clone, type DeploymentObj, type PodObj, type ReplicaSetObj } from '../util/types.js';
import { rolloutRecreate } from './recreate.js';
import { rollback } from './rollback.js';
import { rolloutRolling } from './rolling.js';
import { DeploymentSync } from './sync.js';
import { rollbackTo, withDefaults } from './util.js';

export const NAME = 'deployment-controller';
export const COMPONENT = 'deployment-controller';

export type DeploymentControllerOptions = RecordingControllerOptions;

export class DeploymentController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly dInformer: Informer<DeploymentObj>;
  private readonly rsInformer: Informer<ReplicaSetObj>;
  private readonly podInformer: Informer<PodObj>;

  constructor(opts: DeploymentControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.dInformer = opts.informers.for<DeploymentObj>(R.deployments);
    this.rsInformer = opts.informers.for<ReplicaSetObj>(R.replicasets);
    this.podInformer = opts.informers.for<PodObj>(R.pods);
    const enqueue = (d: DeploymentObj) => this.queue.add(objectKey(d));
    this.dInformer.addHandler({ add: enqueue, update: (_o, d) => enqueue(d), delete: enqueue });
    this.rsInformer.addHandler({
      add: (rs) => this.rsChanged(undefined, rs),
      update: (old, rs) => this.rsChanged(old, rs),
      delete: (rs) => { const k = this.ownerKey(rs); if (k) this.queue.add(k); },
    });
    // Recreate waits for old pods to go away, so their deletion must wake the Deployment.
    this.podInformer.addHandler({ delete: (p) => this.podDeleted(p) });
  }

  protected informersToSync() {
    return [this.dInformer, this.rsInformer, this.podInformer];
  }

  private ownerKey(rs: ReplicaSetObj): string | undefined {
    const ref = getControllerOf(rs);
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const key = `${rs.metadata.namespace}/${ref.name}`;
    return this.dInformer.get(key)?.metadata.uid === ref.uid ? key : undefined;
  }

  private rsChanged(old: ReplicaSetObj | undefined, rs: ReplicaSetObj): void {
    if (old && getControllerOf(old)?.uid !== getControllerOf(rs)?.uid) {
      const k = this.ownerKey(old);
      if (k) this.queue.add(k);
    }
    const key = this.ownerKey(rs);
    if (key) return this.queue.add(key);
    if (getControllerOf(rs)) return;
    // An orphan: every Deployment that selects it may want to adopt it.
    for (const d of this.dInformer.list(rs.metadata.namespace ?? '')) {
      if (selectorMatches(d.spec?.selector, rs.metadata.labels)) this.queue.add(objectKey(d));
    }
  }

  private podDeleted(p: PodObj): void {
    const ref = getControllerOf(p);
    if (ref?.kind !== 'ReplicaSet') return;
    const rs = this.rsInformer.get(`${p.metadata.namespace}/${ref.name}`);
    const key = rs && this.ownerKey(rs);
    if (key && this.dInformer.get(key)?.spec?.strategy?.type === 'Recreate') this.queue.add(key);
  }

  async reconcile(key: string): Promise<void> {
    const cached = this.dInformer.get(key);
    if (!cached) return;
    const s = new DeploymentSync({ client: this.client, recorder: this.recorder, clock: this.clock, queue: this.queue, rsInformer: this.rsInformer }, withDefaults(clone(cached)));
    const d = s.d;
    if (selectsEverything(d.spec.selector)) {
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        this.recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
        await s.writeStatus({ ...clone(d.status ?? {}), observedGeneration: d.metadata.generation });
      }
      return;
    }
    const rsList = await this.claimReplicaSets(d);
    if (d.metadata.deletionTimestamp) {
      const { newRS, oldRSs } = await s.allReplicaSets(rsList, false);
      return s.syncStatus(newRS ? [...oldRSs, newRS] : oldRSs, newRS);
    }
    await s.checkPausedConditions();
    if (s.d.spec.paused) return this.sync(s, rsList);
    // Rollback is not re-entrant: nothing else runs until the request is cleared (syncDeployment).
    if (rollbackTo(s.d) !== undefined) return rollback(s, rsList);
    if (await s.isScalingEvent(rsList)) return this.sync(s, rsList);
    if (s.d.spec.strategy?.type === 'Recreate') {
      const { namespace } = splitKey(key);
      return rolloutRecreate(s, rsList, this.podInformer.list(namespace));
    }
    return rolloutRolling(s, rsList);
  }

  /** Scaling events and paused Deployments: resize without rolling forward (sync). */
  private async sync(s: DeploymentSync, rsList: ReplicaSetObj[]): Promise<void> {
    const { newRS, oldRSs } = await s.allReplicaSets(rsList, false);
    await s.scale(newRS, oldRSs);
    // A pending rollback may still need the old ReplicaSets it points at (sync).
    if (s.d.spec.paused && rollbackTo(s.d) === undefined) await s.cleanup(oldRSs);
    // Re-read sizes after scaling so status counts the ReplicaSets as written.
    const fresh = (rs: ReplicaSetObj) => this.rsInformer.get(objectKey(rs)) ?? rs;
    const all = (newRS ? [...oldRSs, newRS] : oldRSs).map(fresh);
    await s.syncStatus(all, newRS && fresh(newRS));
  }

  /** ReplicaSets this Deployment owns after adoption and release (getReplicaSetsForDeployment / ClaimReplicaSets). */
  private async claimReplicaSets(d: DeploymentObj): Promise<ReplicaSetObj[]> {
    const out: ReplicaSetObj[] = [];
    const uid = d.metadata.uid!;
    const deleting = !!d.metadata.deletionTimestamp;
    for (const rs of this.rsInformer.list(d.metadata.namespace)) {
      const ref = getControllerOf(rs);
      const matches = selectorMatches(d.spec?.selector, rs.metadata.labels);
      if (ref) {
        if (ref.uid !== uid) continue;
        if (matches || deleting) out.push(rs);
        else await this.client.patch(R.replicasets, rs.metadata.namespace, rs.metadata.name!, 'json', releasePatch(rs, [uid]));
        continue;
      }
      if (!matches || deleting || rs.metadata.deletionTimestamp) continue;
      const adopted = await this.client.patch<ReplicaSetObj>(R.replicasets, rs.metadata.namespace, rs.metadata.name!, 'json',
        adoptPatch(rs, newControllerRef(d, 'apps/v1', 'Deployment')));
      out.push(adopted);
    }
    return out;
  }
}
