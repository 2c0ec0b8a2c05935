// Framework: instantiates a profile's plugins from the registry and runs them at each extension point, stamping the
// plugin name on failures (framework/runtime/framework.go).

import {
  type BindPlugin, type FilterPlugin, type Handle, type Plugin, type PostFilterPlugin,
  type PostFilterResult, type PreBindPlugin, type PreFilterPlugin, type PreScorePlugin, type QueueSortPlugin, type ReservePlugin,
  type ScorePlugin,
} from '../interfaces.js';
import { podKey, podPriority, type Pod } from '../types.js';
import type { CycleState, FilterPlan } from './cycle-state.js';
import type { NodeInfo } from './node-info.js';
import type { Registry } from './registry.js';
import type { RowPlugin } from './node-rows.js';
import { runScores, type RowsAt } from './run-scores.js';
import { internMemoKey, MEMO_PER_NODE, nextFrameworkId, runFilters } from './run-filters.js';
import { StaticVerdictTables } from './static-verdicts.js';
import { Status } from './status.js';

/** One enabled plugin; weight only matters for Score (0 or unset means 1, as in kube's config defaults). */
export interface PluginEntry {
  name: string;
  weight?: number;
}

export interface FrameworkOptions {
  registry: Registry;
  plugins: readonly PluginEntry[];
  pluginConfig?: Readonly<Record<string, unknown>>;
  handle: Omit<Handle, 'runFilterPlugins' | 'runFilterPluginsWithNominatedPods'>;
}

const has = <K extends string>(p: Plugin, ...methods: K[]): boolean =>
  methods.every((m) => typeof (p as unknown as Record<string, unknown>)[m] === 'function');

export class Framework {
  readonly handle: Handle;
  /** Distinguishes this profile's memo keys from another framework's over the same NodeInfos. */
  private readonly id = nextFrameworkId();
  queueSort?: QueueSortPlugin;
  readonly preFilter: PreFilterPlugin[] = [];
  readonly filter: FilterPlugin[] = [];
  readonly postFilter: PostFilterPlugin[] = [];
  readonly preScore: PreScorePlugin[] = [];
  readonly score: { plugin: ScorePlugin; weight: number }[] = [];
  readonly reserve: ReservePlugin[] = [];
  readonly preBind: PreBindPlugin[] = [];
  readonly bind: BindPlugin[] = [];
  /** Per-position answers of the node-static filters, for the cycle's filter loop (schedule-pod.ts). */
  readonly staticVerdicts = new StaticVerdictTables();

  constructor(opts: FrameworkOptions) {
    this.handle = {
      ...opts.handle,
      runFilterPlugins: (s, p, n) => this.runFilterPlugins(s, p, n),
      runFilterPluginsWithNominatedPods: (s, p, n) => this.runFilterPluginsWithNominatedPods(s, p, n),
    };
    const seen = new Set<string>();
    for (const e of opts.plugins) {
      if (seen.has(e.name)) throw new Error(`plugin ${e.name} is enabled more than once`);
      seen.add(e.name);
      const factory = opts.registry.get(e.name);
      if (!factory) throw new Error(`plugin ${JSON.stringify(e.name)} does not exist`);
      const p = factory(opts.pluginConfig?.[e.name], this.handle);
      // MultiPoint: a plugin joins every extension point it implements (apis/config/v1/default_plugins.go).
      if (has(p, 'less')) this.queueSort = p as QueueSortPlugin;
      if (has(p, 'preFilter')) this.preFilter.push(p as PreFilterPlugin);
      if (has(p, 'filter')) this.filter.push(p as FilterPlugin);
      if (has(p, 'postFilter')) this.postFilter.push(p as PostFilterPlugin);
      if (has(p, 'preScore')) this.preScore.push(p as PreScorePlugin);
      if (has(p, 'score')) this.score.push({ plugin: p as ScorePlugin, weight: e.weight || 1 });
      if (has(p, 'reserve', 'unreserve')) this.reserve.push(p as ReservePlugin);
      if (has(p, 'preBind')) this.preBind.push(p as PreBindPlugin);
      if (has(p, 'bind')) this.bind.push(p as BindPlugin);
    }
  }

  /** The first rejection wins; Skip marks the plugin's Filter as not needed this cycle. */
  runPreFilterPlugins(state: CycleState, pod: Pod): Status {
    state.activeFilters = undefined;
    for (const pl of this.preFilter) {
      const s = guard(() => pl.preFilter(state, pod));
      if (s.isSkip()) {
        state.skipFilterPlugins.add(pl.name);
        continue;
      }
      if (!s.isSuccess()) return s.withPlugin(pl.name);
    }
    return Status.SUCCESS;
  }

  /** Runs filters in profile order and stops at the first that says no: each node has one failing plugin. */
  runFilterPlugins(state: CycleState, pod: Pod, node: NodeInfo): Status {
    // This runs once per node per attempt (thousands of times a cycle): no closures, no per-call allocation.
    const plan = this.filterPlan(state, pod);
    if (plan.memoized.length) {
      const s = this.runStaticFilters(plan, state, pod, node);
      if (s !== Status.SUCCESS) return s;
    }
    return runFilters(plan.rest, state, pod, node);
  }

  /** The cycle's split of the active filters (see FilterPlan), worked out once per attempt. */
  filterPlan(state: CycleState, pod: Pod): FilterPlan {
    const plan = state.activeFilters;
    return plan === undefined || plan.pod !== pod ? this.planFilters(state, pod) : plan;
  }

  /** The node-static prefix of the plan, answered from the node's memo when it has been asked before. */
  runStaticFilters(plan: FilterPlan, state: CycleState, pod: Pod, node: NodeInfo): Status {
    const memo = node.staticFilterMemo;
    let s = memo.get(plan.memoKey);
    if (s === undefined) {
      s = runFilters(plan.memoized, state, pod, node);
      // Only definite answers are remembered; an Error is retried next time.
      if (s.isSuccess() || s.isRejected()) {
        if (memo.size >= MEMO_PER_NODE) memo.clear();
        memo.set(plan.memoKey, s);
      }
    }
    return s;
  }

  /**
   * Filter as if the pods nominated to this node with priority >= the pod's were already there, and (when that
   * passes) also without them, since a nominated pod may never arrive; kube runs both passes for the same reason.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, node: NodeInfo): Status {
    return this.withNominatedPods(state, pod, node, false);
  }

  /**
   * runFilterPluginsWithNominatedPods for a node whose node-static filters the caller already knows pass: only the
   * rest run. Nominated pods cannot change a node-static answer, so the result is the same.
   */
  runDynamicFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, node: NodeInfo): Status {
    return this.withNominatedPods(state, pod, node, true);
  }

  private withNominatedPods(state: CycleState, pod: Pod, node: NodeInfo, staticPassed: boolean): Status {
    const nominator = this.handle.nominator;
    const nominated = nominator && nominator.size ? nominator.podsOn(node.name) : undefined;
    if (!nominated) return staticPassed ? runFilters(this.filterPlan(state, pod).rest, state, pod, node) : this.runFilterPlugins(state, pod, node);
    const prio = podPriority(pod), key = podKey(pod);
    let withNominated: NodeInfo | undefined;
    for (const pi of nominated) {
      if (pi.key === key || podPriority(pi.pod) < prio) continue;
      withNominated ??= node.clone();
      withNominated.addPod(pi);
    }
    const run = (n: NodeInfo) => (staticPassed ? runFilters(this.filterPlan(state, pod).rest, state, pod, n) : this.runFilterPlugins(state, pod, n));
    if (withNominated) {
      const s = run(withNominated);
      if (!s.isSuccess()) return s;
    }
    return run(node);
  }

  /** Splits the active filters into the memoizable prefix and the rest, and interns the prefix's combined key. */
  private planFilters(state: CycleState, pod: Pod): FilterPlan {
    const skip = state.skipFilterPlugins;
    const list = skip.size === 0 ? this.filter : this.filter.filter((pl) => !skip.has(pl.name));
    // Only a prefix: a node keeps being reported under the first plugin that rejects it, exactly as without memo.
    let k = 0;
    while (k < list.length && typeof list[k]!.nodeStaticKey === 'function') k++;
    let memoKey = -1;
    if (k > 0) {
      let key = this.id;
      for (let i = 0; i < k; i++) key += `\u0001${list[i]!.name}\u0002${list[i]!.nodeStaticKey!(pod)}`;
      memoKey = internMemoKey(key);
    }
    const plan: FilterPlan = { pod, memoized: list.slice(0, k), memoKey, rest: list.slice(k) };
    const rows: ((rows: Float64Array, base: number) => boolean)[] = [];
    for (const pl of plan.rest) {
      const f = (pl as FilterPlugin & RowPlugin).rowFilter?.(state, pod);
      if (!f) break;
      rows.push(f);
    }
    if (rows.length === plan.rest.length) plan.restRows = rows;
    state.activeFilters = plan;
    return plan;
  }

  /** Joins the reasons of every plugin that could not help, as RunPostFilterPlugins does. */
  runPostFilterPlugins(state: CycleState, pod: Pod, statuses: ReadonlyMap<string, Status>): PostFilterResult {
    const reasons: string[] = [];
    let rejector = '';
    let nominated: string | undefined;
    for (const pl of this.postFilter) {
      const r = guardResult(() => pl.postFilter(state, pod, statuses));
      const s = r.status;
      if (s.isSuccess()) return { status: s, nominatedNodeName: r.nominatedNodeName };
      if (s.code === 'UnschedulableAndUnresolvable') return { status: s.withPlugin(pl.name) };
      if (!s.isRejected()) return { status: s.withPlugin(pl.name) };
      nominated ??= r.nominatedNodeName;
      reasons.push(...s.reasons);
      rejector ||= pl.name;
    }
    return { status: new Status('Unschedulable', reasons, rejector), nominatedNodeName: nominated };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    for (const pl of this.preScore) {
      const s = guard(() => pl.preScore(state, pod, nodes));
      if (s.isSkip()) {
        state.skipScorePlugins.add(pl.name);
        continue;
      }
      if (!s.isSuccess()) return s.withPlugin(pl.name);
    }
    return Status.SUCCESS;
  }

  /**
   * Weighted sum of normalised scores for each node, in the order of `nodes`. Throws on a plugin error. With `at`
   * (the nodes' positions in the cache's list and its rows, node-rows.ts), plugins that can score from a row do.
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], at?: RowsAt): Float64Array {
    return runScores(this.score, state, pod, nodes, at);
  }

  runReservePlugins(state: CycleState, pod: Pod, nodeName: string): Status {
    for (const pl of this.reserve) {
      const s = guard(() => pl.reserve(state, pod, nodeName));
      if (!s.isSuccess()) return s.withPlugin(pl.name);
    }
    return Status.SUCCESS;
  }

  /** Undoes reservations in reverse order (RunReservePluginsUnreserve). */
  runUnreservePlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reserve.length - 1; i >= 0; i--) this.reserve[i]!.unreserve(state, pod, nodeName);
  }

  /** Runs every PreBind plugin in order; the first that does not succeed stops the binding (RunPreBindPlugins). */
  async runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    for (const pl of this.preBind) {
      let s: Status;
      try {
        s = await pl.preBind(state, pod, nodeName);
      } catch (err) {
        s = Status.error(err);
      }
      if (s.isSuccess() || s.isSkip()) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return new Status('Error', [`running PreBind plugin ${JSON.stringify(pl.name)}: ${s.message()}`], pl.name, s.cause);
    }
    return Status.SUCCESS;
  }

  /** The first binder that does not Skip decides. */
  async runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    for (const pl of this.bind) {
      let s: Status;
      try {
        s = await pl.bind(state, pod, nodeName);
      } catch (err) {
        s = Status.error(err);
      }
      if (s.isSkip()) continue;
      return s.withPlugin(pl.name);
    }
    return new Status('Error', ['no bind plugin accepted the pod']);
  }
}


/** An exception from a plugin is unexpected: it becomes an Error status rather than escaping the cycle. */
function guard(fn: () => Status): Status {
  try {
    return fn();
  } catch (err) {
    return Status.error(err);
  }
}

function guardResult(fn: () => PostFilterResult): PostFilterResult {
  try {
    return fn();
  } catch (err) {
    return { status: Status.error(err) };
  }
}
