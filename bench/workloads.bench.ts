// Issue 10 workloads at scale, as a user sees them: `winkube up` with a fleet of N Linux nodes, then through the real
// kubectl (a) a DaemonSet until every node's pod is Ready, (b) a RollingUpdate of it to a new image until
// `kubectl rollout status` returns, and (c) J Jobs of 10 pods each until every Job is Complete.
// Prints a table, then one JSON line.
// Run: npx tsc -p . && node dist/bench/workloads.bench.js   (BENCH_NODES, default 1000; BENCH_JOBS, default 1000)

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HttpTransport, optionsFromKubeconfig } from '../src/client/http-transport.js';
import { loadKubeconfig } from '../src/client/kubeconfig.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const NODES = Number(process.env.BENCH_NODES ?? 1000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const PODS_PER_JOB = 10;
const LIMIT_MS = 1_800_000;

function rssMB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-workloads-'));
  const fleet = join(dir, 'fleet.yaml');
  writeFileSync(fleet, `apiVersion: winkube.io/v1alpha1\nkind: NodeFleet\naddressing: { clusterCIDR: 10.0.0.0/8 }\nnodes:\n  - { name: cp, os: linux, roles: [control-plane] }\n  - { name: node, os: linux, count: ${NODES} }\n`);
  const kubeconfig = join(dir, 'kubeconfig');
  const proc: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--fleet', fleet, '--log-level', 'error', '--dashboard=false'], { stdio: 'ignore' });
  let peakRss = 0;
  const rssTimer = setInterval(() => { try { peakRss = Math.max(peakRss, rssMB(proc.pid!)); } catch { /* exited */ } }, 500);
  try {
    while (!existsSync(kubeconfig)) {
      if (proc.exitCode !== null) throw new Error('winkube up exited');
      await sleep(20);
    }
    const t = new HttpTransport(optionsFromKubeconfig(loadKubeconfig(kubeconfig)));
    const kc = (args: string[], input?: string, timeout = LIMIT_MS) => {
      const r = spawnSync('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8', input, timeout, maxBuffer: 64 << 20 });
      if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const getJson = async <T>(path: string): Promise<T | undefined> => (await t.request({ method: 'GET', path }).catch(() => undefined))?.body as T | undefined;
    const until = async (what: string, ok: () => Promise<boolean>) => {
      const s = performance.now();
      while (!(await ok())) {
        if (performance.now() - s > LIMIT_MS) throw new Error(`${what}: not done after ${LIMIT_MS / 60_000} minutes`);
        await sleep(250);
      }
    };
    const nodesTotal = NODES + 1;
    await until('nodes Ready', async () => {
      const l = await getJson<{ items?: { status?: { conditions?: { type: string; status: string }[] } }[] }>('/api/v1/nodes');
      return (l?.items ?? []).filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length >= nodesTotal;
    });

    // (a) A DaemonSet that tolerates everything, so it lands on every node (the control plane too).
    const ds = (image: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: c, image: '${image}'}]
`;
    type DsStatus = { status?: { desiredNumberScheduled?: number; numberReady?: number; updatedNumberScheduled?: number; numberAvailable?: number } };
    const d0 = performance.now();
    kc(['apply', '-f', '-'], ds('registry.k8s.io/pause:3.10'));
    await until('DaemonSet ready', async () => {
      const s = (await getJson<DsStatus>('/apis/apps/v1/namespaces/default/daemonsets/agent'))?.status;
      return !!s?.desiredNumberScheduled && s.desiredNumberScheduled >= nodesTotal && s.numberReady === s.desiredNumberScheduled;
    });
    const dsReadyMs = performance.now() - d0;
    const r0 = performance.now();
    kc(['set', 'image', 'ds/agent', 'c=registry.k8s.io/pause:3.9']);
    kc(['rollout', 'status', 'ds/agent', `--timeout=${LIMIT_MS / 1000}s`]);
    const rolloutMs = performance.now() - r0;
    kc(['delete', 'ds', 'agent', '--wait=false']);

    // (b) J Jobs of 10 completions, parallelism 10, pods that exit at once; POSTed over HTTPS 50 at a time (kubectl
    // apply would measure its own client-side rate limiter, about 4 objects a second).
    const j0 = performance.now();
    const job = (k: number) => ({
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `job-${k}` },
      spec: {
        completions: PODS_PER_JOB, parallelism: PODS_PER_JOB,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'exit 0'] }] } },
      },
    });
    let next = 0;
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (next < JOBS) {
        const k = next++;
        const res = await t.request({ method: 'POST', path: '/apis/batch/v1/namespaces/default/jobs', body: job(k), contentType: 'application/json' });
        if (res.status !== 201) throw new Error(`create job-${k}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }));
    const createdMs = performance.now() - j0;
    await until('Jobs complete', async () => {
      const l = await getJson<{ items?: { status?: { conditions?: { type: string; status: string }[] } }[] }>('/apis/batch/v1/namespaces/default/jobs');
      return (l?.items ?? []).filter((j) => j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')).length >= JOBS;
    });
    const jobsMs = performance.now() - j0;
    t.close();
    const result = {
      nodes: nodesTotal, jobs: JOBS, podsPerJob: PODS_PER_JOB,
      daemonSetReadyMs: Math.round(dsReadyMs), daemonSetRolloutMs: Math.round(rolloutMs),
      jobsCreatedMs: Math.round(createdMs), jobsCompleteMs: Math.round(jobsMs),
      jobPodsPerSecond: Math.round((JOBS * PODS_PER_JOB) / (jobsMs / 1000)), peakRssMB: Math.round(peakRss),
    };
    console.log(`workloads: ${result.nodes} nodes`);
    console.log(`  DaemonSet apply → ${result.nodes} pods Ready            ${result.daemonSetReadyMs} ms`);
    console.log(`  set image → rollout status returns          ${result.daemonSetRolloutMs} ms`);
    console.log(`  ${JOBS} Jobs × ${PODS_PER_JOB} pods: created               ${result.jobsCreatedMs} ms`);
    console.log(`  ${JOBS} Jobs × ${PODS_PER_JOB} pods: all Complete          ${result.jobsCompleteMs} ms  (${result.jobPodsPerSecond} pods/s)`);
    console.log(`  peak RSS of winkube                         ${result.peakRssMB} MB`);
    console.log(JSON.stringify({ bench: 'workloads', ...result }));
  } finally {
    clearInterval(rssTimer);
    proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
