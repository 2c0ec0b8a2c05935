// The runtime's side of starting a process in a container: the environment the OS adds, the session's terminal,
// resolving argv[0] (execve / CreateProcess), the runtime's error text when it cannot, and the exit status when the
// process is stopped.

import type { ContainerEnv, RunResult, ShellIO } from './interfaces.js';
import './programs.js';
import { Aborted, type ExecFailure } from './core/ctx.js';
import { LINUX_DEFAULT_PATH, locate, makeCtx, runFound } from './core/exec.js';
import { BrokenPipe, EmptyInput, FuncOutput, SessionInput, type Input, type Output } from './core/streams.js';
import { OnlcrOutput, TtyInput } from './core/tty.js';
import { credFor, linuxIdentity, passwd } from './core/users.js';
import { windowsDefaultPath } from './fs/seed-windows.js';
import { joinWindowsArgs } from './win/cmdline.js';
import { computerName } from './win/format.js';

/** STATUS_CONTROL_C_EXIT (0xC000013A) as int32: a Windows container's exit code after it is stopped (projectcalico/calico#6974). */
export const WINDOWS_STOPPED_EXIT = -1073741510;


/** The process environment: what the runtime passes plus what the OS supplies (PATH, HOME, HOSTNAME / the registry's). */
export function processEnvironment(env: ContainerEnv, tty: boolean): Record<string, string> {
  if (env.os === 'linux') {
    const vars: Record<string, string> = { ...env.env };
    vars.PATH ??= LINUX_DEFAULT_PATH;
    vars.HOSTNAME ??= env.hostname;
    if (vars.HOME === undefined) {
      const id = linuxIdentity(env.fs, env.user);
      vars.HOME = passwd(env.fs).find((p) => p.uid === id.uid)?.home ?? '/';
    }
    if (tty) vars.TERM ??= 'xterm';
    return vars;
  }
  const user = env.user.name;
  const system = user.toLowerCase() === 'nt authority\\system';
  const short = user.replace(/^.*\\/, '');
  const profile = system ? 'C:\\Windows\\system32\\config\\systemprofile' : `C:\\Users\\${short}`;
  const base: Record<string, string> = {
    ALLUSERSPROFILE: 'C:\\ProgramData',
    APPDATA: `${profile}\\AppData\\Roaming`,
    CommonProgramFiles: 'C:\\Program Files\\Common Files',
    COMPUTERNAME: computerName(env.hostname),
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
    LOCALAPPDATA: `${profile}\\AppData\\Local`,
    NUMBER_OF_PROCESSORS: String(env.system.cpus),
    OS: 'Windows_NT',
    Path: windowsDefaultPath(env.toolset === 'nanoserver' || env.toolset === 'none' ? 'nanoserver' : 'servercore', short),
    PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC',
    PROCESSOR_ARCHITECTURE: env.system.arch === 'arm64' ? 'ARM64' : 'AMD64',
    ProgramData: 'C:\\ProgramData',
    ProgramFiles: 'C:\\Program Files',
    PROMPT: '$P$G',
    PUBLIC: 'C:\\Users\\Public',
    SystemDrive: 'C:',
    SystemRoot: 'C:\\Windows',
    TEMP: `${profile}\\AppData\\Local\\Temp`,
    TMP: `${profile}\\AppData\\Local\\Temp`,
    USERDOMAIN: system ? 'WORKGROUP' : 'User Manager',
    USERNAME: system ? `${computerName(env.hostname)}$` : short,
    USERPROFILE: profile,
    windir: 'C:\\Windows',
  };
  if (env.toolset !== 'nanoserver') base.PSModulePath = `${profile}\\Documents\\WindowsPowerShell\\Modules;C:\\Program Files\\WindowsPowerShell\\Modules;C:\\Windows\\system32\\WindowsPowerShell\\v1.0\\Modules`;
  // Windows variable names are case-insensitive: the runtime's (image ENV, pod env) replace the system's.
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (!Object.keys(env.env).some((x) => x.toLowerCase() === k.toLowerCase())) vars[k] = v;
  return { ...vars, ...env.env };
}

function notFound(env: ContainerEnv, argv: string[], f: ExecFailure): RunResult {
  const name = argv[0] ?? '';
  if (env.os === 'windows') {
    const id = env.containerId ?? env.hostname;
    const why = f.error === 'exec-format' ? '%1 is not a valid Win32 application.' : f.error === 'permission' ? 'Access is denied.' : 'The system cannot find the file specified.';
    const inner = `hcs::System::CreateProcess ${id}: ${why}: unknown`;
    return { kind: 'not-found', message: inner, startMessage: `failed to create containerd task: failed to create shim task: ${inner}` };
  }
  let detail: string;
  switch (f.error) {
    case 'not-found': detail = `exec: "${name}": executable file not found in $PATH`; break;
    case 'no-such-file': detail = `exec: "${name}": stat ${name}: no such file or directory`; break;
    case 'permission': case 'is-dir': detail = `exec: "${name}": permission denied`; break;
    case 'exec-format': detail = `exec ${name}: exec format error`; break;
  }
  // runc 1.1 wording (containerd CRI passes it through).
  return {
    kind: 'not-found',
    message: `OCI runtime exec failed: exec failed: unable to start container process: ${detail}: unknown`,
    startMessage: `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: ${detail}: unknown`,
  };
}

/** Runs argv as the container runtime would exec it, until it exits or io.signal stops it. */
export async function runCommand(argv: string[], env: ContainerEnv, io: ShellIO): Promise<RunResult> {
  const tty = io.tty === true;
  const signal = io.signal ?? new AbortController().signal;
  const wrap = (fn: (c: string | Buffer) => void): Output => (tty && env.os === 'linux' ? new OnlcrOutput(fn) : new FuncOutput(fn, tty));
  const stdout = wrap(io.stdout);
  // A terminal has one output stream: the runtime sends stderr through it too.
  const stderr = tty ? stdout : wrap(io.stderr);
  const raw: Input = io.stdin ? new SessionInput(io.stdin, tty) : new EmptyInput();
  const stdin = tty ? new TtyInput(raw, stdout, env.os === 'windows' ? '\r\n' : '\n') : raw;
  if (stdin instanceof TtyInput) stdin.start();
  const vars = processEnvironment(env, tty);
  const cwd = env.workingDir || (env.os === 'windows' ? 'C:\\' : '/');
  if (!env.fs.stat(cwd)) {
    try { env.fs.mkdir(cwd, { parents: true }); } catch { /* the process starts in / */ }
  }
  const ctx = makeCtx({ env, vars, cwd, stdin, stdout, stderr, signal, cred: credFor(env) });
  const found = locate(ctx, argv[0] ?? '');
  if ('error' in found) return notFound(env, argv, found);
  try {
    const r = await runFound(ctx, found, argv, { cmdline: env.os === 'windows' ? joinWindowsArgs(argv) : undefined });
    if (typeof r !== 'number') return notFound(env, argv, r);
    return { kind: 'exited', exitCode: r };
  } catch (e) {
    if (e instanceof Aborted) {
      const exitCode = env.os === 'windows' ? (e.reason === 'SIGKILL' ? 1 : WINDOWS_STOPPED_EXIT) : e.reason === 'SIGKILL' ? 137 : 143;
      return { kind: 'exited', exitCode, signal: e.reason };
    }
    if (e instanceof BrokenPipe) return { kind: 'exited', exitCode: env.os === 'windows' ? 1 : 141 };
    throw e;
  }
}
