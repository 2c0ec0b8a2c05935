// kube-controller-manager's node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
// every --node-monitor-period it turns nodes whose kubelet stopped renewing its Lease and posting status NotReady
// (conditions Unknown), marks their pods not Ready and taints them unreachable/not-ready, NoExecute at a per-zone rate
// and NoSchedule from their conditions; the taint eviction controller then evicts what does not tolerate the taint.

import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { NodeCondition } from 'kubernetes-types/core/v1.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { Timer } from '../../util/clock.js';
import { QueueController, type RecordingControllerOptions } from '../util/base.js';
import type { EventRecorder } from '../util/events.js';
import type { NodeObj, PodObj, Typed } from '../util/types.js';
import { DEFAULT_CONFIG, NODE_EVICTION_PERIOD_MS, NODE_HEALTH_UPDATE_RETRY, type NodeLifecycleConfig } from './config.js';
import { judgeNodeHealth, readyCondition, type NodeHealth } from './health.js';
import { markPodsNotReady, NODE_NAME_INDEX, podsByNode } from './pods.js';
import { NoExecuteTainter } from './no-execute.js';
import { managedNoScheduleTaints, swapNodeTaints, taintsMinus, wantedNoScheduleTaints } from './taints.js';
import { zoneKey } from './zones.js';

export const NAME = 'node-lifecycle-controller';
/** The event source kube-controller-manager gives it. */
export const COMPONENT = 'node-controller';
/** Nodes with this label do not count towards their zone's health. */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

export interface NodeLifecycleOptions extends RecordingControllerOptions {
  config?: Partial<NodeLifecycleConfig>;
}

type LeaseObj = Typed<Lease>;
/** v1.NamespaceNodeLease: where kubelets keep their heartbeat Leases. */
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

const MONITOR = 'monitor';
const TAINT_PASS = 'taint';

/** Beta labels kept equal to the stable ones (labelReconcileInfo). */
const LABEL_PAIRS: [stable: string, beta: string][] = [['kubernetes.io/os', 'beta.kubernetes.io/os'], ['kubernetes.io/arch', 'beta.kubernetes.io/arch']];

const nodeRef = (n: NodeObj) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: n.metadata.name, uid: n.metadata.uid } });

export class NodeLifecycleController extends QueueController {
  readonly name = NAME;
  readonly config: NodeLifecycleConfig;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly nodes: Informer<NodeObj>;
  private readonly pods: Informer<PodObj>;
  private readonly leases: Informer<LeaseObj>;
  /** Last observed health per node, on this controller's clock. */
  readonly health = new Map<string, NodeHealth>();
  private readonly known = new Map<string, NodeObj>();
  readonly noExecute: NoExecuteTainter;
  /** Nodes whose pods could not all be marked not Ready; the next pass tries again. */
  private readonly nodesToRetry = new Set<string>();
  private monitorTimer?: Timer;
  private taintTimer?: Timer;

  constructor(opts: NodeLifecycleOptions) {
    super(opts.clock, opts.logger.child(NAME), 1);
    this.client = opts.client;
    this.recorder = opts.recorder;
    this.config = { ...DEFAULT_CONFIG, ...opts.config };
    this.noExecute = new NoExecuteTainter({ client: this.client, clock: this.clock, logger: this.logger, config: this.config, getNode: (n) => this.nodes.get(n) });
    this.nodes = opts.informers.for<NodeObj>(R.nodes);
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.leases = opts.informers.for<LeaseObj>(R.leases);
    this.pods.addIndexer(NODE_NAME_INDEX, podsByNode);
    this.nodes.addHandler({
      add: (n) => this.queue.add(`node/${n.metadata.name}`),
      update: (_o, n) => this.queue.add(`node/${n.metadata.name}`),
      delete: (n) => this.nodesToRetry.delete(n.metadata.name!),
    });
    // A pod newly bound to a node that is not Ready is marked not Ready at once, not at the next pass.
    const podUpdated = (old: PodObj | undefined, p: PodObj) => {
      if (p.spec?.nodeName && (!old || old.spec?.nodeName !== p.spec.nodeName)) this.queue.add(`pod/${p.metadata.namespace}/${p.metadata.name}`);
    };
    this.pods.addHandler({ add: (p) => podUpdated(undefined, p), update: podUpdated });
  }

  protected informersToSync() {
    return [this.nodes, this.pods, this.leases];
  }

  override async start(): Promise<void> {
    await super.start();
    const tick = () => {
      this.queue.add(MONITOR);
      this.monitorTimer = this.clock.setTimeout(tick, this.config.monitorPeriodMs);
    };
    tick();
  }

  override stop(): void {
    this.monitorTimer?.cancel();
    this.taintTimer?.cancel();
    super.stop();
  }

  async reconcile(key: string): Promise<void> {
    if (key === MONITOR) {
      try {
        await this.monitorNodeHealth();
      } catch (err) {
        // The next period tries again; a retry with backoff would only pile up behind it.
        this.logger.error('error monitoring node health', { err: String(err) });
      }
      return;
    }
    if (key === TAINT_PASS) return this.doNoExecuteTaintingPass();
    const [kind, a, b] = key.split('/');
    if (kind === 'node') return this.reconcileNode(a);
    if (kind === 'pod') return this.processPod(a, b);
  }

  // ---- per node: NoSchedule taints from conditions, beta labels ----

  private async reconcileNode(name: string): Promise<void> {
    const node = this.nodes.get(name);
    if (!node) return;
    const have = managedNoScheduleTaints(node);
    const want = wantedNoScheduleTaints(node);
    const add = taintsMinus(want, have);
    const del = taintsMinus(have, want);
    if (add.length || del.length) await swapNodeTaints(this.client, node, add, del, this.clock.now());
    const labels = node.metadata.labels;
    if (!labels) return;
    const update: Record<string, string> = {};
    for (const [stable, beta] of LABEL_PAIRS) if (labels[stable] !== undefined && labels[beta] !== labels[stable]) update[beta] = labels[stable];
    if (Object.keys(update).length) await this.client.patch(R.nodes, undefined, name, 'merge', { metadata: { labels: update } });
  }

  // ---- the periodic health pass ----

  /** One pass over every node: judge health, write Unknown conditions, queue taints, mark pods, zone states. */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.nodes.list();
    const seen = new Set(nodes.map((n) => n.metadata.name!));
    for (const n of nodes) {
      const name = n.metadata.name!;
      if (this.known.has(name)) {
        this.noExecute.addZone(n);
        continue;
      }
      this.recorder.event(nodeRef(n), 'Normal', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      this.known.set(name, n);
      this.noExecute.addZone(n);
      await this.noExecute.markNodeAsReachable(n);
    }
    for (const [name, n] of [...this.known]) {
      if (seen.has(name)) continue;
      this.recorder.event(nodeRef(n), 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
      this.known.delete(name);
      this.health.delete(name);
    }

    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    for (const cached of nodes) await this.updateNode(cached, zoneConditions);
    await this.noExecute.handleDisruption(zoneConditions, nodes, this.health);
    await this.doNoExecuteTaintingPass();
  }

  private async updateNode(cached: NodeObj, zoneConditions: Map<string, (NodeCondition | undefined)[]>): Promise<void> {
    const name = cached.metadata.name!;
    const lease = this.leases.get(`${NODE_LEASE_NAMESPACE}/${name}`);
    let node = cached;
    let verdict;
    for (let attempt = 0; ; attempt++) {
      verdict = judgeNodeHealth(node, this.health.get(name), lease, this.clock.now(), this.config);
      this.health.set(name, verdict.health);
      if (!verdict.conditions) break;
      try {
        const next = { ...node, status: { ...node.status, conditions: verdict.conditions } };
        node = await this.client.update<NodeObj>(R.nodes, undefined, next, { subresource: 'status' });
        this.health.set(name, { status: node.status, probeTimestamp: verdict.health.probeTimestamp, readyTransitionTimestamp: this.clock.now(), lease });
        break;
      } catch (err) {
        if (attempt + 1 >= NODE_HEALTH_UPDATE_RETRY) {
          this.logger.warn('updating node health failed; no pods will be evicted', { node: name, err: String(err) });
          return;
        }
        try {
          node = await this.client.get<NodeObj>(R.nodes, undefined, name);
        } catch {
          this.logger.warn('node gone while retrying its health update', { node: name });
          return;
        }
      }
    }
    const { observedReady, currentReady } = verdict;
    if (node.metadata.labels?.[EXCLUDE_DISRUPTION_LABEL] === undefined) {
      const zone = zoneKey(node);
      const list = zoneConditions.get(zone);
      if (list) list.push(currentReady); else zoneConditions.set(zone, [currentReady]);
    }
    if (!currentReady) return;
    await this.noExecute.processTaintBasedEviction(node, observedReady);
    const becameNotReady = currentReady.status !== 'True' && observedReady.status === 'True';
    if (becameNotReady) this.recorder.event(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    if (becameNotReady || (this.nodesToRetry.has(name) && observedReady.status !== 'True')) {
      try {
        await markPodsNotReady(this.client, this.recorder, this.pods.byIndex(NODE_NAME_INDEX, name), name, this.clock.now());
      } catch (err) {
        this.logger.warn('marking pods not ready failed; will retry', { node: name, err: String(err) });
        this.nodesToRetry.add(name);
        return;
      }
    }
    this.nodesToRetry.delete(name);
  }

  /** The rate-limited NoExecute pass, again every NodeEvictionPeriod while some node waits for a token. */
  private async doNoExecuteTaintingPass(): Promise<void> {
    await this.noExecute.pass();
    if (!this.taintTimer && this.noExecute.waiting) {
      this.taintTimer = this.clock.setTimeout(() => {
        this.taintTimer = undefined;
        this.queue.add(TAINT_PASS);
      }, NODE_EVICTION_PERIOD_MS);
    }
  }

  // ---- pods bound to a node that is not Ready ----

  private async processPod(namespace: string, name: string): Promise<void> {
    const pod = this.pods.get(`${namespace}/${name}`);
    const nodeName = pod?.spec?.nodeName;
    if (!pod || !nodeName) return;
    const health = this.health.get(nodeName);
    if (!health) return; // not judged yet: the next pass handles it
    if (!this.nodes.get(nodeName)) throw new Error(`node ${nodeName} of pod ${namespace}/${name} not in the cache yet`);
    const ready = readyCondition(health.status);
    if (!ready || ready.status === 'True') return;
    await markPodsNotReady(this.client, this.recorder, [pod], nodeName, this.clock.now());
  }
}
