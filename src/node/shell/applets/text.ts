// Text applets: head, tail, wc, grep, sort, uniq, tr, cut, tee, seq, yes, rev, tac, base64 and checksums.

import { createHash } from 'node:crypto';
import { untilAborted, yieldNow } from '../core/ctx.js';
import { FileOutput } from '../sh/redirect.js';
import type { Output } from '../core/streams.js';
import { compilePosix } from './regex.js';
import { badOption, fsMsg, getopt, progName, readInputs, splitLines, type Applet } from './util.js';

/** Accepts the historical `-5` form as `-n 5`. */
function numericShort(args: string[]): string[] {
  return args.map((a) => (/^-\d+$/.test(a) ? `-n${a.slice(1)}` : a));
}

export const head: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(numericShort(argv.slice(1)), 'n:c:qv', { 'lines:': 'n', 'bytes:': 'c' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const { data, failed } = await readInputs(ctx, flavour, name, o.args);
  for (const [i, d] of data.entries()) {
    if (data.length > 1) ctx.stdout.write(`${i ? '\n' : ''}==> ${d.name === '-' ? 'standard input' : d.name} <==\n`);
    if (o.values.has('c')) { ctx.stdout.write(d.buf.subarray(0, Number(o.values.get('c')![0]))); continue; }
    const n = Number(o.values.get('n')?.[0] ?? 10);
    const text = d.buf.toString();
    let idx = 0;
    for (let k = 0; k < n && idx >= 0; k++) { idx = text.indexOf('\n', idx); if (idx >= 0) idx++; }
    ctx.stdout.write(idx < 0 ? text : text.slice(0, idx));
  }
  return failed ? 1 : 0;
};

export const tail: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const args = numericShort(argv.slice(1)).map((a) => a.replace(/^-c\+/, '-c+').replace(/^-n\+/, '-n+'));
  const o = getopt(args, 'n:c:fFqv', { 'lines:': 'n', 'bytes:': 'c', follow: 'f' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const { data, failed } = await readInputs(ctx, flavour, name, o.args);
  for (const d of data) {
    const c = o.values.get('c')?.[0];
    if (c !== undefined) {
      ctx.stdout.write(c.startsWith('+') ? d.buf.subarray(Math.max(0, Number(c.slice(1)) - 1)) : d.buf.subarray(Math.max(0, d.buf.length - Number(c))));
      continue;
    }
    const nRaw = o.values.get('n')?.[0] ?? '10';
    const lines = d.buf.toString().split('\n');
    const trailing = lines[lines.length - 1] === '';
    if (trailing) lines.pop();
    const picked = nRaw.startsWith('+') ? lines.slice(Math.max(0, Number(nRaw.slice(1)) - 1)) : lines.slice(Math.max(0, lines.length - Number(nRaw)));
    ctx.stdout.write(picked.join('\n') + (picked.length && trailing ? '\n' : ''));
  }
  if (o.flags.has('f') || o.flags.has('F')) await untilAborted(ctx.signal);
  return failed ? 1 : 0;
};

export const wc: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'lwcmL', { lines: 'l', words: 'w', bytes: 'c', chars: 'm' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const { data, failed } = await readInputs(ctx, flavour, name, o.args);
  const want = ['l', 'w', 'c'].filter((k) => o.flags.has(k) || (k === 'c' && o.flags.has('m')));
  const cols = want.length ? want : ['l', 'w', 'c'];
  const rows = data.map((d) => {
    const s = d.buf.toString();
    const counts: Record<string, number> = { l: (s.match(/\n/g) ?? []).length, w: s.split(/\s+/).filter(Boolean).length, c: d.buf.length };
    return { name: d.name === '-' ? '' : d.name, counts };
  });
  if (rows.length > 1) rows.push({ name: 'total', counts: Object.fromEntries(cols.map((k) => [k, rows.reduce((n, r) => n + r.counts[k], 0)])) });
  const single = cols.length === 1 && rows.length === 1;
  const width = flavour === 'busybox' ? 9 : single ? 0 : data.some((d) => d.name === '-') ? 7 : Math.max(...rows.map((r) => Math.max(...cols.map((k) => String(r.counts[k]).length))));
  for (const r of rows) {
    const nums = cols.map((k) => (flavour === 'busybox' && single && !r.name ? String(r.counts[k]) : String(r.counts[k]).padStart(width)));
    ctx.stdout.write(`${nums.join(' ')}${r.name ? ` ${r.name}` : ''}\n`);
  }
  return failed ? 1 : 0;
};

export const grep: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'ivcnqsEFolLwxhHe:rRA:B:C:m:', { 'ignore-case': 'i', 'invert-match': 'v', count: 'c', quiet: 'q', silent: 'q', 'extended-regexp': 'E', 'fixed-strings': 'F', 'regexp:': 'e', recursive: 'r', 'line-number': 'n' });
  if ('bad' in o) return badOption(ctx, flavour, name, o, 2);
  const f = o.flags;
  const args = [...o.args];
  const patterns = o.values.get('e') ?? (args.length ? [args.shift()!] : undefined);
  if (!patterns) {
    ctx.stderr.write(flavour === 'gnu' ? `Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n` : 'BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n\nUsage: grep [-HhnlLoqvsrRiwFE] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...\n');
    return 2;
  }
  const extended = f.has('E') || name === 'egrep';
  const fixed = f.has('F') || name === 'fgrep';
  let res: RegExp[];
  try {
    res = patterns.flatMap((p) => p.split('\n')).map((p) => {
      let src = fixed ? p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : compilePosix(p, extended, '').source;
      if (f.has('w')) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
      if (f.has('x')) src = `^(?:${src})$`;
      return new RegExp(src, f.has('i') ? 'gi' : 'g');
    });
  } catch {
    ctx.stderr.write(`${name}: bad regex '${patterns[0]}'\n`);
    return 2;
  }
  const { data, failed } = await readInputs(ctx, flavour, name, args);
  const showName = (args.length > 1 || f.has('H')) && !f.has('h');
  let matched = false;
  const maxCount = o.values.has('m') ? Number(o.values.get('m')![0]) : Infinity;
  for (const d of data) {
    const label = d.name === '-' ? '(standard input)' : d.name;
    let count = 0;
    const lines = splitLines(d.buf);
    for (const [i, line] of lines.entries()) {
      if (count >= maxCount) break;
      const hits = res.some((r) => { r.lastIndex = 0; return r.test(line); });
      if (hits === f.has('v')) continue;
      count++;
      matched = true;
      if (f.has('q')) return 0;
      if (f.has('c') || f.has('l') || f.has('L')) continue;
      const prefix = `${showName ? `${label}:` : ''}${f.has('n') ? `${i + 1}:` : ''}`;
      if (f.has('o') && !f.has('v')) {
        for (const r of res) { r.lastIndex = 0; for (const m of line.matchAll(r)) if (m[0]) ctx.stdout.write(`${prefix}${m[0]}\n`); }
      } else ctx.stdout.write(`${prefix}${line}\n`);
    }
    if (f.has('c')) ctx.stdout.write(`${showName ? `${label}:` : ''}${count}\n`);
    if (f.has('l') && count) ctx.stdout.write(`${label}\n`);
    if (f.has('L') && !count) ctx.stdout.write(`${label}\n`);
  }
  if (failed && !f.has('s')) return 2;
  return matched ? 0 : failed ? 2 : 1;
};

export const sort: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'nrufk:t:bhVs', { numeric: 'n', reverse: 'r', unique: 'u' });
  if ('bad' in o) return badOption(ctx, flavour, name, o, 2);
  const { data, failed } = await readInputs(ctx, flavour, name, o.args);
  let lines = data.flatMap((d) => splitLines(d.buf));
  const sep = o.values.get('t')?.[0];
  const keyField = o.values.get('k')?.[0];
  const key = (l: string) => {
    let k = l;
    if (keyField) {
      const n = parseInt(keyField, 10);
      const parts = sep ? l.split(sep) : l.trim().split(/\s+/);
      k = parts.slice(n - 1).join(sep ?? ' ');
    }
    return o.flags.has('f') ? k.toUpperCase() : k;
  };
  const cmp = o.flags.has('n') || o.flags.has('h')
    ? (a: string, b: string) => (parseFloat(key(a)) || 0) - (parseFloat(key(b)) || 0) || (a < b ? -1 : a > b ? 1 : 0)
    : (a: string, b: string) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  lines.sort(cmp);
  if (o.flags.has('r')) lines.reverse();
  if (o.flags.has('u')) lines = lines.filter((l, i) => i === 0 || cmp(lines[i - 1], l) !== 0);
  ctx.stdout.write(lines.map((l) => `${l}\n`).join(''));
  return failed ? 2 : 0;
};

export const uniq: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'cdui');
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const { data, failed } = await readInputs(ctx, flavour, name, o.args.slice(0, 1));
  const lines = data.flatMap((d) => splitLines(d.buf));
  const groups: [string, number][] = [];
  for (const l of lines) {
    const last = groups[groups.length - 1];
    if (last && (o.flags.has('i') ? last[0].toLowerCase() === l.toLowerCase() : last[0] === l)) last[1]++;
    else groups.push([l, 1]);
  }
  for (const [l, n] of groups) {
    if (o.flags.has('d') && n < 2) continue;
    if (o.flags.has('u') && n > 1) continue;
    ctx.stdout.write(o.flags.has('c') ? `${String(n).padStart(7)} ${l}\n` : `${l}\n`);
  }
  return failed ? 1 : 0;
};

function expandSet(s: string): string {
  const classes: Record<string, string> = { lower: 'abcdefghijklmnopqrstuvwxyz', upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', digit: '0123456789', space: ' \t\n\r\f\v', blank: ' \t', alpha: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', alnum: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' };
  let t = s.replace(/\[:(\w+):\]/g, (_, c: string) => classes[c] ?? '');
  t = t.replace(/\\(n|t|r|\\|[0-7]{1,3})/g, (_, e: string) => (e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === '\\' ? '\\' : String.fromCharCode(parseInt(e, 8))));
  let out = '';
  for (let i = 0; i < t.length; i++) {
    if (t[i + 1] === '-' && i + 2 < t.length) {
      for (let c = t.charCodeAt(i); c <= t.charCodeAt(i + 2); c++) out += String.fromCharCode(c);
      i += 2;
    } else out += t[i];
  }
  return out;
}

export const tr: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'dsc');
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const [a, b] = o.args.map(expandSet);
  if (a === undefined) { ctx.stderr.write(`${name}: missing operand\n`); return 1; }
  const input = (await ctx.stdin.readAll()).toString();
  let out = '';
  let last = '';
  for (const ch of input) {
    let c = ch;
    const inA = a.includes(ch) !== o.flags.has('c');
    if (o.flags.has('d') && inA) continue;
    if (b !== undefined && !o.flags.has('d') && inA) c = b[Math.min(a.indexOf(ch), b.length - 1)] ?? ch;
    if (o.flags.has('s') && c === last && (b ?? a).includes(c)) continue;
    out += c;
    last = c;
  }
  ctx.stdout.write(out);
  return 0;
};

export const cut: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'd:f:c:b:s', { 'delimiter:': 'd', 'fields:': 'f' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const spec = o.values.get('f')?.[0] ?? o.values.get('c')?.[0] ?? o.values.get('b')?.[0];
  if (!spec) { ctx.stderr.write(`${name}: you must specify a list of bytes, characters, or fields\n`); return 1; }
  const ranges = spec.split(',').map((r) => {
    const [s, e] = r.includes('-') ? r.split('-') : [r, r];
    return [s ? Number(s) : 1, e ? Number(e) : Infinity] as [number, number];
  });
  const want = (i: number) => ranges.some(([s, e]) => i >= s && i <= e);
  const delim = o.values.get('d')?.[0] ?? '\t';
  const { data, failed } = await readInputs(ctx, flavour, name, o.args);
  for (const line of data.flatMap((d) => splitLines(d.buf))) {
    if (o.flags.has('f')) {
      if (!line.includes(delim)) { if (!o.flags.has('s')) ctx.stdout.write(`${line}\n`); continue; }
      ctx.stdout.write(`${line.split(delim).filter((_, i) => want(i + 1)).join(delim)}\n`);
    } else ctx.stdout.write(`${[...line].filter((_, i) => want(i + 1)).join('')}\n`);
  }
  return failed ? 1 : 0;
};

export const tee: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'ai', { append: 'a' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const outs: Output[] = [ctx.stdout];
  let status = 0;
  for (const f of o.args) {
    try {
      outs.push(new FileOutput(ctx.env.fs.writeFile(ctx.env.fs.resolve(ctx.cwd, f), '', { append: o.flags.has('a'), cred: ctx.cred })));
    } catch (e) {
      status = 1;
      ctx.stderr.write(`${name}: ${flavour === 'busybox' ? `can't open '${f}'` : f}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  for (let b = await ctx.stdin.read(); b !== null; b = await ctx.stdin.read()) for (const out of outs) out.write(b);
  return status;
};

export const seq: Applet = async (argv, ctx) => {
  const args = argv.slice(1);
  let sep = '\n';
  let width = false;
  const nums: number[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-s') { sep = args[++i]; continue; }
    if (args[i] === '-w') { width = true; continue; }
    nums.push(Number(args[i]));
  }
  const [first, inc, last] = nums.length === 1 ? [1, 1, nums[0]] : nums.length === 2 ? [nums[0], 1, nums[1]] : nums;
  const out: string[] = [];
  const w = width ? String(Math.max(Math.abs(first), Math.abs(last))).length : 0;
  for (let x = first; inc > 0 ? x <= last : x >= last; x += inc) out.push(String(x).padStart(w, '0'));
  if (out.length) ctx.stdout.write(`${out.join(sep)}\n`);
  return 0;
};

export const yes: Applet = async (argv, ctx) => {
  const line = `${argv.slice(1).join(' ') || 'y'}\n`;
  const chunk = line.repeat(Math.max(1, Math.floor(4096 / line.length)));
  for (;;) {
    ctx.stdout.write(chunk);
    await yieldNow(ctx.signal);
    await new Promise<void>((r) => setImmediate(r));
    if (ctx.signal.aborted) return 143;
  }
};

export const rev: Applet = async (argv, ctx, flavour) => {
  const { data, failed } = await readInputs(ctx, flavour, progName(argv), argv.slice(1));
  for (const l of data.flatMap((d) => splitLines(d.buf))) ctx.stdout.write(`${[...l].reverse().join('')}\n`);
  return failed ? 1 : 0;
};

export const tac: Applet = async (argv, ctx, flavour) => {
  const { data, failed } = await readInputs(ctx, flavour, progName(argv), argv.slice(1));
  for (const d of data) ctx.stdout.write(splitLines(d.buf).reverse().map((l) => `${l}\n`).join(''));
  return failed ? 1 : 0;
};

export const base64: Applet = async (argv, ctx, flavour) => {
  const decode = argv.includes('-d') || argv.includes('--decode');
  const { data, failed } = await readInputs(ctx, flavour, progName(argv), argv.slice(1).filter((a) => !a.startsWith('-')));
  const buf = Buffer.concat(data.map((d) => d.buf));
  if (decode) ctx.stdout.write(Buffer.from(buf.toString().replace(/\s/g, ''), 'base64'));
  else ctx.stdout.write(`${(buf.toString('base64').match(/.{1,76}/g) ?? ['']).join('\n')}\n`);
  return failed ? 1 : 0;
};

export const checksum = (algo: string): Applet => async (argv, ctx, flavour) => {
  const files = argv.slice(1).filter((a) => !a.startsWith('-'));
  const { data, failed } = await readInputs(ctx, flavour, progName(argv), files);
  for (const d of data) ctx.stdout.write(`${createHash(algo).update(d.buf).digest('hex')}  ${d.name}\n`);
  return failed ? 1 : 0;
};
