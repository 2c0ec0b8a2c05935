// cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in kube's base environment from 1.32): all,
// exists, existsOne/exists_one, transformList, transformMap and transformMapEntry over (index, value) of a list or
// (key, value) of a map, with cel-go's checks, error-absorbing quantifiers and costs (cel-go v0.23 ext/comprehensions.go,
// checker/checker.go checkComprehension; staging/src/k8s.io/apiserver/pkg/cel/environment/base.go).
//
// cel-js lets a function signature with `ast` parameters act as a macro that type-checks and evaluates itself; these
// macros do both, iterating with two overlay contexts (one per variable) as cel-js's own cel.bind does with one.

import { ParseError, type ASTNode, type Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from './library-ext.js';
import { Accumulator, entries, type Kind } from './two-var-fold.js';
import { chargeCost } from './runtime-cost.js';

/** The parts of cel-js's type objects, contexts and checker these macros use. */
interface CelType {
  kind: string;
  name: string;
  keyType?: CelType;
  valueType?: CelType;
  isDynOrBool(): boolean;
}
interface Ctx {
  forkWithVariable(name: string, type: CelType): Ctx;
  setIterValue(v: unknown, ev: Evaluator): Ctx;
}
interface Checker {
  check(node: ASTNode, ctx: Ctx): CelType;
  getType(name: string): CelType;
  formatType(t: CelType): string;
  createError(code: string, message: string, node: unknown): Error;
  registry: { getListType(t: CelType): CelType; getMapType(k: CelType, v: CelType): CelType };
}
interface Evaluator {
  run(node: ASTNode, ctx: Ctx): unknown;
}
/** What cel-js's AST nodes have beyond their declared type: whether they may await, and mutable metadata. */
interface NodeInternals {
  readonly maybeAsync: boolean;
  setMeta(key: string, value: unknown): unknown;
}
const internals = (n: ASTNode) => n as unknown as NodeInternals;

/** cel-go's accumulator names, which an iteration variable may not take (extractIterVars). */
const ACCUMULATORS = new Set(['__result__', '@result']);

/** cel-go prints types with parentheses: list(int), map(string, dyn). */
const goName = (t: string) => t.replace(/</g, '(').replace(/>/g, ')');

/** Where cel-go points for the expanded steps: the opening parenthesis of the macro call. */
function paren(call: ASTNode, receiver: ASTNode): { pos: number; start: number; end: number; input: string } {
  const at = Math.max(call.input.indexOf('(', receiver.end), 0);
  return { pos: at, start: at, end: at + 1, input: call.input };
}

function iterVar(node: ASTNode): string {
  if (node.op === 'id') return node.args;
  // cel-go locates a field selection at its dot, cel-js at the field name.
  const at = node.op === '.' || node.op === '.?' ? Math.max(node.input.lastIndexOf('.', node.pos), node.start) : node.start;
  throw new ParseError('argument must be a simple name', { pos: at, start: at, end: at + 1, input: node.input } as unknown as ASTNode);
}

class TwoVarMacro {
  readonly chargesOwnCost = true;
  readonly async = true;
  private readonly v1: string;
  private readonly v2: string;
  private readonly filter?: ASTNode;
  private readonly body: ASTNode;
  private t1?: CelType;
  private t2?: CelType;

  constructor(private readonly kind: Kind, private readonly call: ASTNode, private readonly receiver: ASTNode, args: ASTNode[]) {
    this.v1 = iterVar(args[0]);
    this.v2 = iterVar(args[1]);
    if (this.v1 === this.v2) throw new ParseError(`duplicate variable name: ${this.v1}`, args[1]);
    if (ACCUMULATORS.has(this.v1)) throw new ParseError('iteration variable overwrites accumulator variable', args[0]);
    if (ACCUMULATORS.has(this.v2)) throw new ParseError('iteration variable overwrites accumulator variable', args[1]);
    this.filter = args.length === 4 ? args[2] : undefined;
    this.body = args[args.length - 1];
  }

  typeCheck = (chk: Checker, _m: unknown, ctx: Ctx): CelType => {
    const range = chk.check(this.receiver, ctx);
    const dyn = chk.getType('dyn');
    const concrete = (t: CelType | undefined): CelType => (!t || t.kind === 'param' || t.kind === 'dyn' ? dyn : t);
    if (range.kind === 'list') [this.t1, this.t2] = [chk.getType('int'), concrete(range.valueType)];
    else if (range.kind === 'map') [this.t1, this.t2] = [concrete(range.keyType), concrete(range.valueType)];
    else if (range.kind === 'dyn') [this.t1, this.t2] = [dyn, dyn];
    else {
      throw chk.createError('comprehension_range',
        `expression of type '${goName(chk.formatType(range))}' cannot be range of a comprehension (must be list, map, or dynamic)`, this.receiver);
    }
    const inner = ctx.forkWithVariable(this.v1, this.t1).forkWithVariable(this.v2, this.t2);
    const at = paren(this.call, this.receiver);
    const overload = (fn: string, types: string[]) =>
      chk.createError('no_matching_overload', `found no matching overload for '${fn}' applied to '(${types.join(', ')})'`, at);
    const filterType = this.filter ? chk.check(this.filter, inner) : undefined;
    const bodyType = chk.check(this.body, inner);
    const name = (t: CelType) => goName(chk.formatType(t));
    let result: CelType;
    switch (this.kind) {
      case 'all': case 'exists':
        if (!bodyType.isDynOrBool()) throw overload(this.kind === 'all' ? '_&&_' : '_||_', ['bool', name(bodyType)]);
        result = chk.getType('bool');
        break;
      case 'existsOne':
        if (!bodyType.isDynOrBool()) throw overload('_?_:_', [name(bodyType), 'int', 'int']);
        result = chk.getType('bool');
        break;
      case 'transformList': result = chk.registry.getListType(concrete(bodyType)); break;
      case 'transformMap': result = chk.registry.getMapType(this.t1, concrete(bodyType)); break;
      case 'transformMapEntry':
        if (bodyType.kind !== 'map' && bodyType.kind !== 'dyn') throw overload('cel.@mapInsert', ['map(dyn, dyn)', name(bodyType)]);
        // Type parameters left free (an empty map literal) end as dyn, as cel-go's checker substitutes them.
        result = chk.registry.getMapType(concrete(bodyType.keyType), concrete(bodyType.valueType));
        break;
    }
    if (filterType && !filterType.isDynOrBool()) throw overload('_?_:_', [name(filterType), name(result), name(result)]);
    // Synchronous unless something inside may call an asynchronous function (as cel-js's cel.bind decides).
    if (![this.receiver, this.body, this.filter].some((n) => n && internals(n).maybeAsync)) internals(this.call).setMeta('async', false);
    return result;
  };

  evaluate = (ev: Evaluator, _m: unknown, ctx: Ctx): unknown => {
    const range = ev.run(this.receiver, ctx);
    return range instanceof Promise ? range.then((r) => this.loop(ev, ctx, r)) : this.loop(ev, ctx, range);
  };

  /** cel-go's fold: the accumulator's start, each step, then the result, with what each costs in cel-go. */
  private loop(ev: Evaluator, ctx: Ctx, range: unknown): unknown {
    const items = entries(range);
    const c1 = ctx.forkWithVariable(this.v1, this.t1!);
    const c2 = c1.forkWithVariable(this.v2, this.t2!);
    const acc = new Accumulator(this.kind);
    const next = (i: number): unknown => {
      for (; i < items.length && !acc.done; i++) {
        c1.setIterValue(items[i][0], ev);
        c2.setIterValue(items[i][1], ev);
        const r = this.step(ev, c2, acc, items[i][0]);
        if (r instanceof Promise) return r.then(() => next(i + 1));
      }
      return acc.result();
    };
    return next(0);
  }

  private step(ev: Evaluator, ctx: Ctx, acc: Accumulator, key: unknown): unknown {
    chargeCost(acc.overhead);
    if (!this.filter) return this.apply(ev, ctx, acc, key);
    const f = ev.run(this.filter, ctx);
    const go = (keep: unknown) => {
      if (typeof keep !== 'boolean') throw new CelRuntimeError('no such overload');
      if (keep) return this.apply(ev, ctx, acc, key);
      chargeCost(1); // the untouched accumulator, read back
      return undefined;
    };
    return f instanceof Promise ? f.then(go) : go(f);
  }

  private apply(ev: Evaluator, ctx: Ctx, acc: Accumulator, key: unknown): unknown {
    if (!acc.absorbsErrors) {
      const v = ev.run(this.body, ctx);
      return v instanceof Promise ? v.then((x) => acc.add(key, x)) : acc.add(key, v);
    }
    // all and exists are && and || folds: an error only counts if no element decides the answer.
    let v: unknown;
    try {
      v = ev.run(this.body, ctx);
    } catch (err) {
      return acc.fail(err);
    }
    return v instanceof Promise ? v.then((x) => acc.add(key, x), (err: unknown) => acc.fail(err)) : acc.add(key, v);
  }
}

type Handler = (o: { ast: ASTNode; args: ASTNode[]; receiver: ASTNode | null }) => TwoVarMacro;

const macro = (kind: Kind): Handler => ({ ast, args, receiver }) => new TwoVarMacro(kind, ast, receiver!, args);

export function registerComprehensionsLibrary(env: Environment): void {
  const reg = (sig: string, kind: Kind) => env.registerFunction(sig, macro(kind) as unknown as (...a: unknown[]) => unknown);
  reg('list.all(ast, ast, ast): bool', 'all');
  reg('list.exists(ast, ast, ast): bool', 'exists');
  reg('list.existsOne(ast, ast, ast): bool', 'existsOne');
  reg('list.exists_one(ast, ast, ast): bool', 'existsOne');
  for (const n of ['ast, ast, ast', 'ast, ast, ast, ast']) {
    reg(`list.transformList(${n}): list<dyn>`, 'transformList');
    reg(`list.transformMap(${n}): map<dyn, dyn>`, 'transformMap');
    reg(`list.transformMapEntry(${n}): map<dyn, dyn>`, 'transformMapEntry');
  }
}
