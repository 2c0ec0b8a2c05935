// Scheduler: wires informers, cache, queue and one profile's framework, and runs the loop that takes a pod,
// decides synchronously, assumes it, and binds in the background (pkg/scheduler/scheduler.go, schedule_one.go).

import { createEventRecorder, type EventRecorder } from '../client/event-recorder.js';
import type { InformerFactory } from '../client/informer.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { isNotFound } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { Informer } from '../client/informer.js';
import type { ResourceType } from '../client/interfaces.js';
import { Cache } from './cache/cache.js';
import { resolveConfig, type ResolvedConfig, type SchedulerConfig } from './config.js';
import { addNodeHandlers, addPodHandlers } from './event-handlers.js';
import { FailureReporter } from './failure.js';
import { CycleState } from './framework/cycle-state.js';
import { FitError } from './framework/fit-error.js';
import type { Registry } from './framework/registry.js';
import { Framework } from './framework/runtime.js';
import type { QueuedPod } from './interfaces.js';
import { informerListers } from './plugins/pod-topology-spread/listers.js';
import { inTreeRegistry } from './plugins/registry.js';
import { addVolumeHandlers, volumeListers } from './plugins/volumebinding/listers.js';
import { Nominator } from './queue/nominator.js';
import { SchedulingQueue } from './queue/scheduling-queue.js';
import { schedulePod, type PodScheduler } from './schedule-pod.js';
import type { Node, Pod } from './types.js';
import { parseKubeVersion } from './util/version.js';

export interface SchedulerDeps {
  client: Client;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  /** Tie-breaking among equal best nodes; Math.random by default. */
  rng?: () => number;
  /** Out-of-tree plugins are merged into the in-tree registry. */
  registry?: Registry;
}

/** policy/v1 PodDisruptionBudget; src/client/resources.ts has no entry for it yet. */
export const PDB_RESOURCE: ResourceType = R.poddisruptionbudgets;

// Yield to I/O (watch events, bind responses, other clients' requests) after this much scheduling when the active
// queue is long: a count of cycles would block for as long as 64 cycles take, which grows with the fleet.
const SLICE_MS = 10;

export class Scheduler {
  readonly config: ResolvedConfig;
  readonly cache = new Cache();
  readonly nominator = new Nominator();
  readonly queue: SchedulingQueue;
  readonly framework: Framework;
  private readonly deps: SchedulerDeps;
  private readonly recorder: EventRecorder;
  private readonly failures: FailureReporter;
  private readonly ps: PodScheduler;
  private readonly bindings = new Set<Promise<void>>();
  private running = false;
  /** Set when the API serves policy/v1 PodDisruptionBudgets (winkube's own API server may not). */
  private pdbInformer?: Informer<PodDisruptionBudget & KubeObject>;
  private loop?: Promise<void>;

  constructor(cfg: SchedulerConfig & SchedulerDeps) {
    this.deps = cfg;
    this.config = resolveConfig(cfg);
    const logger = cfg.logger;
    this.recorder = createEventRecorder({ client: cfg.client, clock: cfg.clock, logger, component: this.config.schedulerName });
    const registry = inTreeRegistry();
    if (cfg.registry) registry.merge(cfg.registry);
    this.framework = new Framework({
      registry, plugins: this.config.plugins, pluginConfig: this.config.pluginConfig,
      handle: {
        client: cfg.client, clock: cfg.clock, logger, recorder: this.recorder,
        kubernetesVersion: parseKubeVersion(this.config.kubernetesVersion), nodeInfos: this.cache,
        nominator: this.nominator, podDisruptionBudgets: () => this.pdbInformer?.list() ?? [],
        // Registered now so informers.start() starts them with the rest.
        listers: { ...informerListers(cfg.informers), ...volumeListers(cfg.informers) },
      },
    });
    const sort = this.framework.queueSort;
    if (!sort) throw new Error('the profile enables no QueueSort plugin');
    this.queue = new SchedulingQueue({
      clock: cfg.clock, less: (a, b) => sort.less(a, b),
      initialBackoffMs: this.config.podInitialBackoffSeconds * 1000,
      maxBackoffMs: this.config.podMaxBackoffSeconds * 1000,
      maxInUnschedulableMs: this.config.podMaxInUnschedulablePodsDurationSeconds * 1000,
    });
    this.failures = new FailureReporter({ client: cfg.client, clock: cfg.clock, logger, recorder: this.recorder });
    this.ps = {
      framework: this.framework, cache: this.cache, percentageOfNodesToScore: this.config.percentageOfNodesToScore,
      rng: cfg.rng ?? Math.random, nextStartNodeIndex: 0,
    };
  }

  /** Registers handlers, starts the informers, waits for their first list, then runs the loop in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const { informers } = this.deps;
    const deps = { cache: this.cache, queue: this.queue, schedulerName: this.config.schedulerName, nominator: this.nominator };
    // Nodes first, so the cache knows the fleet before the first pending pod is considered.
    addNodeHandlers(informers.for<Node>(R.nodes), deps);
    addPodHandlers(informers.for<Pod>(R.pods), deps);
    addVolumeHandlers(informers, this.queue);
    if (await this.servesPdbs()) this.pdbInformer = informers.for(PDB_RESOURCE);
    informers.start();
    await informers.waitForSync();
    this.queue.run();
    this.loop = this.run();
  }

  /** One probe at start: a 404 means no PDB API, and preemption then ignores budgets (logged once). */
  private async servesPdbs(): Promise<boolean> {
    try {
      await this.deps.client.list(PDB_RESOURCE, undefined, { limit: 1 });
      return true;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.deps.logger.info('policy/v1 PodDisruptionBudget is not served; preemption will not consider disruption budgets');
      return false;
    }
  }

  stop(): void {
    this.running = false;
    this.queue.close();
  }

  /** Resolves when in-flight bindings and their events/status writes are done (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.bindings.size) await Promise.all([...this.bindings]);
    await this.recorder.flush();
  }

  private async run(): Promise<void> {
    let slice = performance.now();
    while (this.running) {
      // Ready pods are taken without a promise each, so a run of cycles stays together and the bindings they
      // started (queued behind them) follow as a batch: both halves keep their data hot.
      const qp = this.queue.popNow() ?? (await this.queue.pop());
      if (!qp) return;
      this.scheduleOne(qp);
      if (performance.now() - slice >= SLICE_MS) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
    }
  }

  /** One attempt for one pod; public so tests and benchmarks can drive the cycle directly. */
  scheduleOne(qp: QueuedPod): void {
    const pod = qp.pod;
    if (pod.metadata.deletionTimestamp || this.cache.isAssumed(qp.key)) {
      this.queue.done(qp.key);
      return;
    }
    const cycle = this.queue.schedulingCycle;
    const state = new CycleState();
    let host: string;
    try {
      host = schedulePod(this.ps, pod, state).suggestedHost;
    } catch (err) {
      this.handleFailure(qp, state, err, cycle);
      return;
    }
    const assumed: Pod = { ...pod, spec: { ...pod.spec!, nodeName: host } };
    this.cache.assumePod(assumed, host);
    this.nominator.remove(qp.key);
    const rs = this.framework.runReservePlugins(state, assumed, host);
    if (!rs.isSuccess()) {
      this.framework.runUnreservePlugins(state, assumed, host);
      this.cache.forgetPod(assumed);
      this.handleFailure(qp, state, new Error(rs.message()), cycle, rs.isRejected());
      return;
    }
    const p = this.bind(qp, state, assumed, host, cycle);
    this.bindings.add(p);
    void p.finally(() => this.bindings.delete(p));
  }

  private async bind(qp: QueuedPod, state: CycleState, assumed: Pod, host: string, cycle: number): Promise<void> {
    const pre = await this.framework.runPreBindPlugins(state, assumed, host);
    const st = pre.isSuccess() ? await this.framework.runBindPlugins(state, assumed, host) : pre;
    if (st.isSuccess()) {
      this.queue.done(qp.key);
      const { namespace, name } = assumed.metadata;
      this.recorder.event(assumed, 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${host}`, 'Binding');
      return;
    }
    // The assumed pod held resources others may now use (handleBindingCycleError).
    this.framework.runUnreservePlugins(state, assumed, host);
    this.cache.forgetPod(assumed);
    this.queue.moveAllToActiveOrBackoff('AssignedPodDelete');
    const message = pre.isSuccess() ? `running Bind plugin ${JSON.stringify(st.plugin)}: ${st.message()}` : st.message();
    this.handleFailure(qp, state, new Error(message), cycle, st.isRejected());
  }

  private handleFailure(qp: QueuedPod, state: CycleState, err: unknown, cycle: number, rejected = false): void {
    let nominated: string | undefined;
    const isFit = err instanceof FitError;
    if (isFit && this.framework.postFilter.length) {
      const r = this.framework.runPostFilterPlugins(state, qp.pod, err.diagnosis.nodeToStatus);
      err.diagnosis.postFilterMsg = r.status.message();
      nominated = r.nominatedNodeName;
    }
    const message = err instanceof Error ? err.message : String(err);
    if (!isFit) this.deps.logger.debug('scheduling attempt failed', { pod: qp.key, err: message });
    // The latest copy from the informer: skip pods deleted or bound meanwhile (handleSchedulingFailure).
    const current = this.deps.informers.for<Pod>(R.pods).get(qp.key);
    if (!current || current.spec?.nodeName) {
      this.queue.delete(qp.pod);
      return;
    }
    qp.pod = current;
    // Remembered now, not when the status patch comes back, so the next cycles already keep the room free.
    if (nominated !== undefined) this.nominator.add(current, nominated);
    this.queue.requeueFailed(qp, isFit || rejected, cycle);
    const p = this.failures.report(current, isFit ? 'Unschedulable' : 'SchedulerError', message, nominated);
    this.bindings.add(p);
    void p.finally(() => this.bindings.delete(p));
  }
}
