// PowerShell expressions: literals and expandable strings, variables, arrays and hashtables, member access and
// method calls (instance and static), indexing, casts, and the unary and binary operators.

import type { Expr } from './ast.js';
import type { Ps } from './interp.js';
import { castTo } from './dotnet.js';
import { staticCall, staticMember } from './dotnet-static.js';
import { getMember, invokeMethod } from './members.js';
import { indexInto, matchTable } from './runtime.js';
import { exceptionObject, isExceptionType } from './exceptions.js';
import { enumerate, Hashtable, PsError, ScriptBlock, toBool, toNum, toStr, TypeRef, unwrap, type PsValue } from './values.js';
import { binary } from './operators.js';

export async function evaluate(ps: Ps, e: Expr): Promise<PsValue> {
  switch (e.t) {
    case 'num': return e.v;
    case 'str': return e.v;
    case 'estr': {
      let s = '';
      for (const p of e.parts) s += typeof p === 'string' ? p : toStr(await ps.eval(p));
      return s;
    }
    case 'var': return ps.getVar(e.name);
    case 'array': {
      const out: PsValue[] = [];
      for (const it of e.items) out.push(await ps.eval(it));
      return out;
    }
    case 'arrayexpr': {
      const vals: PsValue[] = [];
      await ps.runBlock(e.body, { emit: (v) => vals.push(v) });
      return vals;
    }
    case 'sub': {
      const vals: PsValue[] = [];
      await ps.runBlock(e.body, { emit: (v) => vals.push(v) });
      return unwrap(vals);
    }
    case 'paren': {
      if (e.pipeline.assign) return ps.assign(e.pipeline.assign);
      if (e.pipeline.elems.length === 1 && e.pipeline.elems[0].t === 'expr') return ps.eval(e.pipeline.elems[0].expr);
      return ps.pipelineValue(e.pipeline);
    }
    case 'hash': {
      const h = new Hashtable();
      for (const [k, v] of e.entries) h.set(await ps.eval(k), await ps.eval(v));
      return h;
    }
    case 'block': return new ScriptBlock(e.body, e.params, ps.src.slice(e.pos + 1, e.end - 1));
    case 'type': return new TypeRef(e.name);
    case 'cast': return castTo(e.type, await ps.eval(e.expr));
    case 'member': {
      const name = typeof e.name === 'string' ? e.name : toStr(await ps.eval(e.name));
      if (e.static && e.obj.t === 'type') return staticMember(e.obj.name, name, ps.ctx);
      const obj = await ps.eval(e.obj);
      return getMember(obj, name) ?? null;
    }
    case 'invoke': {
      const args: PsValue[] = [];
      for (const a of e.args) args.push(await ps.eval(a));
      if (e.static && e.obj.t === 'type' && e.name.toLowerCase() === 'new' && isExceptionType(e.obj.name)) {
        return exceptionObject(e.obj.name, args.length ? toStr(args[0]) : undefined, args[1] ?? null);
      }
      if (e.static && e.obj.t === 'type') return staticCall(e.obj.name, e.name, args, ps.ctx, ps);
      const obj = await ps.eval(e.obj);
      try {
        return await invokeMethod(obj, e.name, args);
      } catch (err) {
        if (err instanceof PsError && err.pos === undefined) { err.pos = e.pos; err.end = e.end; }
        throw err;
      }
    }
    case 'index': {
      const obj = await ps.eval(e.obj);
      const idx = await ps.eval(e.index);
      return indexInto(obj, idx);
    }
    case 'unary': {
      const v = await ps.eval(e.expr);
      switch (e.op) {
        case 'not': return !toBool(v);
        case 'bnot': return ~toNum(v);
        case '-': return -toNum(v);
        case '+': return toNum(v);
        case 'split': return toStr(v).split(/\s+/).filter(Boolean);
        case 'join': return enumerate(v).map(toStr).join('');
      }
      return v;
    }
    case 'ternary': return toBool(await ps.eval(e.cond)) ? ps.eval(e.then) : ps.eval(e.else);
    case 'binary': {
      // `a ?? b` evaluates b only when a is $null (about_Operators, Null-coalescing operator).
      if (e.op === '??') { const a = await ps.eval(e.left); return a === null || a === undefined ? ps.eval(e.right) : a; }
      if (e.op === 'and' || e.op === 'cand') return toBool(await ps.eval(e.left)) && toBool(await ps.eval(e.right));
      if (e.op === 'or' || e.op === 'cor') return toBool(await ps.eval(e.left)) || toBool(await ps.eval(e.right));
      if (e.op === 'xor') return toBool(await ps.eval(e.left)) !== toBool(await ps.eval(e.right));
      const a = await ps.eval(e.left);
      const b = await ps.eval(e.right);
      if (e.op === 'as') return convertAs(a, b);
      try {
        return binary(e.op, a, b, (m, pattern) => { ps.matches = m ? matchTable(m, pattern) : ps.matches; });
      } catch (err) {
        if (err instanceof PsError && err.pos === undefined) { err.pos = e.pos; err.end = e.end; }
        throw err;
      }
    }
    case 'incdec': {
      const cur = toNum(await ps.eval(e.target));
      const next = e.op === '++' ? cur + 1 : cur - 1;
      await ps.store(e.target, next);
      return e.prefix ? next : cur;
    }
  }
}

/** `-as [type]`: the conversion, or $null when it fails (instead of the cast's error). */
function convertAs(v: PsValue, type: PsValue): PsValue {
  try {
    return castTo(type instanceof TypeRef ? type.name : toStr(type), v);
  } catch (err) {
    if (err instanceof PsError) return null;
    throw err;
  }
}
