// kube-controller-manager's taint eviction controller (pkg/controller/tainteviction/taint_eviction.go; its own
// controller since SeparateTaintEvictionController, on by default from v1.29): a pod on a node with NoExecute taints it
// does not tolerate is deleted at once; one that tolerates them for tolerationSeconds is deleted when the shortest
// of those runs out, unless the taints go first. DefaultTolerationSeconds admission gives every pod 300 s for
// not-ready and unreachable.

import type { Taint, Toleration } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { toleratesTaint } from '../../scheduler/util/tolerations.js';
import { rfc3339, type Timer } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import type { NodeObj, PodObj } from '../util/types.js';
import { NODE_NAME_INDEX, podsByNode } from './pods.js';

export const NAME = 'taint-eviction-controller';
/** The event source: the controller's own name. */
export const COMPONENT = NAME;

interface Work { createdAt: number; fireAt: number; timer: Timer }

const noExecute = (taints: readonly Taint[] | undefined): Taint[] => (taints ?? []).filter((t) => t.effect === 'NoExecute');
const taintsKey = (taints: Taint[]) => JSON.stringify(taints.map((t) => [t.key, t.value ?? '', t.effect]));
const podRef = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name } });

/** Whether every taint is tolerated, and the toleration that matched each (v1helper.GetMatchingTolerations). */
export function matchingTolerations(taints: Taint[], tolerations: readonly Toleration[] | undefined): [boolean, Toleration[]] {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = (tolerations ?? []).find((x) => toleratesTaint(x, taint));
    if (!t) return [false, []];
    used.push(t);
  }
  return [true, used];
}

/** The shortest tolerationSeconds in ms; -1 when all tolerate forever, 0 when there are none. */
export function minTolerationMs(tolerations: Toleration[]): number {
  if (!tolerations.length) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export class TaintEvictionController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly nodes: Informer<NodeObj>;
  private readonly pods: Informer<PodObj>;
  /** NoExecute taints of each tainted node, as last handled. */
  private readonly taintedNodes = new Map<string, Taint[]>();
  /** Scheduled deletions by `namespace/name`. */
  readonly work = new Map<string, Work>();

  constructor(opts: RecordingControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), 1);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.pods.addIndexer(NODE_NAME_INDEX, podsByNode);
    const nodeKey = (n: NodeObj) => this.queue.add(`node/${n.metadata.name}`);
    this.nodes.addHandler({
      add: nodeKey,
      update: (o, n) => { if (taintsKey(noExecute(o.spec?.taints)) !== taintsKey(noExecute(n.spec?.taints))) nodeKey(n); },
      delete: nodeKey,
    });
    const podKey = (p: PodObj) => this.queue.add(`pod/${p.metadata.namespace}/${p.metadata.name}`);
    this.pods.addHandler({
      add: podKey,
      update: (o, p) => {
        if (o.spec?.nodeName !== p.spec?.nodeName || JSON.stringify(o.spec?.tolerations ?? []) !== JSON.stringify(p.spec?.tolerations ?? [])) podKey(p);
      },
      delete: podKey,
    });
  }

  protected informersToSync() {
    return [this.nodes, this.pods];
  }

  override stop(): void {
    for (const w of this.work.values()) w.timer.cancel();
    this.work.clear();
    super.stop();
  }

  async reconcile(key: string): Promise<void> {
    const [kind, a, b] = key.split('/');
    if (kind === 'node') this.handleNode(a);
    else if (kind === 'pod') this.handlePod(a, b);
    else if (kind === 'evict') await this.deletePod(a, b);
  }

  private handleNode(name: string): void {
    const node = this.nodes.get(name);
    const taints = node ? noExecute(node.spec?.taints) : [];
    if (taints.length) this.taintedNodes.set(name, taints);
    else this.taintedNodes.delete(name);
    if (!node) return;
    const pods = this.pods.byIndex(NODE_NAME_INDEX, name);
    const now = this.clock.now();
    for (const p of pods) {
      const key = `${p.metadata.namespace}/${p.metadata.name}`;
      if (!taints.length) this.cancel(key);
      else this.processPodOnNode(key, p.spec?.tolerations, taints, now);
    }
  }

  private handlePod(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const pod = this.pods.get(key);
    if (!pod) {
      this.cancel(key);
      return;
    }
    const taints = pod.spec?.nodeName ? this.taintedNodes.get(pod.spec.nodeName) : undefined;
    if (!taints) return; // an untainted node cancelled any deletion when its taints went
    this.processPodOnNode(key, pod.spec?.tolerations, taints, this.clock.now());
  }

  private processPodOnNode(key: string, tolerations: readonly Toleration[] | undefined, taints: Taint[], now: number): void {
    const [all, used] = matchingTolerations(taints, tolerations);
    if (!all) {
      this.cancel(key);
      this.schedule(key, now, now);
      return;
    }
    const min = minTolerationMs(used);
    if (min < 0) {
      this.cancel(key);
      return;
    }
    // An earlier deletion that fires no later than this one stands; its clock started when it was scheduled.
    const existing = this.work.get(key);
    let start = now;
    if (existing) {
      start = existing.createdAt;
      if (start + min < now + min) return;
      this.cancel(key);
    }
    this.schedule(key, start, start + min);
  }

  private schedule(key: string, createdAt: number, fireAt: number): void {
    const [namespace, name] = key.split('/');
    const fire = () => {
      this.work.delete(key);
      this.recorder.event(podRef(namespace, name), 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
      this.queue.add(`evict/${key}`);
    };
    if (fireAt <= this.clock.now()) return fire();
    this.work.set(key, { createdAt, fireAt, timer: this.clock.setTimeout(fire, fireAt - this.clock.now()) });
  }

  private cancel(key: string): void {
    const w = this.work.get(key);
    if (!w) return;
    w.timer.cancel();
    this.work.delete(key);
    const [namespace, name] = key.split('/');
    this.recorder.event(podRef(namespace, name), 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  /** A DisruptionTarget condition saying why, then an ordinary (graceful) delete. */
  private async deletePod(namespace: string, name: string): Promise<void> {
    this.logger.info('deleting pod', { pod: `${namespace}/${name}` });
    let pod: PodObj;
    try {
      pod = await this.client.get<PodObj>(R.pods, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const conditions = pod.status?.conditions ?? [];
    const old = conditions.find((c) => c.type === 'DisruptionTarget');
    const reason = 'DeletionByTaintManager';
    const message = 'Taint manager: deleting due to NoExecute taint';
    if (!old || old.status !== 'True' || old.reason !== reason || old.message !== message) {
      const cond = { type: 'DisruptionTarget', status: 'True', reason, message, lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : rfc3339(this.clock.now()) };
      try {
        await this.client.patch(R.pods, namespace, name, 'merge', {
          metadata: { uid: pod.metadata.uid },
          status: { conditions: [...conditions.filter((c) => c !== old), cond] },
        }, { subresource: 'status' });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    }
    try {
      await this.client.delete(R.pods, namespace, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
