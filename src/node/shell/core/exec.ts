// Starting a program the way execve (Linux: PATH search, shebang lines) or CreateProcess and cmd.exe (Windows:
// current directory, PATH, PATHEXT) would, then running its emulation from the registry.

import type { ContainerEnv } from '../interfaces.js';
import type { Cred, FileNode, FsNode } from '../fs/vfs.js';
import { basename, isAbsolute } from '../fs/path.js';
import { PROGRAMS } from './registry.js';
import { unavailable, type Ctx, type ExecFailure, type SpawnOptions } from './ctx.js';
import { EmptyInput, NULL_OUTPUT, type Input, type Output } from './streams.js';

export const LINUX_DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

interface Found { node: FileNode; path: string }

function envGet(vars: Record<string, string>, name: string, windows: boolean): string | undefined {
  if (!windows) return vars[name];
  const k = Object.keys(vars).find((x) => x.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : vars[k];
}

function asFile(n: FsNode | undefined): FileNode | undefined {
  return n && n.kind === 'file' ? n : undefined;
}

/** execve's lookup: a name with a slash is a path; otherwise the first executable file on PATH. */
export function findLinux(env: ContainerEnv, name: string, vars: Record<string, string>, cwd: string, cred: Cred): Found | ExecFailure {
  const fs = env.fs;
  if (name === '') return { error: 'not-found', name };
  if (name.includes('/')) {
    const path = fs.resolve(cwd, name);
    const n = fs.stat(path);
    if (!n) return { error: 'no-such-file', name, path };
    if (n.kind === 'dir') return { error: 'is-dir', name, path };
    if (n.kind !== 'file' || !fs.canExec(n, cred)) return { error: 'permission', name, path };
    return { node: n, path };
  }
  let denied: ExecFailure | undefined;
  for (const dir of (vars.PATH ?? LINUX_DEFAULT_PATH).split(':')) {
    const path = fs.resolve(cwd, `${dir || '.'}/${name}`);
    const n = asFile(fs.stat(path));
    if (!n) continue;
    if (!fs.canExec(n, cred)) { denied ??= { error: 'permission', name, path }; continue; }
    return { node: n, path };
  }
  return denied ?? { error: 'not-found', name };
}

function pathExts(vars: Record<string, string>): string[] {
  return (envGet(vars, 'PATHEXT', true) ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((e) => e.toLowerCase());
}

/**
 * Windows lookup. `cmd` mode is cmd.exe's: current directory then PATH, trying each PATHEXT extension.
 * `create` mode is CreateProcess's: `.exe` appended when the name has no extension; the current directory,
 * System32, the Windows directory, then PATH.
 */
export function findWindows(env: ContainerEnv, name: string, vars: Record<string, string>, cwd: string, mode: 'cmd' | 'create' | 'powershell'): Found | ExecFailure {
  const fs = env.fs;
  const clean = name.replace(/^"|"$/g, '');
  const hasExt = /\.[^.\\/]+$/.test(basename('windows', clean));
  const exts = mode === 'create' ? (hasExt ? [''] : ['.exe']) : hasExt ? ['', ...pathExts(vars)] : pathExts(vars);
  const tryAt = (base: string): Found | undefined => {
    for (const ext of exts) {
      const path = fs.resolve(cwd, base + ext);
      const n = asFile(fs.stat(path));
      if (n) return { node: n, path: fs.realpath(path) };
    }
    return undefined;
  };
  if (/[\\/:]/.test(clean)) {
    const f = tryAt(clean);
    if (f) return f;
    const parent = fs.stat(fs.resolve(cwd, clean.replace(/[\\/][^\\/]*$/, '') || '\\'));
    return parent ? { error: 'no-such-file', name, path: fs.resolve(cwd, clean) } : { error: 'not-found', name };
  }
  const sysRoot = envGet(vars, 'SystemRoot', true) ?? 'C:\\Windows';
  const dirs = [
    ...(mode === 'powershell' ? [] : [cwd]),
    ...(mode === 'create' ? [`${sysRoot}\\System32`, sysRoot] : []),
    ...(envGet(vars, 'PATH', true) ?? '').split(';').filter(Boolean),
  ];
  for (const d of dirs) {
    const f = tryAt(`${d.replace(/[\\/]+$/, '')}\\${clean}`);
    if (f) return f;
  }
  return { error: 'not-found', name };
}

export interface ProcessSpec {
  env: ContainerEnv;
  vars: Record<string, string>;
  cwd: string;
  stdin?: Input;
  stdout?: Output;
  stderr?: Output;
  signal: AbortSignal;
  cred: Cred;
  cmdline?: string;
}

/** Builds the context a program runs in; its spawn starts children with the same container. */
export function makeCtx(spec: ProcessSpec): Ctx {
  const ctx: Ctx = {
    env: spec.env,
    vars: spec.vars,
    cwd: spec.cwd,
    stdin: spec.stdin ?? new EmptyInput(),
    stdout: spec.stdout ?? NULL_OUTPUT,
    stderr: spec.stderr ?? NULL_OUTPUT,
    signal: spec.signal,
    cred: spec.cred,
    cmdline: spec.cmdline,
    spawn: (argv, opts) => spawn(ctx, argv, opts),
  };
  return ctx;
}

/** Where a program would be started from, or why it cannot be. */
export function locate(parent: Pick<Ctx, 'env' | 'vars' | 'cwd' | 'cred'>, name: string): Found | ExecFailure {
  return parent.env.os === 'windows'
    ? findWindows(parent.env, name, parent.vars, parent.cwd, 'create')
    : findLinux(parent.env, name, parent.vars, parent.cwd, parent.cred);
}

export async function spawn(parent: Ctx, argv: string[], opts: SpawnOptions = {}, depth = 0): Promise<number | ExecFailure> {
  const found = locate({ ...parent, vars: opts.vars ?? parent.vars, cwd: opts.cwd ?? parent.cwd }, argv[0] ?? '');
  if ('error' in found) return found;
  return runFound(parent, found, argv, opts, depth);
}

/** Runs a located executable: its emulation, or its shebang interpreter. */
export async function runFound(parent: Ctx, found: Found, argv: string[], opts: SpawnOptions, depth = 0): Promise<number | ExecFailure> {
  const child = makeCtx({
    env: parent.env,
    vars: opts.vars ?? parent.vars,
    cwd: opts.cwd ?? parent.cwd,
    stdin: opts.stdin ?? parent.stdin,
    stdout: opts.stdout ?? parent.stdout,
    stderr: opts.stderr ?? parent.stderr,
    signal: opts.signal ?? parent.signal,
    cred: parent.cred,
    cmdline: opts.cmdline,
  });
  const { node, path } = found;
  if (node.program) {
    const program = PROGRAMS.get(node.program);
    if (!program) return unavailable(child, basename(parent.env.os, argv[0] ?? path));
    return program(argv, child);
  }
  const head = node.data.subarray(0, 256).toString();
  if (parent.env.os === 'linux' && head.startsWith('#!') && depth < 4) {
    const line = head.slice(2).split('\n')[0].trim();
    const [interp, ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    if (!isAbsolute('linux', interp) || !parent.env.fs.stat(interp)) return { error: 'no-such-file', name: argv[0], path };
    const sub = await spawn(child, [interp, ...(arg ? [arg] : []), argv[0].includes('/') ? argv[0] : path, ...argv.slice(1)], {}, depth + 1);
    return sub;
  }
  if (parent.env.os === 'windows') {
    const lower = path.toLowerCase();
    if (lower.endsWith('.bat') || lower.endsWith('.cmd')) {
      return spawn(child, ['cmd.exe', '/c', path, ...argv.slice(1)], { cmdline: `cmd.exe /c ${[`"${path}"`, ...argv.slice(1)].join(' ')}` }, depth + 1);
    }
  }
  return { error: 'exec-format', name: argv[0], path };
}
