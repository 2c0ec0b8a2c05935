// cmd.exe's entry point: `/c` and `/k` with the quote rule from `cmd /?` (strip the first and last quote unless
// exactly two quotes surround an executable's name), /v:on, and interactive sessions (banner, `C:\>` prompt, the
// command echoed back when stdin is not a console).

import { Aborted, type Ctx } from '../core/ctx.js';
import { findWindows } from '../core/exec.js';
import type { Stdio } from '../sh/redirect.js';
import { Cmd, CmdExit, CmdGoto } from './cmd-interp.js';
import { joinWindowsArgs } from './cmdline.js';
import { CRLF } from './format.js';

interface CmdArgs { mode: 'c' | 'k' | 'interactive'; rest: string; delayed: boolean; quiet: boolean }

/** Finds /C or /K in the raw command line and applies cmd's quote-stripping rule to what follows. */
export function parseCmdLine(ctx: Ctx, cmdline: string): CmdArgs {
  let i = 0;
  const s = cmdline;
  if (s[0] === '"') i = s.indexOf('"', 1) + 1;
  else while (i < s.length && !/\s/.test(s[i])) i++;
  let strip = false;
  let delayed = false;
  let quiet = false;
  for (;;) {
    while (/\s/.test(s[i] ?? '')) i++;
    const m = /^\/([a-z])(:\w+)?/i.exec(s.slice(i));
    if (!m) break;
    const f = m[1].toLowerCase();
    i += m[0].length;
    if (f === 's') strip = true;
    else if (f === 'q') quiet = true;
    else if (f === 'v' && (m[2] ?? ':on').toLowerCase() !== ':off') delayed = true;
    else if (f === 'c' || f === 'k') {
      while (/\s/.test(s[i] ?? '')) i++;
      let rest = s.slice(i);
      const quotes = (rest.match(/"/g) ?? []).length;
      const keep = !strip && quotes === 2 && rest.startsWith('"') && (() => {
        const inner = rest.slice(1, rest.indexOf('"', 1));
        return !/[&<>()@^|]/.test(inner) && /\s/.test(inner) && !('error' in findWindows(ctx.env, inner, ctx.vars, ctx.cwd, 'cmd'));
      })();
      if (!keep && rest.startsWith('"')) {
        const last = rest.lastIndexOf('"');
        rest = last > 0 ? rest.slice(1, last) + rest.slice(last + 1) : rest.slice(1);
      }
      return { mode: f, rest, delayed, quiet };
    }
  }
  return { mode: 'interactive', rest: '', delayed, quiet };
}

async function interactive(cmd: Cmd, io: Stdio): Promise<number> {
  const tty = io.stdin.isTTY;
  io.stdout.write(cmd.banner());
  for (;;) {
    io.stdout.write(`${CRLF}${cmd.prompt()}`);
    const line = await io.stdin.readLine();
    if (line === null) return cmd.errorlevel;
    const text = line.replace(/\r$/, '');
    if (!tty) io.stdout.write(`${text}${CRLF}`);
    try {
      await cmd.line(text, io);
    } catch (e) {
      if (e instanceof CmdExit) return e.code;
      if (e instanceof CmdGoto) continue;
      if (!(e instanceof Aborted) || io.stdin.isTTY === false) throw e;
    }
  }
}

export async function cmdMain(argv: string[], ctx: Ctx): Promise<number> {
  const cmdline = ctx.cmdline ?? joinWindowsArgs(argv);
  const a = parseCmdLine(ctx, cmdline);
  const cmd = new Cmd(ctx, cmdline);
  cmd.delayed = a.delayed;
  const io: Stdio = { stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr };
  try {
    if (a.mode === 'c') {
      await cmd.line(a.rest, io);
      return cmd.errorlevel;
    }
    if (a.mode === 'k') await cmd.line(a.rest, io);
    return await interactive(cmd, io);
  } catch (e) {
    if (e instanceof CmdExit) return e.code;
    if (e instanceof CmdGoto) return cmd.errorlevel;
    throw e;
  }
}

