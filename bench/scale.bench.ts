// Scale as a user sees it (issue 11): `winkube up` with a fleet file of N Linux nodes, then `kubectl create deployment`
// of P pause pods, timed until every pod is Ready; meanwhile a `get` of one object every 100 ms over HTTPS (its
// latency and failures), the API server's event loop delay and CPU (its /metrics) and the winkube process's RSS.
// Prints a table, then one JSON line.
// Run: npx tsc -p . && node dist/bench/scale.bench.js   (BENCH_NODES Linux nodes, default 1000; BENCH_PODS, default
// 2000; BENCH_WINDOWS tainted Windows nodes, default 0; BENCH_NODE_FLAGS extra flags for winkube's node process, e.g.
// `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the run)

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HttpTransport, optionsFromKubeconfig } from '../src/client/http-transport.js';
import { loadKubeconfig } from '../src/client/kubeconfig.js';
import { parseBuckets, quantileBetween } from '../src/apiserver/process-metrics.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const NODES = Number(process.env.BENCH_NODES ?? 1000);
const PODS = Number(process.env.BENCH_PODS ?? 2000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 0);
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** Further `winkube up` flags, e.g. BENCH_UP_ARGS=--enable-priority-and-fairness=false. */
const UP_ARGS = (process.env.BENCH_UP_ARGS ?? '').split(' ').filter(Boolean);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-scale-'));
  const fleet = join(dir, 'fleet.yaml');
  // 10.0.0.0/8 holds the /24 of every node (the default 10.244.0.0/16 holds 256).
  // BENCH_WINDOWS adds that many Windows nodes tainted as the seeds advise (the mixed fleet): the Linux pods
  // must pass them by.
  const windows = WINDOWS > 0 ? `  - { name: win, os: windows, windowsBuild: 10.0.20348, count: ${WINDOWS}, taints: [{ key: os, value: windows, effect: NoSchedule }] }\n` : '';
  writeFileSync(fleet, `apiVersion: winkube.io/v1alpha1\nkind: NodeFleet\naddressing: { clusterCIDR: 10.0.0.0/8 }\nnodes:\n  - { name: cp, os: linux, roles: [control-plane] }\n  - { name: node, os: linux, count: ${NODES} }\n${windows}`);
  const kubeconfig = join(dir, 'kubeconfig');
  const t0 = performance.now();
  const proc: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--fleet', fleet, '--log-level', 'error', '--dashboard=false', ...UP_ARGS], { stdio: 'ignore' });
  try {
    while (!existsSync(kubeconfig)) {
      if (proc.exitCode !== null) throw new Error('winkube up exited');
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - t0;
    const t = new HttpTransport(optionsFromKubeconfig(loadKubeconfig(kubeconfig)));
    const kc = (args: string[]) => spawnSync('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8' });
    // The API server's own /metrics: event loop delay buckets and CPU seconds, read before and after.
    const scrape = async () => String((await t.request({ method: 'GET', path: '/metrics' })).body);
    const cpuOf = (text: string) => Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? 0);
    const before = await scrape();
    const start = performance.now();
    const created = kc(['create', 'deployment', 'p', '--image=registry.k8s.io/pause:3.10', `--replicas=${PODS}`]);
    if (created.status !== 0) throw new Error(created.stderr);
    const gets: number[] = [];
    let failures = 0;
    let peakRss = 0;
    let done = false;
    const probe = (async () => {
      while (!done) {
        const g0 = performance.now();
        try {
          const res = await t.request({ method: 'GET', path: '/api/v1/namespaces/default/services/kubernetes' });
          if (res.status !== 200) failures++;
          gets.push(performance.now() - g0);
        } catch {
          failures++;
        }
        peakRss = Math.max(peakRss, rssMB(proc.pid!));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let ready = 0;
    while (ready < PODS) {
      if (performance.now() - start > 900_000) throw new Error(`only ${ready}/${PODS} pods ready after 15 minutes`);
      await new Promise((r) => setTimeout(r, 250));
      const res = await t.request({ method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments/p' }).catch(() => undefined);
      ready = (res?.body as { status?: { readyReplicas?: number } } | undefined)?.status?.readyReplicas ?? ready;
    }
    const allReadyMs = performance.now() - start;
    done = true;
    await probe;
    const after = await scrape();
    // Leases must have been renewed on time throughout: no node may have turned NotReady under the load.
    const nodeList = (await t.request({ method: 'GET', path: '/api/v1/nodes' })).body as { items: { status?: { conditions?: { type: string; status: string }[] } }[] };
    const notReady = nodeList.items.filter((n) => !n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
    t.close();
    const loopBefore = parseBuckets(before, 'winkube_event_loop_delay_seconds');
    const loopAfter = parseBuckets(after, 'winkube_event_loop_delay_seconds');
    const result = {
      nodes: NODES + WINDOWS + 1, windowsNodes: WINDOWS, pods: PODS, nodesReadyMs: Math.round(readyMs), podsReadyMs: Math.round(allReadyMs),
      podsPerSecond: Math.round(PODS / (allReadyMs / 1000)), getP50Ms: +pct(gets, 50).toFixed(1), getP99Ms: +pct(gets, 99).toFixed(1),
      getFailures: failures, peakRssMB: Math.round(peakRss), nodesNotReadyAfter: notReady,
      loopDelayP99Ms: quantileBetween(loopBefore, loopAfter, 0.99) * 1000, loopDelayMaxMs: quantileBetween(loopBefore, loopAfter, 1) * 1000,
      coresUsed: +((cpuOf(after) - cpuOf(before)) / (allReadyMs / 1000)).toFixed(2),
    };
    console.log(`scale: ${result.nodes} nodes (${WINDOWS} of them tainted Windows), a Deployment of ${PODS} pause pods`);
    console.log(`  winkube up → every node Ready           ${result.nodesReadyMs} ms`);
    console.log(`  create deployment → every pod Ready     ${result.podsReadyMs} ms  (${result.podsPerSecond} pods/s)`);
    console.log(`  get of one object meanwhile             p50 ${result.getP50Ms} ms  p99 ${result.getP99Ms} ms  (${failures} failed)`);
    console.log(`  event loop delay meanwhile (bucket ≤)   p99 ${result.loopDelayP99Ms} ms  max ${result.loopDelayMaxMs} ms`);
    console.log(`  CPU of winkube meanwhile                ${result.coresUsed} cores`);
    console.log(`  peak RSS of winkube                     ${result.peakRssMB} MB`);
    console.log(`  nodes not Ready afterwards              ${notReady}`);
    console.log(JSON.stringify({ bench: 'scale', ...result }));
  } finally {
    // Ctrl-C as a user stops it (a profile asked for by BENCH_NODE_FLAGS is written on the way out), then make sure.
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 180_000))]);
    proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
