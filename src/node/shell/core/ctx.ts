// What a running emulated program sees: its container, process environment, working directory, streams, identity
// and the means to start other programs.

import type { ContainerEnv } from '../interfaces.js';
import type { Cred } from '../fs/vfs.js';
import type { Input, Output } from './streams.js';

/** Why a program could not be started (execve / CreateProcess failures). */
export type ExecFailure =
  | { error: 'not-found'; name: string }
  /** A path was given and nothing is there (or the shebang's interpreter is missing). */
  | { error: 'no-such-file'; name: string; path: string }
  | { error: 'permission'; name: string; path: string }
  | { error: 'is-dir'; name: string; path: string }
  /** No shebang and not a program: POSIX shells run it as a script. */
  | { error: 'exec-format'; name: string; path: string };

export interface SpawnOptions {
  stdin?: Input;
  stdout?: Output;
  stderr?: Output;
  vars?: Record<string, string>;
  cwd?: string;
  signal?: AbortSignal;
  /** Windows: the raw command line, when a shell started the program (cmd.exe passes its text through). */
  cmdline?: string;
}

export interface Ctx {
  env: ContainerEnv;
  /** The process environment. */
  vars: Record<string, string>;
  cwd: string;
  stdin: Input;
  stdout: Output;
  stderr: Output;
  signal: AbortSignal;
  cred: Cred;
  /** Windows: the raw command line this process was started with. */
  cmdline?: string;
  /** Starts another program in the container; resolves to its exit status or why it could not start. */
  spawn(argv: string[], opts?: SpawnOptions): Promise<number | ExecFailure>;
}

/** An emulated program: argv in, exit status out. */
export type Program = (argv: string[], ctx: Ctx) => Promise<number>;

/** Thrown when the session or container stops the process. */
export class Aborted extends Error {
  constructor(readonly reason: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') { super(`aborted (${reason})`); }
}

export function abortReason(signal: AbortSignal): 'SIGTERM' | 'SIGKILL' {
  return signal.reason === 'SIGKILL' ? 'SIGKILL' : 'SIGTERM';
}

export function checkAbort(ctx: Pick<Ctx, 'signal'>): void {
  if (ctx.signal.aborted) throw new Aborted(abortReason(ctx.signal));
}

/** Sleeps on the container's clock; throws Aborted when the process is stopped meanwhile. */
export async function sleep(ctx: Pick<Ctx, 'signal' | 'env'>, ms: number): Promise<void> {
  checkAbort(ctx);
  busy.delete(ctx.signal);
  await yieldNow();
  try {
    await ctx.env.clock.sleep(ms, ctx.signal);
  } catch (e) {
    if (ctx.signal.aborted) throw new Aborted(abortReason(ctx.signal));
    throw e;
  }
  checkAbort(ctx);
}

let ticks = 0;
/** Steps each process took since it last slept on the container's clock. */
const busy = new WeakMap<AbortSignal, number>();
/**
 * Steps a process may take without ever sleeping before it counts as CPU-bound (`while true; do :; done`, the
 * cpu_limits e2e PowerShell jobs multiplying up to 2^31). Its work is then not executed step by step: the process
 * parks until it is stopped, and the stats model (src/node/stats) accounts its CPU. Executing it would spend the
 * winkube process's own CPU on an emulated core.
 */
export const BUSY_STEP_LIMIT = 200_000;

/**
 * Lets the event loop run now and then, so tight loops stay abortable; a process that only computes is parked once
 * it passes BUSY_STEP_LIMIT (see above). This does not touch the container's clock.
 */
export async function yieldNow(signal?: AbortSignal): Promise<void> {
  ticks++;
  if (signal) {
    const n = (busy.get(signal) ?? 0) + 1;
    busy.set(signal, n);
    if (n > BUSY_STEP_LIMIT) await untilAborted(signal);
  }
  if (ticks % 8192 === 0) await new Promise<void>((r) => setTimeout(r, 2));
  else if (ticks % 256 === 0) await new Promise<void>((r) => setImmediate(r));
}

/** Waits until the process is stopped (servers, `pause`). */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new Aborted(abortReason(signal)));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/** Combines signals: aborts when any does, with that one's reason. */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal {
  const ctl = new AbortController();
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) { ctl.abort(s.reason); break; }
    s.addEventListener('abort', () => ctl.abort(s.reason), { once: true });
  }
  return ctl.signal;
}

/** Line ending of the container's OS. */
export function eol(ctx: Pick<Ctx, 'env'>): string {
  return ctx.env.os === 'windows' ? '\r\n' : '\n';
}

/** Writes lines with the OS's line ending. */
export function writeLines(ctx: Pick<Ctx, 'env'>, out: Output, lines: string[]): void {
  const nl = eol(ctx);
  out.write(lines.map((l) => l + nl).join(''));
}

/** The winkube message for a program the image has but the emulation does not implement. */
export function unavailable(ctx: Ctx, name: string): number {
  ctx.stderr.write(`winkube: "${name}" is not available in this emulated container${eol(ctx)}`);
  return ctx.env.os === 'windows' ? 9009 : 127;
}
