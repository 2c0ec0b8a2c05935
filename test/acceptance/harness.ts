// Acceptance-test harness: starts `winkube up` as a user would (a child process, waiting for the kubeconfig) and
// runs the real kubectl binaries on the machine against it.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = new URL('../../..', import.meta.url).pathname; // dist/test/acceptance → repo root

export interface RunningCluster {
  dir: string;
  kubeconfig: string;
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  fleet?: string;
  timeoutMs?: number;
  /** More `winkube up` flags (e.g. --publish). */
  args?: string[];
}

/** Starts `winkube up --data-dir DIR --port 0` and resolves once DIR/kubeconfig exists (every node Ready). */
export async function startCluster(opts: StartOptions = {}): Promise<RunningCluster> {
  const dir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'winkube-acc-'));
  const kubeconfig = join(dir, 'kubeconfig');
  // A kubeconfig left by an earlier run on this data dir must not be mistaken for this run's readiness signal.
  rmSync(kubeconfig, { force: true });
  const args = [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--log-level', 'warn'];
  if (opts.fleet) args.push('--fleet', opts.fleet);
  args.push(...(opts.args ?? []));
  const proc: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!existsSync(kubeconfig)) {
    if (proc.exitCode !== null) throw new Error(`winkube up exited with ${proc.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`winkube up did not write ${kubeconfig} in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    dir,
    kubeconfig,
    output: () => out,
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      if (!opts.dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every kubectl on the machine: the one on PATH plus its versioned siblings (kubectl.1.27 … kubectl.1.33). */
export function kubectlBinaries(): { version: string; path: string }[] {
  const which = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();
  if (!which) return [];
  const real = realpathSync(which);
  const dir = dirname(real);
  const out = readdirSync(dir)
    .filter((f) => /^kubectl\.1\.\d+$/.test(f))
    .map((f) => ({ version: f.slice('kubectl.'.length), path: join(dir, f) }))
    .sort((a, b) => Number(a.version.split('.')[1]) - Number(b.version.split('.')[1]));
  return out.length ? out : [{ version: 'default', path: real }];
}

/** The oldest and newest kubectl (the acceptance floor), or just the one present. */
export function kubectlEnds(): { version: string; path: string }[] {
  const all = kubectlBinaries();
  return all.length <= 2 ? all : [all[0], all[all.length - 1]];
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * kubectl without blocking this process: for tests whose own event loop must go on answering (a webhook served by
 * the test while kubectl's request waits on it).
 */
export function kubectlAsync(bin: string, kubeconfig: string, args: string[], input?: string): Promise<KubectlResult> {
  const cache = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));
  const p = spawn(bin, [...args, '--cache-dir', cache], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: cache } });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  p.stdin.end(input ?? '');
  return new Promise((resolve) => p.on('close', (code) => {
    rmSync(cache, { recursive: true, force: true });
    resolve({ code: code ?? -1, stdout, stderr });
  }));
}

export class Kubectl {
  private readonly cacheDir: string;

  constructor(readonly bin: string, private readonly kubeconfig: string) {
    this.cacheDir = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));
  }

  run(args: string[], input?: string, timeoutMs = 30_000, env: Record<string, string> = {}): KubectlResult {
    const r = spawnSync(this.bin, this.withCacheDir(args), {
      encoding: 'utf8', input, timeout: timeoutMs,
      env: { ...process.env, KUBECONFIG: this.kubeconfig, HOME: this.cacheDir, ...env },
    });
    return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }

  /** Runs and throws with kubectl's own output when it fails. */
  ok(args: string[], input?: string): string {
    const r = this.run(args, input);
    if (r.code !== 0) throw new Error(`${this.bin} ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  /** Starts a long-running kubectl (e.g. get -w) and returns its process. */
  spawn(args: string[]): ChildProcess {
    return spawn(this.bin, this.withCacheDir(args), { env: { ...process.env, KUBECONFIG: this.kubeconfig, HOME: this.cacheDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** kubectl's own flags go before `--`: what follows is the command of `exec`. */
  private withCacheDir(args: string[]): string[] {
    const dash = args.indexOf('--');
    return dash < 0 ? [...args, '--cache-dir', this.cacheDir] : [...args.slice(0, dash), '--cache-dir', this.cacheDir, ...args.slice(dash)];
  }

  dispose(): void {
    rmSync(this.cacheDir, { recursive: true, force: true });
  }
}

export function writeTemp(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-manifest-'));
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** Polls `fn` until it returns a truthy value or the time runs out. */
export async function eventually<T>(fn: () => T | Promise<T>, timeoutMs = 20_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs another `winkube` command (net, hns) against a cluster, as a user would from a shell. */
export function winkube(args: string[], kubeconfig: string, timeoutMs = 30_000): KubectlResult {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'winkube.js'), ...args, '--kubeconfig', kubeconfig], { encoding: 'utf8', timeout: timeoutMs, cwd: ROOT });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
