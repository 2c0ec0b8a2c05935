// cmd.exe's internal commands: ECHO, SET (/A, /P), VER, TYPE, DIR, CD, MD, RD, DEL, COPY, MOVE, REN, EXIT, CALL,
// GOTO, SETLOCAL/ENDLOCAL, PUSHD/POPD, START /B, PAUSE and friends, with their Win32 messages.

import type { Cmd } from './cmd-interp.js';
import { CmdExit, CmdGoto } from './cmd-interp.js';
import type { Stdio } from '../sh/redirect.js';
import { FsError } from '../fs/vfs.js';
import { winText } from '../core/errno.js';
import { evalArith, ArithError } from '../sh/arith.js';
import { dir } from './dir.js';
import { cmdWords, INVALID_NAME, invalidPath, switchesAndOperands, unquote } from './cmd-args.js';
import { cmdDate, cmdTime, CRLF, volumeSerial, windowsVersion } from './format.js';

export type CmdBuiltin = (cmd: Cmd, rest: string, io: Stdio) => Promise<number>;

const unq = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');
const words = cmdWords;

const echo: CmdBuiltin = async (cmd, rest, io) => {
  if (/^[.(:;,=+/\\[\]]/.test(rest)) { io.stdout.write(rest.slice(1) + CRLF); return cmd.errorlevel; }
  const text = rest.replace(/^\s/, '');
  const t = text.trim().toLowerCase();
  if (t === '') { io.stdout.write(`ECHO is ${cmd.echoOn ? 'on' : 'off'}.${CRLF}`); return cmd.errorlevel; }
  if (t === 'on' || t === 'off') { cmd.echoOn = t === 'on'; return cmd.errorlevel; }
  io.stdout.write(text + CRLF);
  return cmd.errorlevel;
};

const set: CmdBuiltin = async (cmd, rest, io) => {
  const arg = rest.trim();
  if (/^\/a\b/i.test(arg)) {
    const expr = unq(arg.slice(2));
    try {
      let last = 0;
      for (const part of expr.split(',')) {
        last = evalArith(part, {
          get: (n) => cmd.get(n) ?? '0',
          set: (n, v) => cmd.set(n, v),
        });
      }
      if (!cmd.batch) io.stdout.write(String(last));
      return 0;
    } catch (e) {
      if (!(e instanceof ArithError)) throw e;
      cmd.err(io, e.message.includes('division') ? 'Divide by zero error.' : 'Missing operand.');
      return 1073750993;
    }
  }
  if (/^\/p\b/i.test(arg)) {
    const spec = unq(arg.slice(2));
    const eq = spec.indexOf('=');
    io.stdout.write(spec.slice(eq + 1));
    const line = await io.stdin.readLine();
    if (line === null) return 1;
    cmd.set(spec.slice(0, eq), line.replace(/\r$/, ''));
    return 0;
  }
  const spec = arg.startsWith('"') ? arg.slice(1, arg.lastIndexOf('"') > 0 ? arg.lastIndexOf('"') : undefined) : rest.replace(/^\s/, '');
  const eq = spec.indexOf('=');
  if (eq < 0) {
    const prefix = spec.trim().toLowerCase();
    const names = Object.keys(cmd.vars).filter((k) => k.toLowerCase().startsWith(prefix)).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    if (names.length === 0) { cmd.err(io, `Environment variable ${spec.trim()} not defined`); return 1; }
    io.stdout.write(names.map((k) => `${k}=${cmd.vars[k]}${CRLF}`).join(''));
    return 0;
  }
  const name = spec.slice(0, eq);
  const value = spec.slice(eq + 1);
  if (name.trim() === '') { cmd.err(io, 'The syntax of the command is incorrect.'); return 1; }
  cmd.set(name, value === '' ? undefined : value);
  return 0;
};

const type: CmdBuiltin = async (cmd, rest, io) => {
  const files = words(rest).map(unquote);
  if (files.length === 0) { cmd.err(io, 'The syntax of the command is incorrect.'); return 1; }
  const fs = cmd.ctx.env.fs;
  let status = 0;
  for (const f of files) {
    if (/^nul$/i.test(f)) continue;
    if (invalidPath(f)) { cmd.err(io, INVALID_NAME); status = 1; continue; }
    const path = fs.resolve(cmd.ctx.cwd, f);
    try {
      if (fs.stat(path)?.kind === 'dir') throw new FsError('EACCES', path);
      const data = fs.readFile(path, cmd.ctx.cred);
      if (files.length > 1) io.stderr.write(`${CRLF}${f}${CRLF}${CRLF}${CRLF}`);
      io.stdout.write(data);
    } catch (e) {
      status = 1;
      cmd.err(io, winText(e, fs.stat(fs.resolve(path, '..')) ? 'file' : 'path'));
      if (files.length > 1) cmd.err(io, `Error occurred while processing: ${f}.`);
    }
  }
  return status;
};

const cd: CmdBuiltin = async (cmd, rest, io) => {
  let arg = rest.trim();
  if (/^\/d\b/i.test(arg)) arg = arg.slice(2).trim();
  // CD takes the rest of the line as one path (spaces need no quotes) and drops every quote in it.
  arg = unquote(arg).trim();
  if (arg === '') { io.stdout.write(cmd.ctx.cwd + CRLF); return 0; }
  if (invalidPath(arg)) { cmd.err(io, INVALID_NAME); return 1; }
  const fs = cmd.ctx.env.fs;
  const abs = fs.resolve(cmd.ctx.cwd, arg);
  const n = fs.stat(abs);
  if (!n) { cmd.err(io, 'The system cannot find the path specified.'); return 1; }
  if (n.kind !== 'dir') { cmd.err(io, 'The directory name is invalid.'); return 1; }
  cmd.ctx.cwd = fs.realpath(abs);
  return 0;
};

const mkdir: CmdBuiltin = async (cmd, rest, io) => {
  const fs = cmd.ctx.env.fs;
  let status = 0;
  const { operands } = switchesAndOperands(rest);
  if (operands.length === 0) { cmd.err(io, 'The syntax of the command is incorrect.'); return 1; }
  for (const d of operands) {
    if (invalidPath(d)) { cmd.err(io, INVALID_NAME); status = 1; continue; }
    const abs = fs.resolve(cmd.ctx.cwd, d);
    if (fs.stat(abs)) { cmd.err(io, `A subdirectory or file ${d} already exists.`); status = 1; continue; }
    try { fs.mkdir(abs, { parents: true, cred: cmd.ctx.cred }); } catch (e) { cmd.err(io, winText(e, 'path')); status = 1; }
  }
  return status;
};

const rmdir: CmdBuiltin = async (cmd, rest, io) => {
  const fs = cmd.ctx.env.fs;
  const { switches, operands } = switchesAndOperands(rest);
  const recursive = switches.includes('/s');
  if (operands.length === 0) { cmd.err(io, 'The syntax of the command is incorrect.'); return 1; }
  let status = 0;
  for (const d of operands) {
    if (invalidPath(d)) { cmd.err(io, INVALID_NAME); status = 1; continue; }
    const abs = fs.resolve(cmd.ctx.cwd, d);
    try {
      if (!fs.stat(abs)) throw new FsError('ENOENT', abs);
      if (recursive) fs.removeTree(abs, cmd.ctx.cred); else fs.rmdir(abs, cmd.ctx.cred);
    } catch (e) { cmd.err(io, winText(e)); status = 1; }
  }
  return status;
};

const del: CmdBuiltin = async (cmd, rest, io) => {
  const fs = cmd.ctx.env.fs;
  const { operands } = switchesAndOperands(rest);
  if (operands.length === 0) { cmd.err(io, 'The syntax of the command is incorrect.'); return 1; }
  for (const f of operands) {
    if (invalidPath(f, true)) { cmd.err(io, INVALID_NAME); continue; }
    const abs = fs.resolve(cmd.ctx.cwd, f);
    const n = fs.stat(abs);
    if (!n) { cmd.err(io, `Could Not Find ${abs}`); continue; }
    try {
      if (n.kind === 'dir') { for (const c of fs.readdir(abs)) if (c.kind === 'file') fs.unlink(fs.resolve(abs, c.name), cmd.ctx.cred); } else fs.unlink(abs, cmd.ctx.cred);
    } catch (e) { cmd.err(io, `${abs}${CRLF}${winText(e)}`); }
  }
  return 0;
};

const copy: CmdBuiltin = async (cmd, rest, io) => {
  const fs = cmd.ctx.env.fs;
  const [src, dst = '.'] = switchesAndOperands(rest).operands;
  if ((src && invalidPath(src, true)) || invalidPath(dst)) { cmd.err(io, INVALID_NAME); io.stdout.write(`        0 file(s) copied.${CRLF}`); return 1; }
  const from = fs.resolve(cmd.ctx.cwd, src ?? '');
  const n = fs.stat(from);
  if (!src || !n || n.kind !== 'file') { cmd.err(io, 'The system cannot find the file specified.'); io.stdout.write(`        0 file(s) copied.${CRLF}`); return 1; }
  let to = fs.resolve(cmd.ctx.cwd, dst);
  if (fs.stat(to)?.kind === 'dir') to = fs.resolve(to, n.name);
  try { fs.writeFile(to, fs.readFile(from), { cred: cmd.ctx.cred }); } catch (e) { cmd.err(io, winText(e)); io.stdout.write(`        0 file(s) copied.${CRLF}`); return 1; }
  io.stdout.write(`        1 file(s) copied.${CRLF}`);
  return 0;
};

const move: CmdBuiltin = async (cmd, rest, io) => {
  const fs = cmd.ctx.env.fs;
  const [src, dst] = switchesAndOperands(rest).operands;
  const from = fs.resolve(cmd.ctx.cwd, src ?? '');
  if ((src && invalidPath(src, true)) || (dst && invalidPath(dst))) { cmd.err(io, INVALID_NAME); return 1; }
  if (!src || !dst || !fs.lstat(from)) { cmd.err(io, 'The system cannot find the file specified.'); return 1; }
  let to = fs.resolve(cmd.ctx.cwd, dst);
  if (fs.stat(to)?.kind === 'dir') to = fs.resolve(to, fs.lstat(from)!.name);
  try { fs.rename(from, to, cmd.ctx.cred); } catch (e) { cmd.err(io, winText(e)); return 1; }
  io.stdout.write(`        1 file(s) moved.${CRLF}`);
  return 0;
};

const ren: CmdBuiltin = async (cmd, rest, io) => {
  const fs = cmd.ctx.env.fs;
  const [src, name] = words(rest).map(unquote);
  const from = fs.resolve(cmd.ctx.cwd, src ?? '');
  if (!src || !name || !fs.lstat(from)) { cmd.err(io, 'The system cannot find the file specified.'); return 1; }
  try { fs.rename(from, fs.resolve(fs.resolve(from, '..'), name), cmd.ctx.cred); } catch (e) { cmd.err(io, winText(e)); return 1; }
  return 0;
};

const exit: CmdBuiltin = async (cmd, rest) => {
  const w = words(rest);
  const b = w.some((x) => /^\/b$/i.test(x));
  const n = w.find((x) => !x.startsWith('/'));
  const code = n === undefined ? cmd.errorlevel : Number.parseInt(n, 10) || 0;
  throw new CmdExit(code, b && !!cmd.batch);
};

const ver: CmdBuiltin = async (cmd, _rest, io) => {
  io.stdout.write(`${CRLF}Microsoft Windows [Version ${windowsVersion(cmd.ctx.env)}]${CRLF}`);
  return 0;
};

const call: CmdBuiltin = async (cmd, rest, io) => {
  const r = rest.trim();
  if (r.startsWith(':')) throw new CmdGoto(r.slice(1).split(/\s/)[0].toLowerCase());
  return cmd.line(r, io);
};

const setlocal: CmdBuiltin = async (cmd, rest) => {
  cmd.localStack.push({ vars: { ...cmd.vars }, cwd: cmd.ctx.cwd });
  if (/enabledelayedexpansion/i.test(rest)) cmd.delayed = true;
  return 0;
};

const endlocal: CmdBuiltin = async (cmd) => {
  const saved = cmd.localStack.pop();
  if (saved) {
    for (const k of Object.keys(cmd.vars)) delete cmd.vars[k];
    Object.assign(cmd.vars, saved.vars);
    cmd.ctx.cwd = saved.cwd;
  }
  return 0;
};

const start: CmdBuiltin = async (cmd, rest, io) => {
  const text = rest.trim().replace(/^(\/\w+\s+)+/i, '').replace(/^"[^"]*"\s+/, '');
  void cmd.line(text, { ...io, stdin: io.stdin }).catch(() => undefined);
  return 0;
};

const pause: CmdBuiltin = async (_cmd, _rest, io) => {
  io.stdout.write('Press any key to continue . . . ');
  await io.stdin.read();
  io.stdout.write(CRLF);
  return 0;
};

const mklink: CmdBuiltin = async (cmd, rest, io) => {
  const w = words(rest);
  const flags = w.filter((x) => /^\/[dhj]$/i.test(x)).map((x) => x.toLowerCase());
  const [link, target] = w.filter((x) => !x.startsWith('/')).map(unquote);
  if (!link || !target) { cmd.err(io, 'The syntax of the command is incorrect.'); return 1; }
  if (!flags.includes('/h') && !flags.includes('/j') && !cmd.ctx.cred.admin) { cmd.err(io, 'You do not have sufficient privilege to perform this operation.'); return 1; }
  const fs = cmd.ctx.env.fs;
  try {
    if (flags.includes('/h')) fs.writeFile(fs.resolve(cmd.ctx.cwd, link), fs.readFile(fs.resolve(cmd.ctx.cwd, target)), { cred: cmd.ctx.cred, exclusive: true });
    else fs.symlink(target, fs.resolve(cmd.ctx.cwd, link), cmd.ctx.cred);
  } catch (e) {
    cmd.err(io, e instanceof FsError && e.code === 'EEXIST' ? 'Cannot create a file when that file already exists.' : winText(e));
    return 1;
  }
  const kind = flags.includes('/h') ? 'Hardlink' : flags.includes('/j') ? 'Junction' : 'symbolic link';
  io.stdout.write(`${kind} created for ${link} <<===>> ${target}${CRLF}`);
  return 0;
};

/** Internal commands the emulation does not run. */
const unavailableBuiltin = (name: string): CmdBuiltin => async (_cmd, _rest, io) => {
  io.stderr.write(`winkube: "${name}" is not available in this emulated container${CRLF}`);
  return 9009;
};

export const CMD_BUILTINS: Record<string, CmdBuiltin> = {
  mklink, assoc: unavailableBuiltin('assoc'), ftype: unavailableBuiltin('ftype'),
  echo, set, type, cd, chdir: cd, md: mkdir, mkdir, rd: rmdir, rmdir, del, erase: del, copy, move, ren, rename: ren, exit, ver, call,
  setlocal, endlocal, start, pause,
  dir: async (cmd, rest, io) => {
    const { switches, operands } = switchesAndOperands(rest);
    if (operands.some((p) => invalidPath(p, true))) { cmd.err(io, INVALID_NAME); return 1; }
    return dir({ ...cmd.ctx, stdout: io.stdout, stderr: io.stderr }, [...switches, ...operands]);
  },
  rem: async (cmd) => cmd.errorlevel,
  cls: async () => 0,
  title: async () => 0,
  color: async () => 0,
  verify: async () => 0,
  break: async () => 0,
  goto: async (_cmd, rest) => { throw new CmdGoto(rest.trim().replace(/^:/, '').split(/\s/)[0].toLowerCase()); },
  shift: async (cmd) => { if (cmd.batch) cmd.batch.args.splice(1, 1); return 0; },
  path: async (cmd, rest, io) => {
    if (rest.trim() === '') { io.stdout.write(`PATH=${cmd.get('PATH') ?? ''}${CRLF}`); return 0; }
    cmd.set('Path', rest.trim().replace(/^=/, ''));
    return 0;
  },
  prompt: async (cmd, rest) => { cmd.set('PROMPT', rest.trim() || undefined); return 0; },
  pushd: async (cmd, rest, io) => {
    const prev = cmd.ctx.cwd;
    const r = await cd(cmd, rest, io);
    if (r === 0) cmd.dirStack.push(prev);
    return r;
  },
  popd: async (cmd) => { const d = cmd.dirStack.pop(); if (d) cmd.ctx.cwd = d; return 0; },
  vol: async (cmd, _rest, io) => {
    io.stdout.write(` Volume in drive C has no label.${CRLF} Volume Serial Number is ${volumeSerial(cmd.ctx.env.hostname)}${CRLF}`);
    return 0;
  },
  date: async (cmd, rest, io) => { io.stdout.write(/\/t/i.test(rest) ? `${cmdDate(cmd.ctx.env.clock.now())} ${CRLF}` : `The current date is: ${cmdDate(cmd.ctx.env.clock.now())}${CRLF}`); return 0; },
  time: async (cmd, rest, io) => { io.stdout.write(/\/t/i.test(rest) ? `${cmdTime(cmd.ctx.env.clock.now()).trim().slice(0, 5)}${CRLF}` : `The current time is: ${cmdTime(cmd.ctx.env.clock.now())}${CRLF}`); return 0; },
};
