// `test` / `[` expressions: file tests against the container's files, string and integer comparisons, ! -a -o and
// parentheses, with POSIX's argument-count rules handled by precedence parsing.

import type { Ctx } from '../core/ctx.js';
import type { Output } from '../core/streams.js';

class TestError extends Error {}

const UNARY = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-z', '-n', '-L', '-h', '-p', '-S', '-b', '-c', '-t', '-g', '-u', '-k', '-O', '-G']);
const BINARY = new Set(['=', '==', '!=', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef', '<', '>']);

function int(s: string, style: 'ash' | 'bash' | 'dash'): number {
  const t = s.trim();
  if (!/^[+-]?\d+$/.test(t)) {
    throw new TestError(style === 'bash' ? `${s}: integer expression expected` : style === 'dash' ? `Illegal number: ${s}` : `invalid number '${s}'`);
  }
  return Number(t);
}

function fileTest(op: string, arg: string, ctx: Pick<Ctx, 'env' | 'cwd' | 'cred'>): boolean {
  const fs = ctx.env.fs;
  const path = fs.resolve(ctx.cwd, arg);
  if (op === '-L' || op === '-h') return fs.lstat(path)?.kind === 'symlink';
  if (op === '-t') return false;
  const n = arg === '' ? undefined : fs.stat(path);
  if (!n) return false;
  switch (op) {
    case '-e': return true;
    case '-f': return n.kind === 'file';
    case '-d': return n.kind === 'dir';
    case '-s': return n.kind === 'dir' || (n.kind === 'file' && (n.generate ? n.generate() : n.data).length > 0);
    case '-r': return fs.canRead(n, ctx.cred);
    case '-w': return !fs.isReadOnly(path) && (ctx.cred.uid === 0 || ((n.mode & 0o222) !== 0 && n.uid === ctx.cred.uid));
    case '-x': return fs.canExec(n, ctx.cred);
    case '-u': return (n.mode & 0o4000) !== 0;
    case '-g': return (n.mode & 0o2000) !== 0;
    case '-k': return (n.mode & 0o1000) !== 0;
    case '-O': return n.uid === ctx.cred.uid;
    case '-G': return ctx.cred.gids.includes(n.gid);
    default: return false;
  }
}

export function evaluateTest(args: string[], ctx: Pick<Ctx, 'env' | 'cwd' | 'cred'>, style: 'ash' | 'bash' | 'dash' = 'ash'): boolean {
  let i = 0;
  const peek = (o = 0) => args[i + o];
  const primary = (): boolean => {
    const a = peek();
    if (a === undefined) throw new TestError('argument expected');
    if (a === '(' && args.length - i >= 3) {
      i++;
      const v = orExpr();
      if (peek() !== ')') throw new TestError("')' expected");
      i++;
      return v;
    }
    if (peek(1) !== undefined && BINARY.has(peek(1)!) && peek(2) !== undefined) {
      const l = a;
      const op = peek(1)!;
      const r = peek(2)!;
      i += 3;
      switch (op) {
        case '=': case '==': return l === r;
        case '!=': return l !== r;
        case '<': return l < r;
        case '>': return l > r;
        case '-eq': return int(l, style) === int(r, style);
        case '-ne': return int(l, style) !== int(r, style);
        case '-lt': return int(l, style) < int(r, style);
        case '-le': return int(l, style) <= int(r, style);
        case '-gt': return int(l, style) > int(r, style);
        case '-ge': return int(l, style) >= int(r, style);
        case '-nt': case '-ot': case '-ef': {
          const fs = ctx.env.fs;
          const a1 = fs.stat(fs.resolve(ctx.cwd, l));
          const b1 = fs.stat(fs.resolve(ctx.cwd, r));
          if (op === '-ef') return !!a1 && a1 === b1;
          if (!a1 || !b1) return op === '-nt' ? !!a1 : !!b1;
          return op === '-nt' ? a1.mtimeMs > b1.mtimeMs : a1.mtimeMs < b1.mtimeMs;
        }
      }
    }
    if (UNARY.has(a) && peek(1) !== undefined) {
      const arg = peek(1)!;
      i += 2;
      if (a === '-z') return arg === '';
      if (a === '-n') return arg !== '';
      return fileTest(a, arg, ctx);
    }
    i++;
    return a !== '';
  };
  const notExpr = (): boolean => {
    if (peek() === '!' && args.length - i > 1) { i++; return !notExpr(); }
    return primary();
  };
  const andExpr = (): boolean => {
    let v = notExpr();
    while (peek() === '-a') { i++; const r = notExpr(); v = v && r; }
    return v;
  };
  function orExpr(): boolean {
    let v = andExpr();
    while (peek() === '-o') { i++; const r = andExpr(); v = v || r; }
    return v;
  }
  if (args.length === 0) return false;
  const v = orExpr();
  if (i < args.length) throw new TestError(style === 'bash' ? 'too many arguments' : `${args[i]}: unexpected operator`);
  return v;
}

/** Runs a test; 0 true, 1 false, 2 on a usage error (written to stderr after `prefix`). */
export function testExpr(args: string[], ctx: Pick<Ctx, 'env' | 'cwd' | 'cred'>, stderr: Output, prefix: string, style: 'ash' | 'bash' | 'dash' = 'ash'): number {
  try {
    return evaluateTest(args, ctx, style) ? 0 : 1;
  } catch (e) {
    if (!(e instanceof TestError)) throw e;
    stderr.write(`${prefix}${e.message}\n`);
    return 2;
  }
}
