// The shell programs: BusyBox ash (`sh`, `ash`), dash (Debian's /bin/sh) and bash. `-c` strings, script files,
// scripts on stdin read line by line, and interactive sessions on a terminal with a prompt.

import { Aborted, type Ctx } from '../core/ctx.js';
import { TtyInput } from '../core/tty.js';
import { linuxIdentity } from '../core/users.js';
import { Parser, ParseError } from './parser.js';
import { Shell, ShellExit, type Dialect, type ShIo } from './interp.js';
import { LoopControl, FunctionReturn } from './control.js';
import { BrokenPipe } from '../core/streams.js';

interface ShellArgs { command?: string; script?: string; params: string[]; name?: string; flags: string[]; interactive: boolean; stdin: boolean; error?: string }

function parseArgs(argv: string[]): ShellArgs {
  const a: ShellArgs = { params: [], flags: [], interactive: false, stdin: false };
  let cflag = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--') { i++; break; }
    if (x === '--login' || x === '--norc' || x === '--noprofile' || x === '--posix') continue;
    if (x === '-o' || x === '+o') { a.flags.push(`${x[0]}o:${argv[++i]}`); continue; }
    if (/^[-+][a-zA-Z]+$/.test(x)) {
      for (const f of x.slice(1)) {
        if (f === 'c') cflag = true;
        else if (f === 'i') a.interactive = true;
        else if (f === 's') a.stdin = true;
        else if (f === 'l') continue;
        else a.flags.push(`${x[0]}${f}`);
      }
      continue;
    }
    break;
  }
  const rest = argv.slice(i);
  if (cflag) {
    if (rest.length === 0) { a.error = '-c: option requires an argument'; return a; }
    a.command = rest[0];
    a.name = rest[1];
    a.params = rest.slice(2);
  } else if (!a.stdin && rest.length) {
    a.script = rest[0];
    a.params = rest.slice(1);
  } else {
    a.params = rest;
  }
  return a;
}

function applyFlags(sh: Shell, flags: string[]): void {
  const map: Record<string, keyof Shell['options']> = { e: 'errexit', u: 'nounset', x: 'xtrace', f: 'noglob' };
  for (const f of flags) {
    if (f.includes('o:')) {
      const opt = f.slice(3);
      if (opt in sh.options) sh.options[opt as keyof Shell['options']] = f[0] === '-';
      continue;
    }
    const k = map[f[1]];
    if (k) sh.options[k] = f[0] === '-';
  }
}

function prompt(sh: Shell): string {
  const uid = sh.ctx.cred.uid;
  const mark = uid === 0 ? '#' : '$';
  const home = sh.getVar('HOME');
  const cwd = home && home !== '/' && (sh.cwd === home || sh.cwd.startsWith(`${home}/`)) ? `~${sh.cwd.slice(home.length)}` : sh.cwd;
  if (sh.dialect === 'bash') {
    const user = linuxIdentity(sh.fs, sh.ctx.env.user).name;
    return user ? `${user}@${sh.ctx.env.hostname}:${cwd}${mark} ` : `I have no name!@${sh.ctx.env.hostname}:${cwd}${mark} `;
  }
  if (sh.dialect === 'dash') return `${mark} `;
  return `${cwd} ${mark} `;
}

async function finish(sh: Shell, io: ShIo, run: () => Promise<number>): Promise<number> {
  let status: number;
  try {
    status = await run();
  } catch (e) {
    if (e instanceof ShellExit) status = e.status;
    else if (e instanceof LoopControl) status = sh.status;
    else if (e instanceof FunctionReturn) status = e.status;
    else if (e instanceof BrokenPipe) status = 141;
    else if (e instanceof Aborted) {
      const trapped = e.reason === 'SIGTERM' ? await sh.runSignalTrap('TERM', io) : undefined;
      if (trapped === undefined) throw e;
      status = trapped;
    } else throw e;
  }
  return sh.runExitTrap(io, status);
}

/** Reads and runs commands from stdin one complete command at a time (so `read` sees the lines after it). */
async function runStdin(sh: Shell, io: ShIo, interactive: boolean): Promise<number> {
  const tty = io.stdin instanceof TtyInput ? io.stdin : undefined;
  for (;;) {
    if (interactive) io.stderr.write(prompt(sh));
    let src = '';
    // ^C at the prompt drops the line and prompts again.
    const offIdle = tty?.onInterrupt(() => io.stderr.write(prompt(sh)));
    let line = await io.stdin.readLine();
    offIdle?.();
    if (line === null) {
      if (interactive && sh.dialect === 'bash') io.stderr.write('exit\n');
      return sh.status;
    }
    for (;;) {
      src += `${line}\n`;
      try {
        const list = Parser.parse(src, sh.dialect === 'bash');
        const cmdAbort = new AbortController();
        const off = tty?.onInterrupt(() => cmdAbort.abort('SIGINT'));
        const outer = sh.signal;
        if (tty) {
          const both = new AbortController();
          const fwd = () => both.abort(outer.reason);
          outer.addEventListener('abort', fwd, { once: true });
          cmdAbort.signal.addEventListener('abort', () => both.abort('SIGINT'), { once: true });
          sh.signal = both.signal;
        }
        try {
          await sh.runList(list, io);
        } catch (e) {
          if (e instanceof Aborted && cmdAbort.signal.aborted && !outer.aborted) sh.status = 130;
          else if (interactive && e instanceof LoopControl) sh.status = 0;
          else throw e;
        } finally {
          off?.();
          sh.signal = outer;
        }
        break;
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
        if (e.kind !== 'token') {
          if (interactive) io.stderr.write('> ');
          line = await io.stdin.readLine();
          if (line !== null) continue;
        }
        sh.status = sh.syntaxError(io, e);
        if (!interactive) return sh.status;
        break;
      }
    }
  }
}

export async function shellMain(argv: string[], ctx: Ctx, dialect: Dialect): Promise<number> {
  const args = parseArgs(argv);
  const name = argv[0] ?? 'sh';
  const io: ShIo = { stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr };
  if (args.error) {
    io.stderr.write(`${name}: ${args.error}\n`);
    return 2;
  }
  const sh = new Shell(ctx, dialect, args.name ?? name);
  sh.params = args.params;
  applyFlags(sh, args.flags);
  if (args.command !== undefined) {
    sh.mode = 'c';
    return finish(sh, io, () => sh.runSource(args.command!, io));
  }
  if (args.script !== undefined) {
    const path = ctx.env.fs.resolve(ctx.cwd, args.script);
    let src: string;
    try {
      src = ctx.env.fs.readFile(path, ctx.cred).toString();
    } catch {
      if (dialect === 'bash') { io.stderr.write(`${name}: ${args.script}: No such file or directory\n`); return 127; }
      if (dialect === 'dash') { io.stderr.write(`${name}: 0: cannot open ${args.script}: No such file\n`); return 2; }
      io.stderr.write(`${name}: can't open '${args.script}': No such file or directory\n`);
      return 2;
    }
    sh.name = args.script;
    sh.mode = 'script';
    return finish(sh, io, () => sh.runSource(src, io));
  }
  const interactive = args.interactive || ctx.stdin.isTTY;
  sh.mode = interactive ? 'interactive' : 'stdin';
  return finish(sh, io, () => runStdin(sh, io, interactive));
}
