// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go, update.go): one pod per eligible node, pinned
// there by a matchFields node-affinity term for the default scheduler to bind; ControllerRevisions per template;
// RollingUpdate (maxUnavailable or maxSurge) and OnDelete; status counts and events.

import type { DaemonSet } from 'kubernetes-types/apps/v1.js';
import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import { Expectations } from '../util/expectations.js';
import { canonicalJson } from '../util/json.js';
import { adoptPatch, getControllerOf, newControllerRef } from '../util/owner.js';
import { isPodAvailable, isPodReady } from '../util/pod.js';
import { selectorMatches } from '../util/selector.js';
import { sameStatus } from '../util/status.js';
import { clone, type NodeObj, type PodObj, type Typed } from '../util/types.js';
import { podFromTemplate } from '../replicaset/pod-template.js';
import { createPodsInBatches, deletePods, type PodControl } from '../util/pod-control.js';
import { maxRevision, newRevision, revisionMatches, templateHash, type RevisionObj } from './history.js';
import {
  byCreationAndPhase, createPodTemplate, isPodUpdated, nodeShouldRunDaemonPod, pinToNode, REVISION_HASH_LABEL,
  scaledValue, targetNodeName, templateGeneration,
} from './util.js';

export const NAME = 'daemonset-controller';
export const COMPONENT = 'daemonset-controller';
/** At most this many pods are created or deleted in one sync (BurstReplicas). */
export const BURST_REPLICAS = 250;
const OWNER_INDEX = 'daemonset-controller-owner';

export type DaemonSetObj = Typed<DaemonSet>;
export type DaemonSetControllerOptions = RecordingControllerOptions;

const ownerIndex = (o: { metadata: { ownerReferences?: { controller?: boolean; kind: string; uid: string }[] } }): string[] => {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller === true);
  return ref?.kind === 'DaemonSet' ? [ref.uid] : [];
};

export class DaemonSetController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly dsInformer: Informer<DaemonSetObj>;
  private readonly podInformer: Informer<PodObj>;
  private readonly nodeInformer: Informer<NodeObj>;
  private readonly revInformer: Informer<RevisionObj>;
  readonly expectations: Expectations;

  constructor(opts: DaemonSetControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.expectations = new Expectations(opts.clock);
    this.dsInformer = opts.informers.for<DaemonSetObj>(R.daemonsets);
    this.podInformer = opts.informers.for<PodObj>(R.pods);
    this.nodeInformer = opts.informers.for<NodeObj>(R.nodes);
    this.revInformer = opts.informers.for<RevisionObj>(R.controllerrevisions);
    this.podInformer.addIndexer(OWNER_INDEX, ownerIndex);
    this.revInformer.addIndexer(OWNER_INDEX, ownerIndex);
    this.dsInformer.addHandler({
      add: (ds) => this.queue.add(objectKey(ds)),
      update: (_o, ds) => this.queue.add(objectKey(ds)),
      delete: (ds) => {
        this.expectations.delete(objectKey(ds));
        this.queue.add(objectKey(ds));
      },
    });
    this.podInformer.addHandler({
      add: (p) => this.podAdded(p),
      update: (o, p) => this.podUpdated(o, p),
      delete: (p) => this.podDeleted(p),
    });
    this.nodeInformer.addHandler({
      add: (n) => this.nodeChanged(undefined, n),
      update: (o, n) => this.nodeChanged(o, n),
    });
    this.revInformer.addHandler({
      add: (r) => this.enqueueOwner(r),
      update: (_o, r) => this.enqueueOwner(r),
      delete: (r) => this.enqueueOwner(r),
    });
  }

  protected informersToSync() {
    return [this.dsInformer, this.podInformer, this.nodeInformer, this.revInformer];
  }

  // ---- event handlers: they only find DaemonSet keys and enqueue them ----

  private ownerKey(obj: { metadata: PodObj['metadata'] }): string | undefined {
    const ref = getControllerOf(obj as PodObj);
    if (!ref || ref.kind !== 'DaemonSet') return undefined;
    const key = `${obj.metadata.namespace}/${ref.name}`;
    const ds = this.dsInformer.get(key);
    return ds && ds.metadata.uid === ref.uid ? key : undefined;
  }

  private enqueueOwner(obj: RevisionObj): void {
    const key = this.ownerKey(obj);
    if (key) this.queue.add(key);
  }

  private orphanKeys(pod: PodObj): string[] {
    return this.dsInformer.list(pod.metadata.namespace ?? '')
      .filter((ds) => selectorMatches(ds.spec?.selector, pod.metadata.labels)).map(objectKey);
  }

  private podAdded(pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    const key = this.ownerKey(pod);
    if (key) {
      this.expectations.creationObserved(key);
      this.queue.add(key);
    } else if (!getControllerOf(pod)) {
      for (const k of this.orphanKeys(pod)) this.queue.add(k);
    }
  }

  private podUpdated(old: PodObj, pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    const key = this.ownerKey(pod);
    if (key) {
      this.queue.add(key);
      const minReady = this.dsInformer.get(key)?.spec?.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(key, minReady * 1000 + 1);
    } else if (!getControllerOf(pod)) {
      for (const k of this.orphanKeys(pod)) this.queue.add(k);
    }
  }

  private podDeleted(pod: PodObj): void {
    const key = this.ownerKey(pod);
    if (!key) return;
    this.expectations.deletionObserved(key, objectKey(pod));
    this.queue.add(key);
  }

  /** A node added, or changed in what decides placement: only the DaemonSets whose verdict changes are queued. */
  private nodeChanged(old: NodeObj | undefined, node: NodeObj): void {
    if (old && canonicalJson([old.metadata.labels, old.spec?.taints, old.spec?.unschedulable]) === canonicalJson([node.metadata.labels, node.spec?.taints, node.spec?.unschedulable])) return;
    for (const ds of this.dsInformer.list()) {
      const now = nodeShouldRunDaemonPod(node, ds);
      const before = old ? nodeShouldRunDaemonPod(old, ds) : undefined;
      if (!before || before.shouldRun !== now.shouldRun || before.shouldContinueRunning !== now.shouldContinueRunning) this.queue.add(objectKey(ds));
    }
  }

  // ---- reconcile ----

  async reconcile(key: string): Promise<void> {
    const cached = this.dsInformer.get(key);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const ds = clone(cached);
    if (ds.metadata.deletionTimestamp) return;
    const nodes = this.nodeInformer.list();
    const { current, old } = await this.constructHistory(ds);
    const hash = current.metadata.labels?.[REVISION_HASH_LABEL] ?? '';

    if (this.expectations.satisfied(key)) {
      let byNode = await this.nodeToDaemonPods(ds);
      await this.manage(ds, key, nodes, byNode, hash);
      if (this.expectations.satisfied(key) && ds.spec?.updateStrategy?.type === 'RollingUpdate') {
        byNode = await this.nodeToDaemonPods(ds);
        await this.rollingUpdate(ds, key, nodes, byNode, hash);
      }
      await this.cleanupHistory(ds, old);
    }
    await this.updateStatus(ds, nodes, await this.nodeToDaemonPods(ds), hash);
  }

  /** The DaemonSet's pods (claiming matching orphans), grouped by the node they run on or are meant for. */
  private async nodeToDaemonPods(ds: DaemonSetObj): Promise<Map<string, PodObj[]>> {
    const owned = this.podInformer.byIndex(OWNER_INDEX, ds.metadata.uid!)
      .filter((p) => p.metadata.namespace === ds.metadata.namespace && selectorMatches(ds.spec?.selector, p.metadata.labels));
    const orphans = this.podInformer.list(ds.metadata.namespace)
      .filter((p) => !getControllerOf(p) && !p.metadata.deletionTimestamp && selectorMatches(ds.spec?.selector, p.metadata.labels));
    for (const pod of orphans) {
      try {
        await this.client.patch(R.pods, pod.metadata.namespace, pod.metadata.name!, 'json', adoptPatch(pod, newControllerRef(ds, 'apps/v1', 'DaemonSet')));
        owned.push(pod);
      } catch (err) {
        if (!isNotFound(err) && (err as { code?: number }).code !== 422) throw err;
      }
    }
    const byNode = new Map<string, PodObj[]>();
    for (const pod of owned) {
      // Terminal pods that are being deleted no longer count (getNodesToDaemonPods with includeDeletedTerminal false).
      const phase = pod.status?.phase;
      if (pod.metadata.deletionTimestamp && (phase === 'Succeeded' || phase === 'Failed')) continue;
      const node = targetNodeName(pod);
      if (!node) continue;
      const list = byNode.get(node);
      if (list) list.push(pod);
      else byNode.set(node, [pod]);
    }
    return byNode;
  }

  /** manage + podsShouldBeOnNode: create where a pod is missing, delete where one must not be or is surplus. */
  private async manage(ds: DaemonSetObj, key: string, nodes: NodeObj[], byNode: Map<string, PodObj[]>, hash: string): Promise<void> {
    const create: string[] = [];
    const remove: PodObj[] = [];
    const surge = allowsSurge(ds);
    const seen = new Set<string>();
    for (const node of nodes) {
      const name = node.metadata.name!;
      seen.add(name);
      const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
      const pods = byNode.get(name) ?? [];
      if (shouldRun && pods.length === 0) {
        create.push(name);
        continue;
      }
      if (!shouldContinueRunning) {
        remove.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
        continue;
      }
      const running: PodObj[] = [];
      for (const pod of pods) {
        if (pod.metadata.deletionTimestamp) continue;
        if (pod.status?.phase === 'Failed') {
          this.recorder.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${name}, will try to kill it`);
          remove.push(pod);
          continue;
        }
        running.push(pod);
      }
      running.sort(byCreationAndPhase);
      if (!surge) {
        remove.push(...running.slice(1));
        continue;
      }
      // With surge two pods may share a node while the new one is not yet available; the rest go.
      let newest: PodObj | undefined, oldest: PodObj | undefined;
      for (const pod of running) {
        if (pod.metadata.labels?.[REVISION_HASH_LABEL] === hash) {
          if (!newest) { newest = pod; continue; }
        } else if (!oldest) { oldest = pod; continue; }
        remove.push(pod);
      }
      if (newest && oldest && (!isPodReady(oldest) || isPodAvailable(newest, ds.spec?.minReadySeconds ?? 0, this.clock.now()))) remove.push(oldest);
    }
    // Pods pinned to nodes that no longer exist.
    for (const [name, pods] of byNode) if (!seen.has(name)) remove.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
    await this.syncNodes(ds, key, remove, create, hash);
  }

  /** update.go rollingUpdate: replace old pods within maxUnavailable (delete first) or maxSurge (create first). */
  private async rollingUpdate(ds: DaemonSetObj, key: string, nodes: NodeObj[], byNode: Map<string, PodObj[]>, hash: string): Promise<void> {
    const desired = nodes.filter((n) => nodeShouldRunDaemonPod(n, ds).shouldRun).length;
    const ru = ds.spec?.updateStrategy?.rollingUpdate;
    let maxSurge = scaledValue(ru?.maxSurge, desired), maxUnavailable = scaledValue(ru?.maxUnavailable, desired);
    if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    const minReady = ds.spec?.minReadySeconds ?? 0, now = this.clock.now();
    const gen = templateGeneration(ds);
    const nodeNames = [...byNode.keys()].sort();

    if (maxSurge === 0) {
      let unavailable = 0;
      const allowed: PodObj[] = [], candidates: PodObj[] = [];
      for (const name of nodeNames) {
        const found = findUpdatedPodsOnNode(byNode.get(name)!, hash, gen);
        if (!found) { unavailable++; continue; }
        const { newPod, oldPod } = found;
        if ((!oldPod && !newPod) || (oldPod && newPod)) unavailable++;
        else if (newPod) { if (!isPodAvailable(newPod, minReady, now)) unavailable++; }
        else if (!isPodAvailable(oldPod!, minReady, now)) allowed.push(oldPod!);
        else candidates.push(oldPod!);
      }
      const remaining = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
      await this.syncNodes(ds, key, [...allowed, ...candidates.slice(0, remaining)], [], hash);
      return;
    }

    let surged = 0;
    const allowedNodes: string[] = [], candidateNodes: string[] = [], oldToDelete: PodObj[] = [];
    for (const name of nodeNames) {
      const found = findUpdatedPodsOnNode(byNode.get(name)!, hash, gen);
      if (!found) continue;
      const { newPod, oldPod } = found;
      if (!oldPod) continue;
      if (!newPod) {
        const node = nodes.find((n) => n.metadata.name === name);
        if (!node || !nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
        if (!isPodAvailable(oldPod, minReady, now)) allowedNodes.push(name);
        else if (surged < maxSurge) candidateNodes.push(name);
        continue;
      }
      if (!isPodAvailable(newPod, minReady, now)) { surged++; continue; }
      oldToDelete.push(oldPod);
    }
    const remaining = Math.min(Math.max(maxSurge - surged, 0), candidateNodes.length);
    await this.syncNodes(ds, key, oldToDelete, [...allowedNodes, ...candidateNodes.slice(0, remaining)], hash);
  }

  /** syncNodes: deletions, then creations in doubling batches, all under expectations. */
  private async syncNodes(ds: DaemonSetObj, key: string, remove: PodObj[], create: string[], hash: string): Promise<void> {
    create = create.slice(0, BURST_REPLICAS);
    remove = remove.slice(0, BURST_REPLICAS);
    if (!create.length && !remove.length) return;
    // Deletions first, then the creations they make way for (syncNodes).
    const ns = ds.metadata.namespace!;
    const ref = newControllerRef(ds, 'apps/v1', 'DaemonSet');
    const template = createPodTemplate(ds, hash);
    const pc: PodControl = { client: this.client, recorder: this.recorder, expectations: this.expectations };
    await deletePods(pc, ds, key, remove);
    await createPodsInBatches(pc, ds, key, ns, create, (nodeName) => {
      const pod = podFromTemplate(template, ns, ds.metadata.name!, ref);
      pod.spec!.affinity = pinToNode(template.spec?.affinity, nodeName);
      return pod;
    });
  }

  // ---- history ----

  /** constructHistory: the revision of the current template (created or renumbered) and the older ones. */
  private async constructHistory(ds: DaemonSetObj): Promise<{ current: RevisionObj; old: RevisionObj[] }> {
    const all = this.revInformer.byIndex(OWNER_INDEX, ds.metadata.uid!).filter((r) => r.metadata.namespace === ds.metadata.namespace);
    const hash = templateHash(ds);
    const matching = all.filter((r) => r.metadata.labels?.[REVISION_HASH_LABEL] === hash || revisionMatches(ds, r));
    const old = all.filter((r) => !matching.includes(r));
    const next = maxRevision(old) + 1;
    let current = matching.sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0];
    if (!current) {
      current = await this.snapshot(ds, next, hash);
    } else if ((current.revision ?? 0) < next) {
      const upd = { ...clone(current), revision: next };
      current = await this.client.update<RevisionObj>(R.controllerrevisions, ds.metadata.namespace, upd);
    }
    return { current, old };
  }

  /** snapshot: creates the revision, or bumps collisionCount when its name is taken by other data. */
  private async snapshot(ds: DaemonSetObj, revision: number, hash: string): Promise<RevisionObj> {
    const rev = newRevision(ds, hash, revision);
    try {
      return await this.client.create<RevisionObj>(R.controllerrevisions, ds.metadata.namespace, rev);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await this.client.get<RevisionObj>(R.controllerrevisions, ds.metadata.namespace, rev.metadata.name!);
      if (revisionMatches(ds, existing) && getControllerOf(existing)?.uid === ds.metadata.uid) return existing;
      const next = { ...clone(ds), status: { ...(ds.status ?? {}), collisionCount: (ds.status?.collisionCount ?? 0) + 1 } };
      await this.client.update(R.daemonsets, ds.metadata.namespace, next, { subresource: 'status' });
      throw new Error(`found a hash collision for DaemonSet "${ds.metadata.name}" - bumping collisionCount to resolve it`);
    }
  }

  /** cleanupHistory: keep revisionHistoryLimit old revisions besides those a live pod still runs. */
  private async cleanupHistory(ds: DaemonSetObj, old: RevisionObj[]): Promise<void> {
    const limit = ds.spec?.revisionHistoryLimit ?? 10;
    if (old.length <= limit) return;
    const live = new Set<string>();
    for (const p of this.podInformer.byIndex(OWNER_INDEX, ds.metadata.uid!)) {
      const h = p.metadata.labels?.[REVISION_HASH_LABEL];
      if (h) live.add(h);
    }
    const removable = old.filter((r) => !live.has(r.metadata.labels?.[REVISION_HASH_LABEL] ?? ''))
      .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    for (const r of removable.slice(0, old.length - limit)) {
      try {
        await this.client.delete(R.controllerrevisions, r.metadata.namespace, r.metadata.name!);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  // ---- status ----

  private async updateStatus(ds: DaemonSetObj, nodes: NodeObj[], byNode: Map<string, PodObj[]>, hash: string): Promise<void> {
    let desired = 0, current = 0, misscheduled = 0, ready = 0, available = 0, updated = 0;
    const minReady = ds.spec?.minReadySeconds ?? 0, now = this.clock.now();
    const gen = templateGeneration(ds);
    for (const node of nodes) {
      const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
      const pods = byNode.get(node.metadata.name!) ?? [];
      if (!shouldRun) {
        if (pods.length) misscheduled++;
        continue;
      }
      desired++;
      if (!pods.length) continue;
      current++;
      const pod = [...pods].sort(byCreationAndPhase)[0];
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, now)) available++;
      }
      if (isPodUpdated(pod, hash, gen)) updated++;
    }
    const status: NonNullable<DaemonSet['status']> = {
      currentNumberScheduled: current, numberMisscheduled: misscheduled, desiredNumberScheduled: desired,
      numberReady: ready, observedGeneration: ds.metadata.generation, updatedNumberScheduled: updated,
      numberAvailable: available, numberUnavailable: desired - available,
      ...(ds.status?.collisionCount !== undefined ? { collisionCount: ds.status.collisionCount } : {}),
      ...(ds.status?.conditions ? { conditions: ds.status.conditions } : {}),
    };
    const keep = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'];
    if (!sameStatus(withKeep(ds.status, keep), withKeep(status, keep))) {
      await this.client.update(R.daemonsets, ds.metadata.namespace, { ...clone(ds), status }, { subresource: 'status' });
    }
    if (minReady > 0 && ready !== available) this.queue.addAfter(objectKey(ds), minReady * 1000);
  }
}

/** DaemonSetStatus's four required counts are present even at zero. */
function withKeep(s: object | undefined, keep: string[]): object {
  const out = { ...(s ?? {}) } as Record<string, unknown>;
  for (const k of keep) out[k] = out[k] ?? 0;
  return out;
}

/** util.AllowsSurge: RollingUpdate with a non-zero maxSurge. */
function allowsSurge(ds: DaemonSet): boolean {
  const ru = ds.spec?.updateStrategy;
  return ru?.type === 'RollingUpdate' && scaledValue(ru.rollingUpdate?.maxSurge, 1) !== 0;
}

/** findUpdatedPodsOnNode: at most one new and one old pod on a node, or undefined when there are more. */
function findUpdatedPodsOnNode(pods: PodObj[], hash: string, gen: string | undefined): { newPod?: PodObj; oldPod?: PodObj } | undefined {
  let newPod: PodObj | undefined, oldPod: PodObj | undefined;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, gen)) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { newPod, oldPod };
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

