// What the end-to-end benches share: `winkube up` as a child process (ready once it has written its kubeconfig),
// and commands (kubectl, winkube) run against it with their time taken.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = new URL('../..', import.meta.url).pathname;
export const WINKUBE = join(ROOT, 'bin', 'winkube.js');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `winkube up` in `dir` with `args` after the common ones; resolves once the cluster answers. */
export async function upWinkube(dir: string, args: string[] = []): Promise<{ proc: ChildProcess; kubeconfig: string }> {
  const kubeconfig = join(dir, 'kubeconfig');
  const proc = spawn(process.execPath, [WINKUBE, 'up', '--data-dir', dir, '--port', '0', '--log-level', 'error', '--dashboard=false', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 120_000;
  while (!existsSync(kubeconfig)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`winkube up did not become ready:\n${out}`);
    await sleep(20);
  }
  return { proc, kubeconfig };
}

export interface CommandResult { code: number; stdout: string; stderr: string; ms: number }

/** Runs a command with KUBECONFIG set, timing it. */
export function runWith(kubeconfig: string, cmd: string, args: string[], input?: string): CommandResult {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8', input, maxBuffer: 64 * 2 ** 20 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
}

/** kubectl's output, or an error with its stderr. */
export function kubectl(kubeconfig: string, args: string[], input?: string): string {
  const r = runWith(kubeconfig, 'kubectl', args, input);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
