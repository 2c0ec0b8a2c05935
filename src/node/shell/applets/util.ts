// Helpers shared by the BusyBox and GNU applets: option parsing with GNU-style permutation, error reporting,
// mode strings and the date formats of ls, date and tar.

import type { Ctx } from '../core/ctx.js';
import { errText, type Libc } from '../core/errno.js';
import type { FsNode } from '../fs/vfs.js';

export type Flavour = 'busybox' | 'gnu';
export type Applet = (argv: string[], ctx: Ctx, flavour: Flavour) => Promise<number>;

export function libcOf(ctx: Ctx, flavour: Flavour): Libc {
  return flavour === 'busybox' && ctx.env.toolset === 'alpine' ? 'musl' : 'glibc';
}

export function fsMsg(ctx: Ctx, flavour: Flavour, e: unknown): string {
  return errText(e, libcOf(ctx, flavour));
}

export function progName(argv: string[]): string {
  return (argv[0] ?? '').replace(/^.*\//, '');
}

export interface Opts {
  flags: Set<string>;
  values: Map<string, string[]>;
  args: string[];
}

/**
 * getopt with permutation: `spec` lists short letters, `x:` taking a value; `long` maps long names to letters
 * (`name:` takes a value). Returns the bad option's text on error.
 */
export function getopt(args: string[], spec: string, long: Record<string, string> = {}): Opts | { bad: string; long?: boolean } {
  const takes = new Set<string>();
  const letters = new Set<string>();
  for (let i = 0; i < spec.length; i++) {
    if (spec[i] === ':') continue;
    letters.add(spec[i]);
    if (spec[i + 1] === ':') takes.add(spec[i]);
  }
  const o: Opts = { flags: new Set(), values: new Map(), args: [] };
  const put = (k: string, v?: string) => {
    o.flags.add(k);
    if (v !== undefined) o.values.set(k, [...(o.values.get(k) ?? []), v]);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') { o.args.push(...args.slice(i + 1)); break; }
    if (a.startsWith('--') && a.length > 2) {
      const [name, val] = a.slice(2).split(/=(.*)/s, 2);
      const key = Object.keys(long).find((k) => k.replace(/:$/, '') === name);
      if (!key) return { bad: a, long: true };
      const letter = long[key];
      if (key.endsWith(':')) put(letter, val ?? args[++i]);
      else put(letter);
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && !/^-\d+$/.test(a) || (a.startsWith('-') && a.length > 1 && letters.has(a[1]))) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        if (!letters.has(c)) return { bad: c };
        if (takes.has(c)) {
          const rest = a.slice(j + 1);
          const v = rest || args[++i];
          if (v === undefined) return { bad: `${c}:missing` };
          put(c, v);
          break;
        }
        put(c);
      }
      continue;
    }
    o.args.push(a);
  }
  return o;
}

/** Reports a bad option the way each implementation does; returns the exit status. */
export function badOption(ctx: Ctx, flavour: Flavour, name: string, r: { bad: string; long?: boolean }, gnuStatus = 1): number {
  if (r.bad.endsWith(':missing')) {
    ctx.stderr.write(`${name}: option requires an argument -- '${r.bad[0]}'\n`);
  } else if (r.long) {
    ctx.stderr.write(flavour === 'gnu' ? `${name}: unrecognized option '${r.bad}'\n` : `${name}: unrecognized option '${r.bad}'\n`);
  } else {
    ctx.stderr.write(`${name}: invalid option -- '${r.bad}'\n`);
  }
  ctx.stderr.write(flavour === 'gnu' ? `Try '${name} --help' for more information.\n` : 'BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n');
  return flavour === 'gnu' ? gnuStatus : 1;
}

export function modeString(n: FsNode): string {
  const t = n.kind === 'dir' ? 'd' : n.kind === 'symlink' ? 'l' : '-';
  const m = n.mode;
  const rwx = (shift: number, special: number, ch: string) => {
    const r = (m >> shift) & 4 ? 'r' : '-';
    const w = (m >> shift) & 2 ? 'w' : '-';
    const x = (m >> shift) & 1;
    const s = m & special;
    const xc = s ? (x ? ch : ch.toUpperCase()) : x ? 'x' : '-';
    return r + w + xc;
  };
  return t + rwx(6, 0o4000, 's') + rwx(3, 0o2000, 's') + rwx(0, 0o1000, 't');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** `Jan  1 00:00`, or `Jan  1  2023` when older than six months or in the future (ls -l). */
export function lsDate(ms: number, now: number): string {
  const d = new Date(ms);
  const recent = ms <= now + 60_000 && now - ms < 182.5 * 86400_000;
  const md = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)}`;
  return recent ? `${md} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}` : `${md}  ${d.getUTCFullYear()}`;
}

/** `date` default output in UTC: `Mon Jan  1 00:00:00 UTC 2024`. */
export function dateDefault(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** strftime for `date +FORMAT` (UTC). */
export function strftime(fmt: string, ms: number): string {
  const d = new Date(ms);
  return fmt.replace(/%([a-zA-Z%])/g, (_, c: string) => {
    switch (c) {
      case 'Y': return String(d.getUTCFullYear());
      case 'y': return p2(d.getUTCFullYear() % 100);
      case 'm': return p2(d.getUTCMonth() + 1);
      case 'd': return p2(d.getUTCDate());
      case 'e': return String(d.getUTCDate()).padStart(2);
      case 'H': return p2(d.getUTCHours());
      case 'M': return p2(d.getUTCMinutes());
      case 'S': return p2(d.getUTCSeconds());
      case 'N': return String(d.getUTCMilliseconds() * 1_000_000).padStart(9, '0');
      case 's': return String(Math.floor(ms / 1000));
      case 'a': return DAYS[d.getUTCDay()];
      case 'A': return ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][d.getUTCDay()];
      case 'b': case 'h': return MONTHS[d.getUTCMonth()];
      case 'B': return ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][d.getUTCMonth()];
      case 'Z': return 'UTC';
      case 'z': return '+0000';
      case 'j': return String(Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400_000) + 1).padStart(3, '0');
      case 'u': return String(d.getUTCDay() || 7);
      case 'w': return String(d.getUTCDay());
      case 'F': return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
      case 'T': return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
      case 'D': return `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${p2(d.getUTCFullYear() % 100)}`;
      case 'R': return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`;
      case 'c': return dateDefault(ms).replace(' UTC', '');
      case 'n': return '\n';
      case 't': return '\t';
      case '%': return '%';
      default: return `%${c}`;
    }
  });
}

/** Reads the named files (or stdin for none / `-`), reporting unreadable ones; returns contents and failure. */
export async function readInputs(ctx: Ctx, flavour: Flavour, name: string, files: string[]): Promise<{ data: { name: string; buf: Buffer }[]; failed: boolean }> {
  const data: { name: string; buf: Buffer }[] = [];
  let failed = false;
  if (files.length === 0) files = ['-'];
  for (const f of files) {
    if (f === '-') { data.push({ name: '-', buf: await ctx.stdin.readAll() }); continue; }
    try {
      data.push({ name: f, buf: ctx.env.fs.readFile(ctx.env.fs.resolve(ctx.cwd, f), ctx.cred) });
    } catch (e) {
      failed = true;
      ctx.stderr.write(flavour === 'busybox' ? `${name}: can't open '${f}': ${fsMsg(ctx, flavour, e)}\n` : `${name}: ${f}: ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  return { data, failed };
}

export function splitLines(buf: Buffer | string): string[] {
  const s = typeof buf === 'string' ? buf : buf.toString();
  if (s === '') return [];
  const lines = s.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
