// Calling functions and script blocks: a new scope (or the caller's, dot-sourced), parameter binding, $input and
// $_, begin/process/end blocks run over the pipeline input, and `return` ending the call with its output.

import type { NamedBlocks, ParamBlock, Stmt } from './ast.js';
import type { RawArg, Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { bindParams, bindPipelineItem, pipelineParam } from './param-binding.js';
import { FlowSignal } from './signals.js';
import type { PsValue, ScriptBlock } from './values.js';

export interface PsFunction { name: string; params: ParamBlock; body: Stmt[]; named?: NamedBlocks }

/** Runs a body; `return` ends it, its values going to the output. */
async function runReturning(ps: Ps, body: Stmt[], out: Sink): Promise<void> {
  try {
    await ps.runBlock(body, out);
  } catch (e) {
    if (e instanceof FlowSignal && e.kind === 'return') { for (const v of e.value) out.emit(v); return; }
    throw e;
  }
}

/** begin once, process for each input item ($_ and the ValueFromPipeline parameter set; once without a
 *  pipeline), end once. */
async function runNamed(ps: Ps, fn: PsFunction, named: NamedBlocks, input: PsValue[] | undefined, out: Sink): Promise<void> {
  if (named.begin) await runReturning(ps, named.begin, out);
  if (named.process) {
    const scope = ps.scopes[ps.scopes.length - 1];
    const pipeParam = pipelineParam(ps, fn.params);
    if (input === undefined) await runReturning(ps, named.process, out);
    else for (const item of input) {
      scope.set('_', item);
      scope.set('psitem', item);
      if (pipeParam) bindPipelineItem(ps, pipeParam, item, fn.name);
      await runReturning(ps, named.process, out);
    }
  }
  if (named.end) await runReturning(ps, named.end, out);
}

export async function callFunction(ps: Ps, fn: PsFunction, raw: RawArg[], input: PsValue[] | undefined, out: Sink): Promise<void> {
  const scope = new Map<string, PsValue>([['input', input ?? []]]);
  ps.scopes.push(scope);
  try {
    await bindParams(ps, fn.params, raw, fn.name, input);
    if (fn.named) { await runNamed(ps, fn, fn.named, input, out); return; }
    if (input && input.length) scope.set('_', input[input.length - 1]);
    await runReturning(ps, fn.body, out);
  } finally {
    ps.scopes.pop();
  }
}

/** `& { }` runs a script block in a new scope, `. { }` in the caller's; ForEach-Object gives it $_. */
export async function callBlock(ps: Ps, block: ScriptBlock, raw: RawArg[], input: PsValue[] | undefined, out: Sink, dotSource = false, underscore?: PsValue): Promise<void> {
  if (!dotSource) ps.scopes.push(new Map());
  const scope = ps.scopes[ps.scopes.length - 1];
  try {
    if (underscore !== undefined) { scope.set('_', underscore); scope.set('psitem', underscore); }
    if (input) scope.set('input', input);
    await bindParams(ps, block.params, raw, '', input);
    await runReturning(ps, block.body, out);
  } finally {
    if (!dotSource) ps.scopes.pop();
  }
}
