// Compiling a Kubernetes CEL expression: parse and type-check against declared variable types, require the
// result type, and keep a program that evaluates over plain JSON-derived values
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go CompileCELExpression).

import type { ASTNode, Environment, ParseResult } from '@marcbachmann/cel-js';
import { formatIssue, runtimeMessage, type CelErrorLike } from './issues.js';
import { newEnvironment, storedOnlyFunctions, type EnvironmentKind } from './environment.js';
import { formatIssues, hasCalls, presenceProbe, visit } from './ast-checks.js';
import { heterogeneousLiterals } from './homogeneous-literals.js';
import { literalIssues } from './literal-checks.js';
import { PER_CALL_LIMIT } from './cost.js';
import { COST_LIMIT_MESSAGE, observeRoot, trackCost, withCostLimit } from './runtime-cost.js';

/**
 * The declarations an expression is checked against. `variables` maps names to cel-js type strings; `types`
 * registers the object types those strings name (schemas, AdmissionRequest), on the checking environment only.
 */
export interface Declarations {
  variables: Record<string, string>;
  types?: (env: Environment) => void;
}

export interface CompiledExpression {
  readonly expression: string;
  /** The checked result type, cel-go style (`bool`, `list(string)`). */
  readonly outputType: string;
  /** The parsed expression, for static cost estimation. */
  readonly ast: ASTNode;
  /** Evaluates with the given variables (JSON values already converted with toCel); a Promise when async. */
  run(vars: Record<string, unknown>): unknown;
}

export type CompileResult = { ok: true; program: CompiledExpression } | { ok: false; detail: string };

/** cel-go's spelling of a type: list(string), map(string, dyn). */
export const goTypeName = (t: string): string => {
  if (t === 'null') return 'null_type';
  // cel-js's check() abbreviates list<dyn> and map<dyn, dyn>.
  if (t === 'list') return 'list(dyn)';
  if (t === 'map') return 'map(dyn, dyn)';
  return t.replace(/</g, '(').replace(/>/g, ')');
};

/**
 * Values are checked against declared types but evaluated with every variable as dyn: the values are plain JSON
 * (objects, bigint ints), which is what kube's unstructured values are, and cel-js's typed wrappers are not.
 */
class Environments {
  readonly check: Environment;
  readonly run: Environment;
  constructor(decls: Declarations, kind: EnvironmentKind) {
    this.check = newEnvironment(kind);
    decls.types?.(this.check);
    this.run = newEnvironment(kind);
    for (const [name, type] of Object.entries(decls.variables)) {
      this.check.registerVariable(name, type);
      this.run.registerVariable(name, 'dyn');
    }
    trackCost(this.run);
  }
}

const caches: Record<EnvironmentKind, WeakMap<Declarations, Environments>> = { new: new WeakMap(), stored: new WeakMap() };

function environments(decls: Declarations, kind: EnvironmentKind): Environments {
  let envs = caches[kind].get(decls);
  if (!envs) {
    envs = new Environments(decls, kind);
    caches[kind].set(decls, envs);
  }
  return envs;
}

/**
 * Compiles `expression`; a failure carries kube's detail text (`compilation failed: ERROR: <input>:1:5: …`, or
 * `must evaluate to bool but got int`). `returnTypes` empty accepts any type. `kind` picks kube's environment: `new`
 * for an expression being created or changed, `stored` (the default) for one already persisted or being evaluated.
 */
export function compile(expression: string, decls: Declarations, returnTypes: string[], prefix = 'compilation failed: ', kind: EnvironmentKind = 'stored'): CompileResult {
  const envs = environments(decls, kind);
  let outputType: string;
  try {
    const parsed = envs.check.parse(expression);
    const late = kind === 'new' ? undeclaredInNew(expression, parsed.ast) : undefined;
    if (late) return { ok: false, detail: prefix + late };
    const checked = parsed.check();
    if (!checked.valid) return { ok: false, detail: prefix + formatIssue(expression, checked.error as unknown as CelErrorLike) };
    outputType = goTypeName(checked.type ?? 'dyn');
    const extra = astIssue(envs.check, expression, parsed.ast);
    if (extra) return { ok: false, detail: prefix + extra };
  } catch (err) {
    return { ok: false, detail: prefix + formatIssue(expression, err as CelErrorLike) };
  }
  if (returnTypes.length && !returnTypes.includes(outputType)) {
    const reason = returnTypes.length === 1 ? `must evaluate to ${returnTypes[0]} but got ${outputType}`
      : `must evaluate to one of [${returnTypes.join(' ')}] but got ${outputType}`;
    return { ok: false, detail: reason };
  }
  let run: ParseResult;
  try {
    run = envs.run.parse(expression);
  } catch (err) {
    return { ok: false, detail: prefix + formatIssue(expression, err as CelErrorLike) };
  }
  return {
    ok: true,
    program: {
      expression, outputType, ast: run.ast,
      run: (vars) => run(vars),
    },
  };
}

/**
 * Calls of functions only the stored environment declares, as cel-go's checker reports them in a new expression:
 * `undeclared reference to 'semver' (in container '')` at the call's opening parenthesis (the parser gives a call
 * the id of its `(`), every one in source order. cel-js would stop at the first with its own wording.
 */
function undeclaredInNew(expression: string, ast: ASTNode): string | undefined {
  const late = storedOnlyFunctions();
  if (!late.size) return undefined;
  const found: { offset: number; message: string }[] = [];
  visit(ast, (n) => {
    if (n.op !== 'call' && n.op !== 'rcall') return;
    const name = n.args[0];
    if (!late.has(name)) return;
    const from = n.op === 'call' ? n.range.start : n.args[1].range.end;
    const at = new RegExp(`^\\s*(?:\\.\\s*)?${name}\\s*\\(`).exec(expression.slice(from));
    const offset = at ? from + at[0].length - 1 : n.range.start;
    found.push({ offset, message: `undeclared reference to '${name}' (in container '')` });
  });
  if (!found.length) return undefined;
  return found.sort((a, b) => a.offset - b.offset)
    .map((f) => formatIssue(expression, { message: f.message, range: { start: f.offset, end: f.offset + 1 } })).join('\n');
}

/**
 * The checks cel-go's checker and validators make beyond cel-js's: fields named in has() must exist, a constant
 * format string must suit its literal arguments, list and map literals must be homogeneous, and constant duration,
 * timestamp and regex arguments must be valid. `ast` is checked.
 */
function astIssue(env: Environment, expression: string, ast: ASTNode): string | undefined {
  const calls = hasCalls(ast, expression);
  if (calls.length) {
    const probe = env.check(presenceProbe(expression, calls));
    const e = probe.error as unknown as CelErrorLike | undefined;
    if (!probe.valid && e?.code === 'no_such_key') {
      const at = e.range?.start ?? 0;
      const call = calls.find((c) => at >= c.start && at <= c.end);
      const field = /^No such key: (.+)$/.exec(e.summary ?? '')?.[1];
      if (call && field) return formatIssue(expression, { message: `undefined field '${field}'`, range: { start: call.paren, end: call.paren + 1 } });
    }
  }
  const found = [formatIssues(ast, expression), ...heterogeneousLiterals(ast, expression), ...literalIssues(ast)].filter((x) => x !== undefined);
  if (!found.length) return undefined;
  // cel-go prints every validator issue, in source order, one block after another.
  return found.sort((a, b) => a.offset - b.offset)
    .map((f) => formatIssue(expression, { message: f.message, range: { start: f.offset, end: f.offset + 1 } })).join('\n');
}

/** An evaluation's outcome with its actual cost (cel-go EvalDetails.ActualCost). */
export interface Evaluation {
  value?: unknown;
  error?: string;
  cost: number;
}

/**
 * Evaluates under kube's per-expression cost limit (base.go cel.CostLimit(PerCallLimit)): past it the evaluation
 * stops with cel-go's `operation cancelled: actual cost limit exceeded`.
 */
export async function evaluateWithCost(p: CompiledExpression, vars: Record<string, unknown>, limit = PER_CALL_LIMIT): Promise<Evaluation> {
  const { tracker, result } = withCostLimit(limit, p.ast, () => {
    try {
      const v = p.run(vars);
      return v instanceof Promise ? v.then((value) => ({ value }), (err: unknown) => ({ err })) : { value: v };
    } catch (err) {
      return { err };
    }
  });
  const r: { value?: unknown; err?: unknown } = await result;
  if (!('err' in r)) observeRoot(tracker, p.ast, r.value);
  if (tracker.cancelled) return { error: COST_LIMIT_MESSAGE, cost: tracker.cost };
  return 'err' in r ? { error: runtimeMessage(r.err), cost: tracker.cost } : { value: r.value, cost: tracker.cost };
}

/** Synchronous evaluateWithCost, for callers that cannot wait (CRD rules use no asynchronous function). */
export function evaluateSyncWithCost(p: CompiledExpression, vars: Record<string, unknown>, limit = PER_CALL_LIMIT): Evaluation {
  const { tracker, result } = withCostLimit(limit, p.ast, (): { value?: unknown; error?: string } => {
    try {
      const v = p.run(vars);
      if (v instanceof Promise) {
        v.catch(() => undefined);
        return { error: 'asynchronous functions are not available here' };
      }
      return { value: v };
    } catch (err) {
      return { error: runtimeMessage(err) };
    }
  }, true);
  if (result.error === undefined) observeRoot(tracker, p.ast, result.value);
  if (tracker.cancelled) return { error: COST_LIMIT_MESSAGE, cost: tracker.cost };
  return { ...result, cost: tracker.cost };
}

const withoutCost = ({ cost: _cost, ...r }: Evaluation): { value?: unknown; error?: string } => r;

/** Evaluates, answering `{ error }` with cel-go's runtime wording instead of throwing. */
export async function evaluate(p: CompiledExpression, vars: Record<string, unknown>): Promise<{ value?: unknown; error?: string }> {
  return withoutCost(await evaluateWithCost(p, vars));
}

/** Synchronous evaluation for callers that cannot wait (CRD rules use no asynchronous function). */
export function evaluateSync(p: CompiledExpression, vars: Record<string, unknown>): { value?: unknown; error?: string } {
  return withoutCost(evaluateSyncWithCost(p, vars));
}
