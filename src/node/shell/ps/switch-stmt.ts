// The switch statement: each item of the subject against each clause (-regex sets $Matches, -wildcard, -exact,
// -casesensitive, script-block conditions, -file reads lines); `break` leaves the switch, `continue` takes the
// next item, default runs when no clause matched (about_Switch).

import { netMatch, netRegex } from './dotnet-regex.js';
import type { Expr, Stmt } from './ast.js';
import type { Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { matchTable } from './runtime.js';
import { flowFor } from './signals.js';
import { PsError, ScriptBlock, toBool, toStr, unwrap, type PsValue } from './values.js';
import { psEquals, wildcardToRegex } from './operators.js';

type SwitchStmt = Extract<Stmt, { t: 'switch' }>;

async function subjectItems(ps: Ps, s: SwitchStmt): Promise<PsValue[]> {
  const only = s.subject.elems.length === 1 && !s.subject.assign ? s.subject.elems[0] : undefined;
  const v = only?.t === 'expr' ? await ps.eval(only.expr) : await ps.pipelineValue(s.subject);
  if (!s.file) return Array.isArray(v) ? v : [v];
  const fs = ps.ctx.env.fs;
  const path = fs.resolve(ps.ctx.cwd, toStr(v));
  if (fs.stat(path)?.kind !== 'file') throw new PsError(`Cannot find path '${path}' because it does not exist.`, 'ObjectNotFound', 'PathNotFound', { target: path, exceptionType: 'ItemNotFoundException' });
  let text = fs.readFile(path, ps.ctx.cred).toString();
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\r?\n$/, '').split(/\r?\n/);
}

async function matches(ps: Ps, s: SwitchStmt, cond: Expr, item: PsValue): Promise<boolean> {
  const pattern = await ps.eval(cond);
  if (pattern instanceof ScriptBlock) {
    const vals: PsValue[] = [];
    await ps.callBlock(pattern, [], undefined, { emit: (v) => vals.push(v) }, false, item);
    return toBool(unwrap(vals));
  }
  switch (s.mode) {
    case 'regex': {
      const nr = netRegex(toStr(pattern), { ignoreCase: !s.cs });
      const m = netMatch(nr, toStr(item));
      if (m) ps.matches = matchTable(m, nr);
      return m !== null;
    }
    case 'wildcard': return wildcardToRegex(toStr(pattern), !s.cs).test(toStr(item));
    default: return psEquals(item, pattern, !s.cs);
  }
}

/** Runs a clause body; the flow keyword that ended it, if any. */
async function clause(ps: Ps, body: Stmt[], out: Sink, label: string | undefined): Promise<'break' | 'continue' | undefined> {
  try {
    await ps.runBlock(body, out);
  } catch (e) {
    // switch is a loop to break and continue (about_Switch); a label names an outer one.
    const flow = flowFor(e, label);
    if (flow) return flow;
    throw e;
  }
  return undefined;
}

export async function runSwitch(ps: Ps, s: SwitchStmt, out: Sink): Promise<void> {
  const scope = ps.scopes[ps.scopes.length - 1];
  const saved = scope.get('_');
  const dflt = s.clauses.find((c) => c.cond === 'default');
  try {
    items: for (const item of await subjectItems(ps, s)) {
      scope.set('_', item);
      let matched = false;
      for (const c of s.clauses) {
        if (c.cond === 'default' || !(await matches(ps, s, c.cond, item))) continue;
        matched = true;
        scope.set('_', item);
        const flow = await clause(ps, c.body, out, s.label);
        if (flow === 'break') return;
        if (flow === 'continue') continue items;
      }
      if (!matched && dflt) {
        const flow = await clause(ps, dflt.body, out, s.label);
        if (flow === 'break') return;
      }
    }
  } finally {
    if (saved === undefined) scope.delete('_'); else scope.set('_', saved);
  }
}
