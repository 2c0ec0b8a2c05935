// The pod garbage collector (pkg/controller/podgc/gc_controller.go): pods bound to a node that no longer exists are
// failed and deleted after a quarantine, so their deletion never waits on a kubelet that is not there; terminated
// pods beyond the threshold are deleted oldest first.

import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { rfc3339, type Timer } from '../../util/clock.js';
import { QueueController, type ControllerOptions } from '../util/base.js';

export const NAME = 'pod-garbage-collector-controller';
/** gcCheckPeriod and quarantineTime of kube-controller-manager. */
export const GC_PERIOD_MS = 20_000;
export const QUARANTINE_MS = 40_000;
/** --terminated-pod-gc-threshold default. */
export const TERMINATED_POD_THRESHOLD = 12_500;

type PodObj = Pod & KubeObject;
type NodeObj = Node & KubeObject;

export interface PodGCOptions extends ControllerOptions {
  terminatedPodThreshold?: number;
}

const TICK = 'gc';

export class PodGCController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly pods: Informer<PodObj>;
  private readonly nodes: Informer<NodeObj>;
  private readonly threshold: number;
  /** Node names first seen missing, and when: a node must stay missing for the quarantine before its pods go. */
  private readonly missingSince = new Map<string, number>();
  private timer?: Timer;

  constructor(opts: PodGCOptions) {
    super(opts.clock, opts.logger.child(NAME), 1);
    this.client = opts.client;
    this.threshold = opts.terminatedPodThreshold ?? TERMINATED_POD_THRESHOLD;
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
  }

  protected informersToSync() {
    return [this.pods, this.nodes];
  }

  override async start(): Promise<void> {
    await super.start();
    const tick = () => {
      this.queue.add(TICK);
      this.timer = this.clock.setTimeout(tick, GC_PERIOD_MS);
    };
    this.timer = this.clock.setTimeout(tick, GC_PERIOD_MS);
  }

  override stop(): void {
    this.timer?.cancel();
    super.stop();
  }

  async reconcile(): Promise<void> {
    await this.gcOrphaned();
    await this.gcTerminated();
  }

  private async gcOrphaned(): Promise<void> {
    const now = this.clock.now();
    const missing = new Set<string>();
    for (const pod of this.pods.list()) {
      const node = pod.spec?.nodeName;
      if (node && !this.nodes.get(node)) missing.add(node);
    }
    for (const name of [...this.missingSince.keys()]) if (!missing.has(name)) this.missingSince.delete(name);
    for (const node of missing) {
      const since = this.missingSince.get(node);
      if (since === undefined) {
        this.missingSince.set(node, now);
        continue;
      }
      if (now - since < QUARANTINE_MS) continue;
      // Ask the API, not just the cache, before deleting (the informer may lag).
      try {
        await this.client.get(R.nodes, undefined, node);
        this.missingSince.delete(node);
        continue;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      for (const pod of this.pods.list().filter((p) => p.spec?.nodeName === node)) await this.failAndDelete(pod, 'PodGC: node no longer exists');
      this.missingSince.delete(node);
    }
  }

  private async gcTerminated(): Promise<void> {
    const done = this.pods.list().filter((p) => (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') && !p.metadata.deletionTimestamp);
    const excess = done.length - this.threshold;
    if (excess <= 0) return;
    done.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    for (const pod of done.slice(0, excess)) await this.delete(pod);
  }

  /** Marks the pod Failed with a DisruptionTarget condition (reason DeletionByPodGC), then deletes it at once. */
  private async failAndDelete(pod: PodObj, message: string): Promise<void> {
    const { namespace, name } = pod.metadata;
    if (pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') {
      const conditions = [...(pod.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
        { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message, lastTransitionTime: rfc3339(this.clock.now()) }];
      try {
        await this.client.patch(R.pods, namespace, name!, 'merge', { status: { phase: 'Failed', conditions } }, { subresource: 'status' });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    this.logger.info('deleting orphaned pod', { pod: `${namespace}/${name}`, node: pod.spec?.nodeName });
    await this.delete(pod);
  }

  private async delete(pod: PodObj): Promise<void> {
    try {
      await this.client.delete(R.pods, pod.metadata.namespace, pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
