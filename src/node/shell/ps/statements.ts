// PowerShell statements: if, the loops (while, do-while/until, for, foreach), flow keywords, function definitions
// and script param() blocks; try/catch/trap live in error-handling.ts, switch in switch-stmt.ts.

import type { Stmt } from './ast.js';
import type { Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { enumerate, PsError, toBool, toNum, type PsValue } from './values.js';
import { runTry, runWithTraps } from './error-handling.js';
import { runSwitch } from './switch-stmt.js';
import { bindParams, rawArgsFromText } from './param-binding.js';
import { thrownError } from './exceptions.js';
import { flowFor, FlowSignal, PsExit, PsTerminating } from './signals.js';
import { checkAbort, yieldNow } from '../core/ctx.js';

/** Runs a statement list; a list with trap statements runs under them. */
export async function runStatements(ps: Ps, stmts: Stmt[], out: Sink): Promise<void> {
  if (stmts.some((s) => s.t === 'trap')) { await runWithTraps(ps, stmts, out); return; }
  for (const s of stmts) await ps.runStmt(s, out);
}

/** Runs one statement. A statement-terminating error is reported and the script goes on, unless a try or trap
 *  is waiting for it or $ErrorActionPreference says otherwise. */
export async function runStmt(ps: Ps, s: Stmt, out: Sink): Promise<void> {
  await yieldNow(ps.ctx.signal);
  checkAbort(ps.ctx);
  try {
    await execStmt(ps, s, out);
  } catch (e) {
    if (!(e instanceof PsError)) throw e;
    if (e.pos === undefined) { e.pos = s.pos; e.end = s.end; }
    ps.locate(e);
    if (ps.handlers > 0) throw e;
    ps.writeError(e);
  }
}

async function execStmt(ps: Ps, s: Stmt, out: Sink): Promise<void> {
  switch (s.t) {
    case 'empty': case 'trap': return;
    case 'param':
      // A param() block met as a statement (`powershell -Command "param($n) ..."`) binds $args.
      await bindParams(ps, s.params, rawArgsFromText(enumerate(ps.getVar('args'))), 'param', undefined);
      return;
    case 'pipeline': await ps.runPipeline(s.p, out); return;
    case 'assign': await ps.assign(s); ps.lastOk = true; return;
    case 'if':
      for (const c of s.clauses) {
        if (toBool(await ps.pipelineValue(c.cond))) { await ps.runBlock(c.body, out); return; }
      }
      if (s.else) await ps.runBlock(s.else, out);
      return;
    case 'while':
      for (;;) {
        await tick(ps);
        if (!toBool(await ps.pipelineValue(s.cond))) return;
        if (await loopBody(ps, s.body, out, s.label)) return;
      }
    case 'do':
      for (;;) {
        await tick(ps);
        if (await loopBody(ps, s.body, out, s.label)) return;
        if (toBool(await ps.pipelineValue(s.cond)) === s.until) return;
      }
    case 'for':
      if (s.init) await execStmt(ps, s.init, { emit: () => undefined });
      for (;;) {
        await tick(ps);
        if (s.cond && !toBool(await ps.pipelineValue(s.cond))) return;
        if (await loopBody(ps, s.body, out, s.label)) return;
        if (s.step) await execStmt(ps, s.step, { emit: () => undefined });
      }
    case 'foreach': await runForeach(ps, s, out); return;
    case 'switch': await runSwitch(ps, s, out); return;
    case 'function':
      ps.functions.set(s.name.toLowerCase(), { name: s.name, params: s.params, body: s.body, named: s.named });
      return;
    case 'try': await runTry(ps, s, out); return;
    case 'flow': {
      if (s.kind === 'break' || s.kind === 'continue') throw new FlowSignal(s.kind, [], s.label);
      if (s.kind === 'return') {
        const vals: PsValue[] = [];
        if (s.value) await ps.runPipeline(s.value, { emit: (v) => vals.push(v) });
        throw new FlowSignal('return', vals);
      }
      const v = s.value ? await ps.pipelineValue(s.value) : null;
      if (s.kind === 'exit') throw new PsExit(v === null ? (ps.lastOk ? 0 : 1) : Math.trunc(toNum(v, false)) || 0);
      const err = thrownError(v, s);
      ps.locate(err);
      throw new PsTerminating(err);
    }
  }
}

async function tick(ps: Ps): Promise<void> {
  await yieldNow(ps.ctx.signal);
  checkAbort(ps.ctx);
}

async function runForeach(ps: Ps, s: Extract<Stmt, { t: 'foreach' }>, out: Sink): Promise<void> {
  const only = s.iter.elems.length === 1 && !s.iter.assign ? s.iter.elems[0] : undefined;
  if (only?.t === 'expr' && only.expr.t === 'binary' && only.expr.op === '..') {
    // foreach over a range counts without building the array (1..2147483647 in the e2e CPU tests).
    const from = Math.trunc(toNum(await ps.eval(only.expr.left)));
    const to = Math.trunc(toNum(await ps.eval(only.expr.right)));
    const step = from <= to ? 1 : -1;
    for (let i = from; step > 0 ? i <= to : i >= to; i += step) {
      await tick(ps);
      ps.setVar(s.variable, i);
      if (await loopBody(ps, s.body, out, s.label)) return;
    }
    return;
  }
  for (const it of enumerate(await ps.pipelineValue(s.iter))) {
    await tick(ps);
    ps.setVar(s.variable, it);
    if (await loopBody(ps, s.body, out, s.label)) return;
  }
}

/** Runs a loop body; true when the loop should end (break). A labelled break/continue for an outer loop passes
 *  through (about_Break: it ends every loop up to the labelled one). */
export async function loopBody(ps: Ps, body: Stmt[], out: Sink, label?: string): Promise<boolean> {
  try {
    await ps.runBlock(body, out);
  } catch (e) {
    const flow = flowFor(e, label);
    if (!flow) throw e;
    return flow === 'break';
  }
  return false;
}
