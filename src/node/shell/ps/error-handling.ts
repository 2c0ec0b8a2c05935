// Terminating errors meeting their handlers: try/catch [T]/finally and trap [T] { ... continue | break }, with `$_`
// bound to the ErrorRecord (about_Try_Catch_Finally, about_Trap).

import type { Stmt } from './ast.js';
import type { Sink } from './cmdlet-api.js';
import type { Ps } from './interp.js';
import { catches } from './exceptions.js';
import { PsError, type PsValue } from './values.js';
import { FlowSignal, PsTerminating } from './signals.js';

/** The error a handler can take: a thrown PsError or a terminating one (throw, -ErrorAction Stop). */
function asError(e: unknown): PsError | undefined {
  return e instanceof PsTerminating ? e.error : e instanceof PsError ? e : undefined;
}

/** Runs a handler body with $_ / $PSItem set to the error record, in the current scope as PowerShell does. */
async function withErrorRecord(ps: Ps, err: PsError, body: Stmt[], out: Sink): Promise<void> {
  const scope = ps.scopes[ps.scopes.length - 1];
  const saved: [string, PsValue | undefined][] = ['_', 'psitem'].map((k) => [k, scope.get(k)]);
  const rec = ps.recordError(err);
  scope.set('_', rec);
  scope.set('psitem', rec);
  try {
    await ps.runBlock(body, out);
  } finally {
    for (const [k, v] of saved) { if (v === undefined) scope.delete(k); else scope.set(k, v); }
  }
}

export async function runTry(ps: Ps, s: Extract<Stmt, { t: 'try' }>, out: Sink): Promise<void> {
  const guarded = s.catches.length > 0;
  if (guarded) ps.handlers++;
  let counted = guarded;
  try {
    await ps.runBlock(s.body, out);
  } catch (e) {
    if (counted) { ps.handlers--; counted = false; }
    const err = asError(e);
    const clause = err && s.catches.find((c) => catches(err, c.types));
    if (!err || !clause) throw e;
    ps.lastOk = false;
    await withErrorRecord(ps, err, clause.body, out);
  } finally {
    if (counted) ps.handlers--;
    if (s.finallyBody) await ps.runBlock(s.finallyBody, out);
  }
}

/** Runs a statement list whose trap statements handle the terminating errors of its statements (and of what
 *  they call). After the trap body: `continue` goes on silently, `break` ends the scope with the error, and
 *  otherwise the error is reported and the next statement runs. */
export async function runWithTraps(ps: Ps, stmts: Stmt[], out: Sink): Promise<void> {
  const traps = stmts.filter((s): s is Extract<Stmt, { t: 'trap' }> => s.t === 'trap');
  for (const s of stmts) {
    if (s.t === 'trap') continue;
    ps.handlers++;
    try {
      await ps.runStmt(s, out);
    } catch (e) {
      const err = asError(e);
      const trap = err && traps.find((t) => catches(err, t.types));
      if (!err || !trap) throw e;
      ps.handlers--;
      ps.lastOk = false;
      let verdict: 'continue' | 'break' | 'report' = 'report';
      try {
        await withErrorRecord(ps, err, trap.body, out);
      } catch (f) {
        if (!(f instanceof FlowSignal) || f.kind === 'return') throw f;
        verdict = f.kind;
      } finally {
        ps.handlers++;
      }
      if (verdict === 'break') throw e instanceof PsTerminating ? e : new PsTerminating(err);
      if (verdict === 'report') { ps.host.end(); ps.errorStream.write(ps.renderError(err)); }
    } finally {
      ps.handlers--;
    }
  }
}
