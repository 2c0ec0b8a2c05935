// sed: addresses (line, $, /re/, ranges, !), commands s y p d q = a i c, -n, -e, -E/-r and -i (in place).

import { compilePosix } from './regex.js';
import { badOption, fsMsg, getopt, progName, type Applet } from './util.js';

type Addr = { t: 'line'; n: number } | { t: 'last' } | { t: 're'; re: RegExp };
interface Cmd { a1?: Addr; a2?: Addr; neg: boolean; op: string; re?: RegExp; rep?: string; global?: boolean; print?: boolean; nth?: number; text?: string; from?: string; to?: string; inRange?: boolean }

class SedError extends Error {}

function parseScript(script: string, extended: boolean): Cmd[] {
  const cmds: Cmd[] = [];
  let i = 0;
  const ws = () => { while (i < script.length && /[ \t]/.test(script[i])) i++; };
  const delimited = (d: string): string => {
    let s = '';
    while (i < script.length && script[i] !== d) {
      if (script[i] === '\\' && script[i + 1] === d) { s += d; i += 2; continue; }
      if (script[i] === '\\' && script[i + 1] === 'n') { s += '\n'; i += 2; continue; }
      if (script[i] === '\\') { s += script[i] + (script[i + 1] ?? ''); i += 2; continue; }
      s += script[i++];
    }
    if (script[i] !== d) throw new SedError(`unterminated \`s' command`);
    i++;
    return s;
  };
  const addr = (): Addr | undefined => {
    if (/\d/.test(script[i] ?? '')) { const m = /^\d+/.exec(script.slice(i))!; i += m[0].length; return { t: 'line', n: Number(m[0]) }; }
    if (script[i] === '$') { i++; return { t: 'last' }; }
    if (script[i] === '/' || script[i] === '\\') {
      const d = script[i] === '\\' ? script[++i] : '/';
      i++;
      const re = delimited(d);
      let flags = '';
      if (script[i] === 'I') { flags = 'i'; i++; }
      return { t: 're', re: compilePosix(re, extended, flags) };
    }
    return undefined;
  };
  while (i < script.length) {
    ws();
    if (script[i] === ';' || script[i] === '\n') { i++; continue; }
    if (i >= script.length) break;
    const c: Cmd = { neg: false, op: '' };
    c.a1 = addr();
    if (c.a1 && script[i] === ',') { i++; c.a2 = addr(); }
    ws();
    if (script[i] === '!') { c.neg = true; i++; ws(); }
    c.op = script[i++] ?? '';
    switch (c.op) {
      case 's': {
        const d = script[i++];
        const re = delimited(d);
        c.rep = delimited(d);
        let flags = '';
        while (i < script.length && /[gpiI0-9]/.test(script[i])) {
          const f = script[i++];
          if (f === 'g') c.global = true;
          else if (f === 'p') c.print = true;
          else if (f === 'i' || f === 'I') flags += 'i';
          else c.nth = Number(f);
        }
        c.re = compilePosix(re, extended, `${c.global ? 'g' : ''}${flags}`);
        break;
      }
      case 'y': {
        const d = script[i++];
        c.from = delimited(d);
        c.to = delimited(d);
        break;
      }
      case 'a': case 'i': case 'c': {
        if (script[i] === '\\') i++;
        if (script[i] === '\n') i++;
        ws();
        const end = script.indexOf('\n', i);
        c.text = script.slice(i, end < 0 ? script.length : end);
        i = end < 0 ? script.length : end;
        break;
      }
      case 'p': case 'd': case 'q': case '=': case 'n': case 'P': case 'D': case 'h': case 'g': case 'G': case 'x': case 'N': case '{': case '}':
        break;
      default: throw new SedError(`unknown command: \`${c.op}'`);
    }
    cmds.push(c);
  }
  return cmds;
}

function matches(a: Addr, line: string, n: number, last: boolean): boolean {
  if (a.t === 'line') return n === a.n;
  if (a.t === 'last') return last;
  a.re.lastIndex = 0;
  return a.re.test(line);
}

function substitute(c: Cmd, line: string): { out: string; did: boolean } {
  let did = false;
  let count = 0;
  const out = line.replace(c.re!, (...m: unknown[]) => {
    count++;
    const whole = m[0] as string;
    if (c.nth && count !== c.nth) return whole;
    did = true;
    return c.rep!.replace(/\\(\d)|\\n|\\&|&|\\\\/g, (t, d: string | undefined) => {
      if (t === '&') return whole;
      if (t === '\\&') return '&';
      if (t === '\\n') return '\n';
      if (t === '\\\\') return '\\';
      return String(m[Number(d)] ?? '');
    });
  });
  return { out, did };
}

function run(cmds: Cmd[], input: string, quiet: boolean): string {
  const lines = input.split('\n');
  const trailing = input.endsWith('\n');
  if (trailing) lines.pop();
  let out = '';
  let hold = '';
  for (let n = 1; n <= lines.length; n++) {
    let line = lines[n - 1];
    const last = n === lines.length;
    let deleted = false;
    let quit = false;
    const append: string[] = [];
    for (const c of cmds) {
      let sel = true;
      if (c.a1 && c.a2) {
        if (!c.inRange) {
          if (matches(c.a1, line, n, last)) {
            c.inRange = !(c.a2.t === 'line' && c.a2.n <= n);
            sel = true;
          } else sel = false;
        } else {
          sel = true;
          if (matches(c.a2, line, n, last) || (c.a2.t === 'line' && n >= c.a2.n)) c.inRange = false;
        }
      } else if (c.a1) sel = matches(c.a1, line, n, last);
      if (sel === c.neg) continue;
      switch (c.op) {
        case 's': { const r = substitute(c, line); line = r.out; if (r.did && c.print) out += `${line}\n`; break; }
        case 'y': line = [...line].map((ch) => { const k = c.from!.indexOf(ch); return k < 0 ? ch : c.to![k]; }).join(''); break;
        case 'p': out += `${line}\n`; break;
        case 'd': deleted = true; break;
        case 'q': quit = true; break;
        case '=': out += `${n}\n`; break;
        case 'a': append.push(c.text!); break;
        case 'i': out += `${c.text}\n`; break;
        case 'c': out += `${c.text}\n`; deleted = true; break;
        case 'h': hold = line; break;
        case 'g': line = hold; break;
        case 'G': line = `${line}\n${hold}`; break;
        case 'x': [line, hold] = [hold, line]; break;
      }
      if (deleted || quit) break;
    }
    if (!deleted && !quiet) out += `${line}${last && !trailing ? '' : '\n'}`;
    for (const a of append) out += `${a}\n`;
    if (quit) break;
  }
  return out;
}

export const sed: Applet = async (argv, ctx, flavour) => {
  const name = progName(argv);
  const o = getopt(argv.slice(1), 'ne:f:iErs', { quiet: 'n', silent: 'n', 'expression:': 'e', 'in-place': 'i', 'regexp-extended': 'E' });
  if ('bad' in o) return badOption(ctx, flavour, name, o);
  const args = [...o.args];
  const scripts = o.values.get('e') ?? (args.length ? [args.shift()!] : undefined);
  if (!scripts) { ctx.stderr.write(flavour === 'gnu' ? `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n` : 'BusyBox v1.36.1 (2024-06-10 07:11:47 UTC) multi-call binary.\n'); return 1; }
  let cmds: Cmd[];
  try {
    cmds = parseScript(scripts.join('\n'), o.flags.has('E') || o.flags.has('r'));
  } catch (e) {
    if (!(e instanceof SedError)) throw e;
    ctx.stderr.write(`${name}: -e expression #1, char ${scripts[0].length}: ${e.message}\n`);
    return 1;
  }
  const fs = ctx.env.fs;
  if (o.flags.has('i')) {
    let status = 0;
    for (const f of args) {
      const path = fs.resolve(ctx.cwd, f);
      try {
        const text = fs.readFile(path, ctx.cred).toString();
        fs.writeFile(path, run(cmds, text, o.flags.has('n')), { cred: ctx.cred });
      } catch (e) {
        status = 1;
        ctx.stderr.write(flavour === 'gnu' ? `${name}: couldn't edit ${f}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: can't open '${f}': ${fsMsg(ctx, flavour, e)}\n`);
      }
    }
    return status;
  }
  let input = '';
  let status = 0;
  for (const f of args.length ? args : ['-']) {
    if (f === '-') { input += (await ctx.stdin.readAll()).toString(); continue; }
    try { input += fs.readFile(fs.resolve(ctx.cwd, f), ctx.cred).toString(); } catch (e) {
      status = 2;
      ctx.stderr.write(flavour === 'gnu' ? `${name}: can't read ${f}: ${fsMsg(ctx, flavour, e)}\n` : `${name}: can't open '${f}': ${fsMsg(ctx, flavour, e)}\n`);
    }
  }
  ctx.stdout.write(run(cmds, input, o.flags.has('n')));
  return status;
};
