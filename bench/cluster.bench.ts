// Cluster benchmark: `winkube up` to all nodes Ready (cold = new data dir incl. certificates, warm = restart on the
// same data dir), the seed walkthrough (kubectl apply → both pods Running), and idle RSS of the default cluster.
// Run: npx tsc -p . && node dist/bench/cluster.bench.js [--runs N]

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';

const ROOT = new URL('../..', import.meta.url).pathname;
const MANIFEST = join(ROOT, 'test', 'fixtures', 'win-webserver.yaml');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

interface Up { proc: ChildProcess; ms: number; kubeconfig: string }

async function up(dir: string): Promise<Up> {
  const kubeconfig = join(dir, 'kubeconfig');
  rmSync(kubeconfig, { force: true });
  const t0 = performance.now();
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--log-level', 'error'], { stdio: 'ignore' });
  const deadline = Date.now() + 60_000;
  while (!existsSync(kubeconfig)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error('winkube up did not become ready');
    await new Promise((r) => setTimeout(r, 5));
  }
  return { proc, ms: performance.now() - t0, kubeconfig };
}

async function down(u: Up): Promise<void> {
  const exited = new Promise((r) => u.proc.once('exit', r));
  u.proc.kill('SIGINT');
  await exited;
}

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
}

/** Time from starting `kubectl apply` to both pods Running and Ready, seen through a watch. */
async function walkthrough(kubeconfig: string): Promise<number> {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const ready = new Set<string>();
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const watch = new k8s.Watch(kc);
  const req = await watch.watch('/api/v1/namespaces/default/pods', { labelSelector: 'app=win-webserver' }, (_type, pod: k8s.V1Pod) => {
    if (pod.status?.phase === 'Running' && pod.status.containerStatuses?.every((c) => c.ready)) ready.add(pod.metadata!.name!);
    if (ready.size >= 2) resolve();
  }, () => {});
  const t0 = performance.now();
  const r = spawnSync('kubectl', ['apply', '-f', MANIFEST], { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  await done;
  const ms = performance.now() - t0;
  req.abort();
  spawnSync('kubectl', ['delete', '-f', MANIFEST, '--wait=true'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
  return ms;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const cold: number[] = [];
  const warm: number[] = [];
  const walk: number[] = [];
  let rss = NaN;
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'winkube-bench-'));
    const first = await up(dir);
    cold.push(first.ms);
    walk.push(await walkthrough(first.kubeconfig));
    await down(first);
    const again = await up(dir);
    warm.push(again.ms);
    if (i === RUNS - 1) {
      await new Promise((r) => setTimeout(r, 5000));
      rss = rssMb(again.proc.pid!);
    }
    await down(again);
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = [
    ['winkube up → all nodes Ready (cold: new data dir, certificates)', stats(cold)],
    ['winkube up → all nodes Ready (warm: restart on same data dir)', stats(warm)],
    ['seed walkthrough: kubectl apply → both pods Running', stats(walk)],
  ] as const;
  console.log(`cluster benchmark (${RUNS} runs; milliseconds, min / median / max)`);
  for (const [name, s] of rows) console.log(`  ${name.padEnd(66)} ${s.min.toFixed(0).padStart(6)} ${s.median.toFixed(0).padStart(6)} ${s.max.toFixed(0).padStart(6)}`);
  console.log(`  ${'idle RSS of the default cluster after 5 s (MB)'.padEnd(66)} ${rss.toFixed(1).padStart(6)}`);
  console.log(JSON.stringify({ bench: 'cluster', runs: RUNS, upColdMs: stats(cold), upWarmMs: stats(warm), walkthroughMs: stats(walk), idleRssMb: Number(rss.toFixed(1)) }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
