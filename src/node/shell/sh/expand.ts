// Word expansion in POSIX order: tilde, parameters, command substitution and arithmetic, then field splitting of
// unquoted results on IFS, pathname expansion of unquoted patterns, and quote removal.

import type { List, Word, WordPart } from './ast.js';
import { evalArith } from './arith.js';
import { escapeGlob, globPaths, hasGlob, matchPattern, patternSource, unescapePattern } from './glob.js';
import type { VirtualFs } from '../fs/vfs.js';

/** What expansion needs from the shell. */
export interface ExpandHost {
  getVar(name: string): string | undefined;
  setVar(name: string, value: string): void;
  positional(): string[];
  special(name: string): string | undefined;
  commandSubst(body: List): Promise<string>;
  home(user?: string): string | undefined;
  nounset: boolean;
  noglob: boolean;
  fs: VirtualFs;
  cwd: string;
}

/** An error expansion raises (${x?msg}, set -u); the shell prints it and the command fails. */
export class ExpansionError extends Error {
  constructor(message: string, readonly status = 1) { super(message); }
}

/** A piece of an expanded word: `split` = came from an unquoted expansion; `glob` = may act as a pattern. */
interface Chunk { s: string; split: boolean; glob: boolean }
type Piece = Chunk | 'break';

async function paramValue(h: ExpandHost, name: string): Promise<string | undefined> {
  if (/^[0-9]+$/.test(name)) {
    const n = Number(name);
    return n === 0 ? h.special('0') : h.positional()[n - 1];
  }
  if (name === '@' || name === '*') return h.positional().join(name === '*' ? (h.getVar('IFS') ?? ' \t\n').slice(0, 1) : ' ');
  if (name.length === 1 && '#?$!-'.includes(name)) return h.special(name);
  return h.getVar(name);
}

/** Expands a word to one string (assignments, redirection targets, ${x:-word} arguments, case subjects). */
export async function expandString(h: ExpandHost, w: Word | undefined): Promise<string> {
  if (!w) return '';
  const pieces = await expandParts(h, w.parts, false);
  return pieces.map((p) => (p === 'break' ? ' ' : p.s)).join('');
}

/** Expands a word to a pattern: quoted text is escaped so it matches literally. */
export async function expandPattern(h: ExpandHost, w: Word | undefined): Promise<string> {
  if (!w) return '';
  const pieces = await expandParts(h, w.parts, false);
  return pieces.map((p) => (p === 'break' ? ' ' : p.glob ? p.s : escapeGlob(p.s))).join('');
}

function trimPattern(value: string, pattern: string, op: string): string {
  const greedy = op === '##' || op === '%%';
  if (op === '#' || op === '##') {
    const re = new RegExp(`^${patternSource(pattern, greedy)}`, 's');
    if (!greedy) {
      for (let i = 0; i <= value.length; i++) if (matchPattern(pattern, value.slice(0, i))) return value.slice(i);
      return value;
    }
    const m = re.exec(value);
    if (!m) return value;
    for (let i = value.length; i >= 0; i--) if (matchPattern(pattern, value.slice(0, i))) return value.slice(i);
    return value;
  }
  if (greedy) {
    for (let i = 0; i <= value.length; i++) if (matchPattern(pattern, value.slice(i))) return value.slice(0, i);
    return value;
  }
  for (let i = value.length; i >= 0; i--) if (matchPattern(pattern, value.slice(i))) return value.slice(0, i);
  return value;
}

async function expandParam(h: ExpandHost, p: Extract<WordPart, { t: 'param' }>): Promise<Piece[]> {
  const { name, op, q } = p;
  if (name === '@' && q && !op) {
    const pos = h.positional();
    const out: Piece[] = [];
    pos.forEach((s, i) => {
      if (i > 0) out.push('break');
      out.push({ s, split: false, glob: false });
    });
    return out.length ? out : ['break-empty' as unknown as Piece].filter(() => false);
  }
  let value = await paramValue(h, name);
  const chunk = (s: string): Piece[] => [{ s, split: !q, glob: !q }];
  if (op === 'len') return [{ s: String((value ?? '').length), split: !q, glob: false }];
  if (!op) {
    if (value === undefined && h.nounset && !/^[@*]$/.test(name)) throw new ExpansionError(`${name}: parameter not set`);
    return chunk(value ?? '');
  }
  const colon = op.startsWith(':') && op.length === 2;
  const unsetish = value === undefined || (colon && value === '');
  switch (op) {
    case '-': case ':-':
      return unsetish ? expandParts(h, p.arg?.parts ?? [], q) : chunk(value!);
    case '=': case ':=':
      if (unsetish) {
        value = await expandString(h, p.arg);
        h.setVar(name, value);
      }
      return chunk(value!);
    case '+': case ':+':
      return unsetish ? [] : expandParts(h, p.arg?.parts ?? [], q);
    case '?': case ':?':
      if (unsetish) {
        const msg = await expandString(h, p.arg);
        throw new ExpansionError(`${name}: ${msg || (colon ? 'parameter null or not set' : 'parameter not set')}`);
      }
      return chunk(value!);
    case '#': case '##': case '%': case '%%':
      return chunk(trimPattern(value ?? '', await expandPattern(h, p.arg), op));
    case '/': case '//': {
      const pat = await expandPattern(h, p.arg);
      const rep = await expandString(h, p.arg2);
      const v = value ?? '';
      if (!pat) return chunk(v);
      const re = new RegExp(patternSource(pat.replace(/^[#%]/, '')), op === '//' ? 'gs' : 's');
      if (pat.startsWith('#')) return chunk(v.replace(new RegExp(`^${re.source}`, 's'), rep));
      if (pat.startsWith('%')) return chunk(v.replace(new RegExp(`${re.source}$`, 's'), rep));
      return chunk(v.replace(re, () => rep));
    }
    case ':': {
      const v = value ?? '';
      const vars = { get: (n: string) => h.getVar(n), set: (n: string, x: string) => h.setVar(n, x) };
      let off = evalArith(await expandString(h, p.arg), vars);
      if (off < 0) off = Math.max(0, v.length + off);
      const len = p.arg2 ? evalArith(await expandString(h, p.arg2), vars) : undefined;
      return chunk(len === undefined ? v.slice(off) : len < 0 ? v.slice(off, v.length + len) : v.slice(off, off + len));
    }
  }
  return chunk(value ?? '');
}

async function expandParts(h: ExpandHost, parts: WordPart[], inQuotes: boolean): Promise<Piece[]> {
  const out: Piece[] = [];
  for (let idx = 0; idx < parts.length; idx++) {
    const p = parts[idx];
    switch (p.t) {
      case 'lit': {
        let s = p.s;
        if (idx === 0 && !p.q && !inQuotes && s.startsWith('~')) {
          const m = /^~([A-Za-z0-9_.-]*)(?=\/|$)/.exec(s);
          if (m) {
            const home = h.home(m[1] || undefined);
            if (home !== undefined) {
              out.push({ s: home, split: false, glob: false });
              s = s.slice(m[0].length);
            }
          }
        }
        if (s) out.push({ s, split: false, glob: !p.q && !inQuotes });
        break;
      }
      case 'param':
        out.push(...await expandParam(h, { ...p, q: p.q || inQuotes }));
        break;
      case 'cmd': {
        const s = (await h.commandSubst(p.body)).replace(/\n+$/, '');
        out.push({ s, split: !p.q && !inQuotes, glob: !p.q && !inQuotes });
        break;
      }
      case 'arith': {
        const expr = await expandString(h, p.expr);
        const v = evalArith(expr, { get: (n) => h.getVar(n), set: (n, x) => h.setVar(n, x) });
        out.push({ s: String(v), split: !p.q && !inQuotes, glob: false });
        break;
      }
    }
  }
  return out;
}

/** Expands a word into fields (argv entries). */
export async function expandWord(h: ExpandHost, w: Word): Promise<string[]> {
  const pieces = await expandParts(h, w.parts, false);
  const ifs = h.getVar('IFS') ?? ' \t\n';
  const ifsWhite = ifs.replace(/[^ \t\n]/g, '');
  type Field = { text: string; pattern: string; hasText: boolean };
  const fields: Field[] = [];
  let cur: Field | undefined;
  const start = () => (cur ??= { text: '', pattern: '', hasText: false });
  const finish = () => {
    if (cur) fields.push(cur);
    cur = undefined;
  };
  for (const p of pieces) {
    if (p === 'break') { start(); cur!.hasText = true; finish(); start(); cur!.hasText = true; continue; }
    if (!p.split || ifs === '') {
      const f = start();
      f.text += p.s;
      f.pattern += p.glob ? p.s : escapeGlob(p.s);
      f.hasText = true;
      continue;
    }
    let i = 0;
    const s = p.s;
    while (i < s.length) {
      const c = s[i];
      if (ifs.includes(c)) {
        if (ifsWhite.includes(c)) {
          while (i < s.length && ifsWhite.includes(s[i])) i++;
          if (i < s.length && ifs.includes(s[i]) && !ifsWhite.includes(s[i])) {
            start();
            finish();
            i++;
            while (i < s.length && ifsWhite.includes(s[i])) i++;
          } else finish();
        } else {
          start();
          finish();
          i++;
          while (i < s.length && ifsWhite.includes(s[i])) i++;
        }
        continue;
      }
      const f = start();
      f.text += c;
      f.pattern += p.glob ? c : escapeGlob(c);
      f.hasText = true;
      i++;
    }
  }
  finish();
  const result: string[] = [];
  const atOnly = w.parts.length === 1 && w.parts[0].t === 'param' && w.parts[0].name === '@' && w.parts[0].q;
  for (const f of fields) {
    if (!f.hasText && f.text === '') continue;
    if (!h.noglob && hasGlob(f.pattern)) {
      const matches = globPaths(h.fs, h.cwd, f.pattern);
      if (matches.length) { result.push(...matches); continue; }
      result.push(unescapePattern(f.pattern));
      continue;
    }
    result.push(f.text);
  }
  if (result.length === 0 && w.quoted && !atOnly && fields.length === 0) result.push('');
  return result;
}

