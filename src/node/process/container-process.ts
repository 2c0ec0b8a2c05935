// A running container's process, as the emulated shells run it: the main process (the container's command, whose
// output is the container log and whose exit ends the container), exec sessions in the same container (kubectl exec,
// exec probes, hooks), and the sockets its programs listen on.

import { PassThrough } from 'node:stream';
import type { ContainerEnv, Listener, RunResult, ShellIO } from '../shell/interfaces.js';
import type { ContainerLog } from '../logs/container-log.js';

export type RunCommand = (argv: string[], env: ContainerEnv, io: ShellIO) => Promise<RunResult>;

export class ContainerProcess {
  readonly listeners: Listener[] = [];
  private readonly lifetime = new AbortController();
  readonly env: ContainerEnv;
  /**
   * The main process's stdin when the container asks for one (`stdin: true`): what `kubectl attach -i` writes. Without
   * it the process reads EOF at once, as from /dev/null.
   */
  readonly stdin?: PassThrough;

  constructor(env: ContainerEnv, private readonly run: RunCommand, private readonly io: { stdin?: boolean; tty?: boolean } = {}) {
    if (io.stdin) this.stdin = new PassThrough();
    // Sockets are per pod network namespace; the kubelet checks ports across the pod's containers (inUse).
    this.env = {
      ...env,
      lifetime: this.lifetime.signal,
      listen: (l) => {
        if (env.listen) {
          const outer = env.listen(l);
          if (outer === 'in-use') return outer;
        }
        if (this.listeners.some((x) => x.port === l.port && x.protocol === l.protocol)) return 'in-use';
        this.listeners.push(l);
        return { close: () => void this.listeners.splice(this.listeners.indexOf(l), 1) };
      },
    };
  }

  /** Runs the container's own command with its output going to the container log. */
  runMain(argv: string[], log: ContainerLog): Promise<RunResult> {
    return this.run(argv, this.env, {
      stdin: this.stdin,
      tty: this.io.tty,
      stdout: (chunk) => log.write('stdout', chunk),
      stderr: (chunk) => log.write('stderr', chunk),
      signal: this.lifetime.signal,
    });
  }

  /** Runs a command in the container beside its main process (kubectl exec, exec probes, lifecycle hooks). */
  exec(argv: string[], io: ShellIO): Promise<RunResult> {
    const signal = io.signal ? AbortSignal.any([io.signal, this.lifetime.signal]) : this.lifetime.signal;
    return this.run(argv, this.env, { ...io, signal });
  }

  /** The container stops: every process in it ends and its sockets close. */
  stop(reason: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): void {
    this.listeners.length = 0;
    this.stdin?.end();
    if (!this.lifetime.signal.aborted) this.lifetime.abort(reason);
  }

  get stopped(): boolean {
    return this.lifetime.signal.aborted;
  }
}

/** Runs a command to completion capturing its output, with the probe's/hook's timeout (exec probes: timeoutSeconds). */
export async function execCaptured(p: ContainerProcess, argv: string[], timeoutMs: number, sleep: (ms: number, signal: AbortSignal) => Promise<void>): Promise<{ exitCode: number; output: string } | { error: string; timedOut?: boolean }> {
  const chunks: Buffer[] = [];
  const ctl = new AbortController();
  const timer = sleep(timeoutMs, ctl.signal).then(() => 'timeout' as const, () => 'cancelled' as const);
  const run = p.exec(argv, { stdout: (c) => chunks.push(Buffer.from(c)), stderr: (c) => chunks.push(Buffer.from(c)), signal: ctl.signal });
  const r = await Promise.race([run, timer]);
  ctl.abort('SIGKILL');
  if (r === 'timeout') return { error: `command ${JSON.stringify(argv.join(' '))} timed out`, timedOut: true };
  if (r === 'cancelled') return { error: 'cancelled' };
  if (r.kind === 'not-found') return { error: r.message };
  return { exitCode: r.exitCode, output: Buffer.concat(chunks).toString() };
}
