// cmd.exe's interpreter: variables (case-insensitive, dynamic %CD% %DATE% %ERRORLEVEL%), running parsed nodes
// (& && || |, blocks, IF, FOR), redirections, internal commands and programs (current directory, then PATH with
// PATHEXT), and batch files (echo of commands, labels, goto, %0-%9).

import type { Ctx } from '../core/ctx.js';
import { findWindows, runFound } from '../core/exec.js';
import { BrokenPipe, Pipe, type Input, type Output } from '../core/streams.js';
import { openInput, openOutput, type Stdio } from '../sh/redirect.js';
import { FsError } from '../fs/vfs.js';
import { winText } from '../core/errno.js';
import { CmdParser, CmdSyntaxError, expandPercent, type CmdNode, type CmdRedir } from './cmd-parse.js';
import { CMD_BUILTINS } from './cmd-builtins.js';
import { INVALID_NAME, invalidPath } from './cmd-args.js';
import { splitWindowsArgs } from './cmdline.js';
import { buildNumber, cmdDate, cmdTime, CRLF, windowsVersion } from './format.js';

export class CmdExit extends Error { constructor(readonly code: number, readonly batchOnly: boolean) { super('exit'); } }
export class CmdGoto extends Error { constructor(readonly label: string) { super('goto'); } }

interface Batch { args: string[]; path: string }

export class Cmd {
  errorlevel = 0;
  echoOn = true;
  delayed = false;
  batch?: Batch;
  localStack: { vars: Record<string, string>; cwd: string }[] = [];
  dirStack: string[] = [];
  cmdcmdline: string;

  constructor(readonly ctx: Ctx, cmdline: string) {
    this.cmdcmdline = cmdline;
  }

  get vars(): Record<string, string> { return this.ctx.vars; }

  key(name: string): string | undefined {
    const l = name.toLowerCase();
    return Object.keys(this.vars).find((k) => k.toLowerCase() === l);
  }

  get(name: string): string | undefined {
    const k = this.key(name);
    if (k !== undefined) return this.vars[k];
    switch (name.toUpperCase()) {
      case 'CD': return this.ctx.cwd;
      case 'DATE': return cmdDate(this.ctx.env.clock.now());
      case 'TIME': return cmdTime(this.ctx.env.clock.now());
      case 'RANDOM': return String(Math.floor(Math.random() * 32768));
      case 'ERRORLEVEL': return String(this.errorlevel);
      case 'CMDCMDLINE': return this.cmdcmdline;
      case 'CMDEXTVERSION': return '2';
    }
    return undefined;
  }

  set(name: string, value: string | undefined): void {
    const k = this.key(name);
    if (k !== undefined) delete this.vars[k];
    if (value !== undefined) this.vars[k ?? name] = value;
  }

  write(io: Stdio, text: string): void { io.stdout.write(text); }
  err(io: Stdio, text: string): void { io.stderr.write(text + CRLF); }

  /** Expands, parses and runs one line. */
  async line(text: string, io: Stdio): Promise<number> {
    const expanded = expandPercent(text, (n) => this.get(n), !!this.batch, this.batch?.args);
    let node: CmdNode;
    try {
      node = CmdParser.parse(expanded);
    } catch (e) {
      if (!(e instanceof CmdSyntaxError)) throw e;
      this.err(io, e.message);
      return (this.errorlevel = 255);
    }
    return this.exec(node, io);
  }

  async exec(node: CmdNode, io: Stdio): Promise<number> {
    switch (node.t) {
      case 'seq': {
        let last = this.errorlevel;
        let ok = true;
        for (const it of node.items) {
          if (it.op === '&&' && !ok) continue;
          if (it.op === '||' && ok) continue;
          last = await this.exec(it.node, io);
          ok = last === 0;
        }
        return last;
      }
      case 'pipe': {
        const pipes = node.cmds.slice(1).map(() => new Pipe());
        const results = await Promise.all(node.cmds.map(async (c, i) => {
          const sub = new Cmd({ ...this.ctx, vars: { ...this.vars } }, this.cmdcmdline);
          sub.errorlevel = this.errorlevel;
          const stageIo: Stdio = { ...io, stdin: i === 0 ? io.stdin : pipes[i - 1], stdout: i === node.cmds.length - 1 ? io.stdout : pipes[i] };
          try {
            return await sub.exec(c, stageIo);
          } catch (e) {
            if (e instanceof BrokenPipe) return 1;
            if (e instanceof CmdExit) return e.code;
            throw e;
          } finally {
            if (i < pipes.length) pipes[i].end();
            if (i > 0) pipes[i - 1].close();
          }
        }));
        return (this.errorlevel = results[results.length - 1]);
      }
      case 'block': {
        const r = this.redirect(node.redirs, io);
        if (typeof r === 'number') return (this.errorlevel = r);
        return this.exec(node.body, r);
      }
      case 'if': {
        let v: boolean;
        const c = node.cond;
        const unq = (s: string) => s.replace(/^"|"$/g, '');
        switch (c.k) {
          case 'errorlevel': v = this.errorlevel >= c.n; break;
          case 'exist': v = !!this.ctx.env.fs.stat(this.ctx.env.fs.resolve(this.ctx.cwd, unq(c.path))); break;
          case 'defined': v = this.get(c.name) !== undefined && this.key(c.name) !== undefined; break;
          case 'cmp': {
            const a = node.ignoreCase ? c.a.toLowerCase() : c.a;
            const b = node.ignoreCase ? c.b.toLowerCase() : c.b;
            const na = Number(unq(a));
            const nb = Number(unq(b));
            const num = !Number.isNaN(na) && !Number.isNaN(nb) && unq(a) !== '' && unq(b) !== '';
            const cmp = num ? na - nb : a < b ? -1 : a > b ? 1 : 0;
            v = { '==': a === b, EQU: cmp === 0, NEQ: cmp !== 0, LSS: cmp < 0, LEQ: cmp <= 0, GTR: cmp > 0, GEQ: cmp >= 0 }[c.op] ?? false;
          }
        }
        if (node.negate) v = !v;
        if (v) return this.exec(node.then, io);
        if (node.else) return this.exec(node.else, io);
        return this.errorlevel;
      }
      case 'for': {
        const values = await this.forValues(node, io);
        let last = this.errorlevel;
        for (const v of values) last = await this.exec(substitute(node.body, node.variable, v), io);
        return last;
      }
      case 'simple': {
        const r = this.redirect(node.redirs, io);
        if (typeof r === 'number') return (this.errorlevel = r);
        const text = this.delayed ? node.text.replace(/!([^!]+)!/g, (_, n: string) => this.get(n) ?? '') : node.text;
        return this.runText(text, r);
      }
    }
  }

  private async forValues(node: Extract<CmdNode, { t: 'for' }>, io: Stdio): Promise<string[]> {
    if (node.mode === 'L') {
      const [start, step, end] = node.set.split(/[\s,]+/).filter(Boolean).map(Number);
      const out: string[] = [];
      for (let x = start; step > 0 ? x <= end : x >= end; x += step) {
        out.push(String(x));
        if (step === 0) break;
      }
      return out;
    }
    if (node.mode === 'F') {
      const set = node.set.trim();
      let text: string;
      if (set.startsWith("'")) {
        const cap = new Pipe();
        const sub = new Cmd({ ...this.ctx, vars: { ...this.vars } }, this.cmdcmdline);
        const done = sub.line(set.slice(1, -1), { ...io, stdout: cap }).finally(() => cap.end());
        const buf = await cap.readAll();
        await done;
        text = buf.toString();
      } else if (set.startsWith('"')) text = set.slice(1, -1);
      else {
        try { text = this.ctx.env.fs.readFile(this.ctx.env.fs.resolve(this.ctx.cwd, set)).toString(); } catch { this.err(io, `The system cannot find the file ${set}.`); return []; }
      }
      const tokens = /tokens=([0-9*,-]+)/.exec(node.options)?.[1];
      const delims = /delims=([^"]*?)(?=\s+\w+=|$)/.exec(node.options)?.[1] ?? ' \t';
      return text.split(/\r?\n/).filter((l) => l !== '').map((l) => {
        const parts = delims === '' ? [l] : l.split(new RegExp(`[${delims.replace(/[\]\\^-]/g, '\\$&')}]+`)).filter(Boolean);
        if (!tokens) return parts[0] ?? '';
        const first = Number(tokens.split(/[,-]/)[0]);
        return tokens.endsWith('*') ? parts.slice(first - 1).join(' ') : parts[first - 1] ?? '';
      });
    }
    const items: string[] = [];
    for (const it of node.set.trim().split(/\s+/).filter(Boolean)) {
      if (/[*?]/.test(it)) {
        const fs = this.ctx.env.fs;
        const dir = fs.resolve(this.ctx.cwd, it.includes('\\') ? it.replace(/\\[^\\]*$/, '') : '.');
        const pat = it.replace(/^.*\\/, '');
        try {
          const re = new RegExp(`^${pat.replace(/[.+^${}()|[\]]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
          for (const n of fs.readdir(dir)) if (n.kind === 'file' && re.test(n.name)) items.push(n.name);
        } catch { /* no matches */ }
      } else items.push(it);
    }
    return items;
  }

  private redirect(redirs: CmdRedir[], io: Stdio): Stdio | number {
    let out: Stdio = io;
    for (const r of redirs) {
      const fdOut = (fd: number): Output | Input => (fd === 0 ? out.stdin : fd === 2 ? out.stderr : out.stdout);
      if (r.op === '>&') {
        const src = fdOut(Number(r.target));
        out = r.fd === 2 ? { ...out, stderr: src as Output } : { ...out, stdout: src as Output };
        continue;
      }
      if (invalidPath(r.target)) { this.err(io, INVALID_NAME); return 1; }
      try {
        if (r.op === '<') { out = { ...out, stdin: openInput(this.ctx, r.target, out) }; continue; }
        const o = openOutput(this.ctx, r.target, r.op === '>>', out);
        out = r.fd === 2 ? { ...out, stderr: o } : { ...out, stdout: o };
      } catch (e) {
        if (!(e instanceof FsError)) throw e;
        this.err(io, e.code === 'ENOENT' ? (r.op === '<' ? 'The system cannot find the file specified.' : 'The system cannot find the path specified.') : winText(e));
        return 1;
      }
    }
    return out;
  }

  /** Runs one command's text: a builtin, or a program found in the current directory or on PATH. */
  async runText(raw: string, io: Stdio): Promise<number> {
    const text = raw.replace(/^[\s@]+/, '').replace(/\s+$/, (m) => (/^echo\b/i.test(raw.trim()) ? m : ''));
    if (text === '') return this.errorlevel;
    const m = /^("[^"]*"|[^\s/.,;=+(\\:"]+)/.exec(text);
    const name = (m?.[0] ?? text.split(/\s/)[0]).toLowerCase();
    const builtin = CMD_BUILTINS[name];
    if (builtin && !name.startsWith('"')) {
      const rest = text.slice(name.length);
      return (this.errorlevel = await builtin(this, rest, io));
    }
    const token = /^("[^"]*"|\S+)/.exec(text)![0];
    const target = token.replace(/"/g, '');
    const found = findWindows(this.ctx.env, target, this.vars, this.ctx.cwd, 'cmd');
    if ('error' in found) {
      if (found.error === 'no-such-file' || (/[\\/]/.test(target) && !this.ctx.env.fs.stat(this.ctx.env.fs.resolve(this.ctx.cwd, target.replace(/[\\/][^\\/]*$/, '') || '\\')))) {
        this.err(io, 'The system cannot find the path specified.');
        return (this.errorlevel = 3);
      }
      this.err(io, `'${target}' is not recognized as an internal or external command,${CRLF}operable program or batch file.`);
      return (this.errorlevel = 9009);
    }
    const lower = found.path.toLowerCase();
    const argv = splitWindowsArgs(text);
    if (lower.endsWith('.bat') || lower.endsWith('.cmd')) return (this.errorlevel = await this.runBatch(found.path, argv, io));
    const r = await runFound(this.ctx, found, argv, { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, vars: this.vars, cwd: this.ctx.cwd, cmdline: text });
    if (typeof r !== 'number') {
      this.err(io, r.error === 'exec-format' ? `This version of ${found.path} is not compatible with the version of Windows you're running.` : 'Access is denied.');
      return (this.errorlevel = 1);
    }
    return (this.errorlevel = r);
  }

  prompt(): string {
    const p = this.get('PROMPT') ?? '$P$G';
    return p.replace(/\$P/gi, this.ctx.cwd).replace(/\$G/gi, '>').replace(/\$L/gi, '<').replace(/\$_/g, CRLF).replace(/\$\$/g, '$');
  }

  async runBatch(path: string, argv: string[], io: Stdio): Promise<number> {
    let text: string;
    try { text = this.ctx.env.fs.readFile(path, this.ctx.cred).toString(); } catch {
      this.err(io, 'The system cannot find the path specified.');
      return 1;
    }
    const sub = new Cmd(this.ctx, this.cmdcmdline);
    sub.batch = { args: [argv[0] ?? path, ...argv.slice(1)], path };
    sub.errorlevel = this.errorlevel;
    const lines = text.split(/\r?\n/);
    const labels = new Map<string, number>();
    lines.forEach((l, i) => { const m = /^\s*:(\w+)/.exec(l); if (m) labels.set(m[1].toLowerCase(), i); });
    let pc = 0;
    while (pc < lines.length) {
      let line = lines[pc++];
      if (/^\s*:/.test(line)) continue;
      let depth = parenDepth(line);
      while (depth > 0 && pc < lines.length) { line += `\n${lines[pc++]}`; depth = parenDepth(line); }
      if (line.trim() === '') continue;
      if (sub.echoOn && !line.trimStart().startsWith('@')) io.stdout.write(`${CRLF}${sub.prompt()}${line.trim()}${CRLF}`);
      try {
        await sub.line(line, io);
      } catch (e) {
        if (e instanceof CmdGoto) {
          if (e.label === 'eof') break;
          const target = labels.get(e.label);
          if (target === undefined) { sub.err(io, 'The system cannot find the batch label specified - ' + e.label); break; }
          pc = target + 1;
          continue;
        }
        if (e instanceof CmdExit) {
          if (e.batchOnly) return e.code;
          throw e;
        }
        throw e;
      }
    }
    if (sub.echoOn) io.stdout.write(`${CRLF}${sub.prompt()}`);
    this.errorlevel = sub.errorlevel;
    return sub.errorlevel;
  }

  banner(): string {
    const copyright = buildNumber(this.ctx.env) >= 20348 ? '(c) Microsoft Corporation. All rights reserved.' : '(c) 2018 Microsoft Corporation. All rights reserved.';
    return `Microsoft Windows [Version ${windowsVersion(this.ctx.env)}]${CRLF}${copyright}${CRLF}`;
  }
}

function parenDepth(s: string): number {
  let d = 0;
  let q = false;
  for (const c of s) {
    if (c === '"') q = !q;
    else if (!q && c === '(') d++;
    else if (!q && c === ')') d--;
  }
  return d;
}

function substitute(node: CmdNode, variable: string, value: string): CmdNode {
  const re = new RegExp(`%%?~?${variable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g');
  const sub = (s: string) => s.replace(re, (m) => (m.includes('~') ? value.replace(/^"|"$/g, '') : value));
  switch (node.t) {
    case 'simple': return { ...node, text: sub(node.text), redirs: node.redirs.map((r) => ({ ...r, target: sub(r.target) })) };
    case 'seq': return { ...node, items: node.items.map((i) => ({ ...i, node: substitute(i.node, variable, value) })) };
    case 'pipe': return { ...node, cmds: node.cmds.map((c) => substitute(c, variable, value)) };
    case 'block': return { ...node, body: substitute(node.body, variable, value) };
    case 'if': {
      const cond = node.cond.k === 'cmp' ? { ...node.cond, a: sub(node.cond.a), b: sub(node.cond.b) } : node.cond.k === 'exist' ? { ...node.cond, path: sub(node.cond.path) } : node.cond;
      return { ...node, cond, then: substitute(node.then, variable, value), else: node.else && substitute(node.else, variable, value) };
    }
    case 'for': return { ...node, set: sub(node.set), body: substitute(node.body, variable, value) };
  }
}
