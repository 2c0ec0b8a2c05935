// The actual cost of one CEL evaluation, counted the way cel-go's CostObserver counts it, and the per-expression
// limit kube sets on every program (cel-go interpreter/runtimecost.go; staging/src/k8s.io/apiserver/pkg/cel/
// environment/base.go cel.CostLimit(celconfig.PerCallLimit); pkg/cel/library/cost.go CallCost).
//
// cel-js has no cost hook, but every child evaluation goes through its evaluator's `run(ast, ctx)`. Each
// environment that evaluates gets its evaluator's `run` replaced by one that, while a tracker is active (an
// AsyncLocalStorage store, so concurrent asynchronous evaluations keep apart), charges each node what cel-go charges
// for the node it stands for, and cancels the evaluation once the limit is passed — as cel-go's observer panics.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { callCost, LIST_CREATE, MAP_CREATE, operatorCost } from './runtime-call-cost.js';

/** cel-go's EvalCancelledError text for CostLimitExceeded. */
export const COST_LIMIT_MESSAGE = 'operation cancelled: actual cost limit exceeded';

export class CostLimitExceeded extends Error {
  constructor() {
    super(COST_LIMIT_MESSAGE);
    this.name = 'CostLimitExceeded';
  }
}

/** Namespaces that are cel-go function-name prefixes, not variables: reading them costs nothing. */
const NAMESPACES = new Set(['sets', 'strings', 'cel', 'format']);

/** Macro bookkeeping: what cel-go's expansion evaluates per iteration (loop condition, accumulator reads). */
const STEP_OVERHEAD: Record<string, number> = { all: 3, exists: 4 };
/** The result expression after the loop: the accumulator read, and for exists_one its comparison with 1. */
const RESULT_COST: Record<string, number> = { all: 1, exists: 1, exists_one: 2, map: 1, filter: 1 };

interface MacroMeta {
  alternate?: { args: { step: ASTNode } };
  macro?: { macroHasProps?: unknown[]; chargesOwnCost?: boolean };
}

/** The accumulated cost of one evaluation. */
export class CostTracker {
  cost = 0;
  cancelled = false;
  /** The last sized value (string, bytes, list, map, object) of each node, for the sizes calls and operators read. */
  private values?: Map<ASTNode, unknown>;
  constructor(readonly limit: number) {}

  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) {
      this.cancelled = true;
      throw new CostLimitExceeded();
    }
  }

  /** After `node` evaluated to `v`: what cel-go's observer adds for it. */
  observe(node: ASTNode, v: unknown): void {
    // Only sizes matter, and anything unrecorded counts as size 1, as scalars do.
    if (typeof v === 'string' || (typeof v === 'object' && v !== null)) (this.values ??= new Map()).set(node, v);
    else this.values?.delete(node);
    const n = node as ASTNode & { args: unknown };
    switch (n.op as string) {
      case 'value': case '&&': case '||': case '?:': case 'comprehension': return;
      case 'id': return this.charge(NAMESPACES.has(n.args as string) ? 0 : 1);
      case 'list': return this.charge(LIST_CREATE);
      case 'map': return this.charge(MAP_CREATE);
      case '.': case '.?': case '[]': case '[?]': case '!_': case '-_': case 'accuValue': return this.charge(1);
      // accu + 1 in exists_one; accu + [x] in map and filter (the add, the accumulator read, the list literal).
      case 'accuInc': return this.charge(2);
      case 'accuPush': return this.charge(2 + LIST_CREATE);
      case 'call': case 'rcall': return this.charge(this.callNode(n as ASTNode & { op: 'call' | 'rcall' }, v));
      default: {
        const [l, r] = n.args as [ASTNode, ASTNode];
        return this.charge(operatorCost(n.op, this.values?.get(l), this.values?.get(r)));
      }
    }
  }

  /** Before `node` runs: a macro's steps are tagged with what cel-go's expansion adds per iteration. */
  prepare(node: ASTNode): void {
    if (node.op !== 'rcall') return;
    const meta = (node as unknown as { meta: MacroMeta }).meta;
    const step = meta.alternate?.args.step;
    const overhead = STEP_OVERHEAD[node.args[0]];
    if (step && overhead) stepOverhead.set(step, overhead);
  }

  private callNode(n: ASTNode & { op: 'call' | 'rcall' }, result: unknown): number {
    const meta = (n as unknown as { meta: MacroMeta }).meta;
    const name = n.args[0];
    if (meta.macro) {
      if (meta.macro.chargesOwnCost) return 0;
      // has(a.b.c): the selects before the tested one; presence tests cost nothing (PresenceTestHasCost(false)).
      if (meta.macro.macroHasProps) return Math.max(0, meta.macro.macroHasProps.length - 2);
      // cel.bind expands to a comprehension over an empty list literal.
      return name === 'bind' ? LIST_CREATE : 0;
    }
    if (meta.alternate) return RESULT_COST[name] ?? 1;
    // cel-go sizes only the member overload of matches (matches_string); the global one costs 1 (runtimecost.go).
    if (n.op === 'call') return name === 'matches' ? 1 : callCost(name, n.args[1].map((a) => this.values?.get(a)), result);
    const [, target, args] = n.args;
    // sets.contains(...), strings.quote(...): cel-go's functions are named with the namespace, which is no argument.
    const ns = target.op === 'id' && NAMESPACES.has(target.args) ? target.args : undefined;
    const values = (ns ? args : [target, ...args]).map((a) => this.values?.get(a));
    return callCost(ns ? `${ns}.${name}` : name, values, result);
  }
}

const stepOverhead = new WeakMap<ASTNode, number>();
/** The tracker of the evaluation whose synchronous part is running; continuations after an await find theirs here. */
const active = new AsyncLocalStorage<CostTracker>();
/** The same tracker without the AsyncLocalStorage lookup, set only while an evaluation runs synchronously. */
let current: CostTracker | undefined;

const tracking = (): CostTracker | undefined => current ?? active.getStore();

/** For library code that evaluates on its own (the two-variable comprehensions): charge the active evaluation. */
export function chargeCost(n: number): void {
  tracking()?.charge(n);
}

interface Evaluator {
  run(ast: ASTNode, ctx: unknown): unknown;
}
type Evaluate = (ev: Evaluator, ast: ASTNode, ctx: unknown) => unknown;

/** cel-js keeps its evaluator private; evaluating a probe whose root hands it over is the one way to reach it. */
function evaluatorOf(env: Environment): Evaluator {
  const probe = env.parse('0');
  let found: Evaluator | undefined;
  (probe.ast as unknown as { evaluate: Evaluate }).evaluate = (ev) => {
    found = ev;
    return 0n;
  };
  probe({});
  if (!found) throw new Error('cel-js evaluator not reachable');
  return found;
}

/** Makes evaluations in `env` count their cost whenever they run inside `withCostLimit`. */
export function trackCost(env: Environment): void {
  const ev = evaluatorOf(env);
  const run = (ast: ASTNode, ctx: unknown): unknown => {
    const node = ast as unknown as { evaluate: Evaluate };
    const t = tracking();
    if (!t) return node.evaluate(ev, ast, ctx);
    // Once cancelled nothing more evaluates, so no error-absorbing operator (&&, ||, all, exists) can hide it.
    if (t.cancelled) throw new CostLimitExceeded();
    t.prepare(ast);
    const extra = stepOverhead.get(ast);
    if (extra) t.charge(extra);
    const v = node.evaluate(ev, ast, ctx);
    if (v instanceof Promise) return v.then((x) => (t.observe(ast, x), x));
    t.observe(ast, v);
    return v;
  };
  ev.run = run;
}

/**
 * Runs `fn`, one evaluation of the expression whose root is `root`, with a fresh tracker limited to `limit`.
 * cel-js evaluates the root without going through `run`, so the root is charged here. `syncOnly`: the caller
 * discards a Promise result, so nothing runs after `fn` returns.
 */
export function withCostLimit<T>(limit: number, root: ASTNode, fn: () => T, syncOnly = false): { tracker: CostTracker; result: T } {
  const tracker = new CostTracker(limit);
  const outer = current;
  current = tracker;
  const start = () => {
    tracker.prepare(root);
    const extra = stepOverhead.get(root);
    if (extra) tracker.charge(extra);
    return fn();
  };
  try {
    // An expression cel-js knows to be synchronous needs no AsyncLocalStorage context (it costs a few microseconds).
    // A caller that refuses a Promise (syncOnly), or an expression cel-js knows to be synchronous, has no
    // continuation to find its tracker. maybeAsync is cached once read, so it is asked only after type-checking.
    const r = root as unknown as { checkedType?: unknown; maybeAsync?: boolean };
    const sync = syncOnly || (r.checkedType !== undefined && r.maybeAsync === false);
    return { tracker, result: sync ? start() : active.run(tracker, start) };
  } finally {
    current = outer;
  }
}

/** Charges the root once it has a value (a no-op after cancellation, whose error wins anyway). */
export function observeRoot(tracker: CostTracker, root: ASTNode, value: unknown): void {
  if (tracker.cancelled) return;
  try {
    tracker.observe(root, value);
  } catch {
    // CostLimitExceeded: tracker.cancelled now says so.
  }
}
