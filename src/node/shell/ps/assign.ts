// Assignment: `$x = pipeline`, compound operators (+=, -=, ...), and the places a value can be stored (variables,
// typed variables, properties, static properties, array and hashtable elements).

import type { Expr, Stmt } from './ast.js';
import type { Ps } from './interp.js';
import { castTo } from './dotnet.js';
import { staticSet } from './dotnet-static.js';
import { setMember } from './members.js';
import { Hashtable, PsError, PsObject, toNum, toStr, unwrap, type PsValue } from './values.js';
import { binary } from './operators.js';

export async function assign(ps: Ps, s: Extract<Stmt, { t: 'assign' }>): Promise<PsValue> {
  // `$x ??= v` assigns, and evaluates v, only when $x is $null (PowerShell 7).
  if (s.op === '??=') {
    const cur = await ps.eval(s.target);
    if (cur !== null && cur !== undefined) return cur;
  }
  const vals: PsValue[] = [];
  if (s.value.t === 'pipeline') {
    const p = s.value.p;
    // `$x = expr` keeps an array as one value; `$x = cmd` collects the output.
    if (p.elems.length === 1 && p.elems[0].t === 'expr' && !p.assign && !p.chain) vals.push(await ps.eval(p.elems[0].expr));
    else await ps.runPipeline(p, { emit: (v) => vals.push(v) });
  } else if (s.value.t === 'assign') vals.push(await ps.assign(s.value));
  else await ps.runStmt(s.value, { emit: (v) => vals.push(v) });
  let value: PsValue = s.value.t === 'pipeline' && s.value.p.elems.length === 1 && s.value.p.elems[0].t === 'expr' && !s.value.p.chain ? vals[0] ?? null : unwrap(vals);
  if (s.op !== '=' && s.op !== '??=') {
    const cur = await ps.eval(s.target);
    value = binary(s.op[0], cur, value);
  }
  await ps.store(s.target, value);
  return value;
}

export async function store(ps: Ps, target: Expr, value: PsValue): Promise<void> {
  switch (target.t) {
    case 'var': ps.setVar(target.name, value); return;
    case 'cast': await ps.store(target.expr, castTo(target.type, value)); return;
    case 'member': {
      const name = typeof target.name === 'string' ? target.name : toStr(await ps.eval(target.name));
      if (target.static && target.obj.t === 'type') { staticSet(target.obj.name, name, value); return; }
      setMember(await ps.eval(target.obj), name, value);
      return;
    }
    case 'index': {
      const obj = await ps.eval(target.obj);
      const idx = await ps.eval(target.index);
      if (obj instanceof Hashtable) { obj.set(idx, value); return; }
      if (Array.isArray(obj)) { let i = toNum(idx); if (i < 0) i += obj.length; obj[i] = value; return; }
      if (obj instanceof PsObject) { obj.setProp(toStr(idx), value); return; }
      throw new PsError('Unable to index into an object of type ' + String(obj) + '.', 'InvalidOperation', 'CannotIndex');
    }
    default: throw new PsError('The assignment expression is not valid. The input to an assignment operator must be an object that is able to accept assignments, such as a variable or a property.', 'ParserError', 'InvalidLeftHandSide');
  }
}

// ---- pipelines
