// Scheduler throughput through the real API (after kube's test/integration/scheduler_perf): an in-process control
// plane, N nodes and M pending pods created over the API, then the real Scheduler with its own client and informers;
// pods bound per second is counted from a watch on pods until every pod has spec.nodeName. As scheduler_perf's
// StartScheduler does, the shared informers are started and synced before the scheduler runs: their first LIST
// (every node and pending pod) is start-up, reported apart as "sync s", not scheduling.
// Run: npx tsc -p . && node dist/bench/scheduler.bench.js    (prints a table, then one JSON line)
//   BENCH_SIZES=500:1000,1000:2000,5000:10000  nodes:pods per size;  BENCH_SCENARIOS=basic,tainted
//   BENCH_RUNS=3 runs each size and scenario that many times and reports the run with the median pods/s.
//   BENCH_CONCURRENT=1 creates the pods while the scheduler runs instead of before it starts.
//   BENCH_CPUPROF=<file> writes a .cpuprofile of the scheduling phase of the last run (node --cpu-prof covers setup too).
//   BENCH_DISABLE_PLUGINS=A,B runs the default profile without those plugins (diagnosis only; figures to report use
//   the default profile).

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { WatchEvent } from '../src/api/types.js';
import { STRATEGIES } from '../src/api/strategies/index.js';
import { ControlPlane } from '../src/cluster/control-plane.js';
import { InformerFactory } from '../src/client/informer.js';
import type { Client } from '../src/client/interfaces.js';
import { R } from '../src/client/resources.js';
import { Scheduler } from '../src/scheduler/scheduler.js';
import type { Node, Pod } from '../src/scheduler/types.js';
import { RealClock } from '../src/util/clock.js';
import { silentLogger } from '../src/util/log.js';

type Scenario = 'basic' | 'tainted';

interface Row {
  scenario: Scenario;
  nodes: number;
  pods: number;
  createNodesS: number;
  createPodsPerS: number;
  /** The shared informers' first LIST and watch (nodes and pending pods), before the scheduler starts. */
  syncS: number;
  /** From Scheduler.start() until the watch saw the last pod bound. */
  scheduleS: number;
  /** CPU seconds (user + system) the process spent in that window: steadier than wall time on a shared machine. */
  scheduleCpuS: number;
  podsPerS: number;
  /** Pods on the wrong OS/build or on an untolerated taint: must be 0. */
  misplaced: number;
}

const NS = 'bench';
const WINDOWS_TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' as const };
const BUILDS = ['10.0.17763', '10.0.20348'];
const CONCURRENCY = 64;

/** 60% Linux, 40% Windows split across two builds; every node big enough that capacity never runs out. */
function makeNode(i: number, tainted: boolean): Node {
  const windows = i % 5 >= 3;
  const build = BUILDS[i % 2]!;
  const labels: Record<string, string> = {
    'kubernetes.io/hostname': `node-${i}`, 'kubernetes.io/os': windows ? 'windows' : 'linux', 'kubernetes.io/arch': 'amd64',
    'topology.kubernetes.io/zone': `zone-${i % 3}`,
  };
  if (windows) labels['node.kubernetes.io/windows-build'] = build;
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: `node-${i}`, labels },
    spec: windows && tainted ? { taints: [WINDOWS_TAINT] } : {},
    status: {
      capacity: { cpu: '32', memory: '128Gi', pods: '110', 'ephemeral-storage': '500Gi' },
      allocatable: { cpu: '32', memory: '126Gi', pods: '110', 'ephemeral-storage': '500Gi' },
      conditions: [{ type: 'Ready', status: 'True' }],
      nodeInfo: {
        operatingSystem: windows ? 'windows' : 'linux', architecture: 'amd64', kernelVersion: windows ? `${build}.1` : '6.1.0',
        osImage: windows ? 'Windows Server' : 'Debian GNU/Linux 12', containerRuntimeVersion: 'containerd://1.7.0',
        kubeletVersion: 'v1.33.1', kubeProxyVersion: 'v1.33.1', bootID: '', machineID: '', systemUUID: '',
      },
    },
  };
}

/**
 * Tainted fleet: 60% Linux pods (nodeSelector os=linux), 40% Windows pods pinned to one build with the toleration,
 * as a RuntimeClass's scheduling section would merge them in. Basic: no selectors at all.
 */
function makePod(i: number, scenario: Scenario): Pod {
  const spec: NonNullable<Pod['spec']> = {
    containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
  };
  if (scenario === 'tainted') {
    if (i % 5 >= 3) {
      spec.nodeSelector = { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': BUILDS[i % 2]! };
      spec.tolerations = [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }];
    } else {
      spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
    }
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${i}`, namespace: NS, labels: { app: `app-${i % 20}` } }, spec };
}

/** Runs `fn(i)` for i in [0, n) with at most CONCURRENCY requests in flight. */
async function pooled(n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, worker));
}

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** Counts pods that gained spec.nodeName; resolves when `want` are bound. */
async function watchBound(client: Client, want: number): Promise<{ done: Promise<Map<string, string>>; stop: () => void }> {
  const placed = new Map<string, string>();
  let resolve!: (m: Map<string, string>) => void;
  const done = new Promise<Map<string, string>>((r) => (resolve = r));
  const list = await client.list<Pod>(R.pods, NS);
  const stream = await client.watch<Pod>(R.pods, NS, { resourceVersion: list.metadata.resourceVersion }, (ev: WatchEvent<Pod>) => {
    const node = ev.object.spec?.nodeName;
    if (ev.type !== 'DELETED' && node && !placed.has(ev.object.metadata.name!)) {
      placed.set(ev.object.metadata.name!, node);
      if (placed.size === want) resolve(placed);
    }
  });
  return { done, stop: () => stream.stop() };
}

function misplacedCount(placed: Map<string, string>, scenario: Scenario, nodes: Node[]): number {
  if (scenario === 'basic') return 0;
  let bad = 0;
  for (const [pod, node] of placed) {
    const i = Number(pod.slice(4));
    const labels = nodes[Number(node.slice(5))]!.metadata.labels!;
    const want = makePod(i, scenario).spec!.nodeSelector!;
    for (const [k, v] of Object.entries(want)) if (labels[k] !== v) bad++;
  }
  return bad;
}

async function runOne(scenario: Scenario, numNodes: number, numPods: number, concurrent: boolean): Promise<Row> {
  const clock = new RealClock();
  const cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  const admin = cp.client();
  await admin.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  // No controller-manager runs here, so the ServiceAccount admission plugin needs the account made by hand.
  await admin.create(R.serviceaccounts, NS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: NS } });

  const nodes = Array.from({ length: numNodes }, (_, i) => makeNode(i, scenario === 'tainted'));
  let t0 = process.hrtime.bigint();
  await pooled(numNodes, (i) => admin.create(R.nodes, undefined, nodes[i]!));
  const createNodesS = seconds(t0);

  const schedClient = cp.client({ name: 'system:kube-scheduler', groups: ['system:authenticated'] });
  const informers = new InformerFactory({ client: schedClient, clock, logger: silentLogger });
  const disabledPlugins = process.env.BENCH_DISABLE_PLUGINS ? process.env.BENCH_DISABLE_PLUGINS.split(',') : undefined;
  const scheduler = new Scheduler({ client: schedClient, informers, clock, logger: silentLogger, disabledPlugins });
  const watcher = await watchBound(admin, numPods);

  let createPodsS = 0, scheduleS = 0, scheduleCpuS = 0, syncS = 0;
  if (concurrent) {
    await syncInformers(informers);
    await scheduler.start();
    t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    await pooled(numPods, (i) => admin.create(R.pods, NS, makePod(i, scenario)));
    createPodsS = seconds(t0);
    await watcher.done;
    scheduleS = seconds(t0);
    const cpu = process.cpuUsage(cpu0);
    scheduleCpuS = (cpu.user + cpu.system) / 1e6; // the creates' share included
  } else {
    t0 = process.hrtime.bigint();
    await pooled(numPods, (i) => admin.create(R.pods, NS, makePod(i, scenario)));
    createPodsS = seconds(t0);
    t0 = process.hrtime.bigint();
    await syncInformers(informers);
    syncS = seconds(t0);
    const prof = await startProfile();
    t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    await scheduler.start();
    await watcher.done;
    scheduleS = seconds(t0);
    const cpu = process.cpuUsage(cpu0);
    scheduleCpuS = (cpu.user + cpu.system) / 1e6;
    await prof?.();
  }
  const placed = await watcher.done;
  watcher.stop();
  scheduler.stop();
  await scheduler.idle();
  informers.stop();
  await cp.stop();
  return {
    scenario, nodes: numNodes, pods: numPods,
    createNodesS: round(createNodesS, 2), createPodsPerS: Math.round(numPods / createPodsS), syncS: round(syncS, 2),
    scheduleS: round(scheduleS, 2), scheduleCpuS: round(scheduleCpuS, 2), podsPerS: Math.round(numPods / scheduleS),
    misplaced: misplacedCount(placed, scenario, nodes),
  };
}

/** Starts the informers the scheduler registered (nodes, pods, its listers) and waits for their first list. */
async function syncInformers(informers: InformerFactory): Promise<void> {
  informers.for(R.nodes);
  informers.for(R.pods);
  informers.start();
  await informers.waitForSync();
}

/** With BENCH_CPUPROF set, profiles until the returned function is called. */
async function startProfile(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.BENCH_CPUPROF;
  if (!file) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

function parseSizes(s: string): [number, number][] {
  return s.split(',').map((p) => p.split(':').map(Number) as [number, number]);
}

async function main(): Promise<void> {
  const sizes = parseSizes(process.env.BENCH_SIZES ?? '500:1000,1000:2000,5000:10000');
  const scenarios = (process.env.BENCH_SCENARIOS ?? 'basic,tainted').split(',') as Scenario[];
  const concurrent = process.env.BENCH_CONCURRENT === '1';
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
  const rows: Row[] = [];
  const spread: string[] = [];
  for (const [n, m] of sizes) {
    for (const sc of scenarios) {
      const all: Row[] = [];
      for (let r = 0; r < runs; r++) all.push(await runOne(sc, n, m, concurrent));
      all.sort((a, b) => a.podsPerS - b.podsPerS);
      rows.push(all[Math.floor(all.length / 2)]!);
      if (runs > 1) spread.push(`${sc} ${n}:${m} pods/s over ${runs} runs: ${all.map((r) => r.podsPerS).join(', ')}`);
    }
  }

  const header = ['scenario', 'nodes', 'pods', 'create nodes s', 'create pods/s', 'sync s', 'schedule s', 'cpu s', 'pods/s', 'misplaced'];
  const lines = rows.map((r) => [r.scenario, r.nodes, r.pods, r.createNodesS, r.createPodsPerS, r.syncS, r.scheduleS, r.scheduleCpuS, r.podsPerS, r.misplaced].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`scheduler throughput through the in-process API (${concurrent ? 'pods created while scheduling' : 'pods created first, then the scheduler starts'})`);
  console.log(fmt(header));
  for (const l of lines) console.log(fmt(l));
  for (const l of spread) console.log(l);
  console.log(JSON.stringify({ bench: 'scheduler', concurrent, runs, rows }));
  if (rows.some((r) => r.misplaced > 0)) process.exitCode = 1;
}

await main();
