// Networking benchmark, end to end through `winkube up` as a user runs it (issue 9): the default cluster with the
// seed's win-webserver (test/fixtures/win-webserver.yaml, pinned to the WS2019 nodes its ltsc2019 image runs on, as
// seed 000 "Handling multiple Windows versions" advises), then
//  - whole `winkube net check` and `winkube net trace pod/<a> svc/win-webserver` processes (median, p95), and the
//    same questions asked of the node agent over HTTPS without the process start-up;
//  - endpoint programming end to end: from `kubectl scale deployment win-webserver --replicas=4` (from 2) until
//    kube-proxy has put each new pod into the HNS load balancer of the Service VIP on pod <a>'s node — with, on the
//    way, the pods Running and ready in the EndpointSlice. Each round scales back to 2 afterwards. The poll asks what
//    `winkube hns <node> --view json` asks (nodes/<n>/proxy/winkube/hns); the last rounds poll with whole
//    `winkube hns` processes instead, as a user's script would. (Inspection traces do not advance the load
//    balancers' turns, so a trace alone would keep showing the same backend.)
// Run: npx tsc -p . && node dist/bench/network.bench.js   (table, then one JSON line; BENCH_NET_RUNS, BENCH_NET_ROUNDS,
// BENCH_NET_PROC_ROUNDS)

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpTransport, optionsFromKubeconfig } from '../src/client/http-transport.js';
import { loadKubeconfig } from '../src/client/kubeconfig.js';
import { agentNode, nodeProxyGet } from '../src/cli/cluster-access.js';
import type { SerializedTrace } from '../src/network/model/serialize.js';
import { kubectl, runWith, upWinkube, WINKUBE } from './winkube-process.js';

const ROOT = new URL('../..', import.meta.url).pathname;

const RUNS = Number(process.env.BENCH_NET_RUNS ?? 20);
const ROUNDS = Number(process.env.BENCH_NET_ROUNDS ?? 10);
const PROC_ROUNDS = Number(process.env.BENCH_NET_PROC_ROUNDS ?? 3);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}
const median = (xs: number[]) => pct(xs, 50);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const winkube = (kubeconfig: string, args: string[]) => runWith(kubeconfig, process.execPath, [WINKUBE, ...args]);

interface PodItem { metadata: { name: string; deletionTimestamp?: string }; status: { phase?: string; podIP?: string } }
interface SliceItem { endpoints?: { addresses: string[]; conditions?: { ready?: boolean } }[] }

async function get<T>(t: HttpTransport, path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await t.request({ method: 'GET', path, query });
  if (res.status >= 300) throw new Error(`GET ${path}: ${res.status}`);
  return res.body as T;
}

async function runningPods(t: HttpTransport): Promise<Map<string, string>> {
  const list = await get<{ items: PodItem[] }>(t, '/api/v1/namespaces/default/pods', { labelSelector: 'app=win-webserver' });
  return new Map(list.items.filter((p) => p.status.phase === 'Running' && p.status.podIP && !p.metadata.deletionTimestamp).map((p) => [p.status.podIP!, p.metadata.name]));
}

async function readyEndpoints(t: HttpTransport): Promise<Set<string>> {
  const list = await get<{ items: SliceItem[] }>(t, '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', { labelSelector: 'kubernetes.io/service-name=win-webserver' });
  return new Set(list.items.flatMap((s) => (s.endpoints ?? []).filter((e) => e.conditions?.ready !== false).flatMap((e) => e.addresses)));
}

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Round { viaProcess: boolean; scaleMs: number; runningMs: number; endpointsMs: number; traceMs: number; polls: number }

/** Backend addresses of earlier rounds' pods. */
const retired = new Set<string>();

/**
 * The backends kube-proxy has programmed for the win-webserver ClusterIP on the client's node: the HNS load balancer
 * for the VIP and the addresses of its endpoints (`winkube hns <node> --view json`, or the same path over HTTPS).
 */
async function programmed(t: HttpTransport, kubeconfig: string, node: string, vip: string, viaProcess: boolean): Promise<string[]> {
  let text: string;
  if (viaProcess) {
    text = await new Promise<string>((resolve) => {
      const p = spawn(process.execPath, [WINKUBE, 'hns', node, '--view', 'json'], { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      p.on('close', () => resolve(out));
    });
  } else text = String(await nodeProxyGet(t, node, 'winkube/hns', { view: 'json' }));
  const hns = JSON.parse(text || '{}') as { endpoints?: { id: string; ipAddress: string }[]; loadBalancers?: { frontendVIPs: string[]; hostComputeEndpoints: string[] }[] };
  const byId = new Map((hns.endpoints ?? []).map((e) => [e.id, e.ipAddress]));
  const lb = (hns.loadBalancers ?? []).find((l) => l.frontendVIPs.includes(vip));
  return (lb?.hostComputeEndpoints ?? []).map((id) => byId.get(id)).filter((ip): ip is string => !!ip);
}

/**
 * 2 → 4 replicas: the time (from just before `kubectl scale` starts) until each new pod is seen Running, ready in the
 * EndpointSlice, and programmed into the VIP's HNS load balancer on the client's node; each observation is timed when
 * its answer arrives.
 */
async function scaleRound(t: HttpTransport, kubeconfig: string, clientNode: string, vip: string, viaProcess: boolean): Promise<Round> {
  const before = new Set((await runningPods(t)).keys());
  if (before.size !== 2) throw new Error(`want 2 running replicas before the round, have ${before.size}`);
  const t0 = performance.now();
  kubectl(kubeconfig, ['scale', 'deployment', 'win-webserver', '--replicas=4']);
  const scaleMs = performance.now() - t0;
  const seen = { running: new Map<string, number>(), ready: new Map<string, number>(), traced: new Map<string, number>() };
  const mark = (m: Map<string, number>, ips: Iterable<string>) => {
    const now = performance.now() - t0;
    for (const ip of ips) if (!before.has(ip) && !retired.has(ip) && !m.has(ip)) m.set(ip, now);
  };
  let polls = 0;
  const deadline = Date.now() + 120_000;
  while (seen.traced.size < 2) {
    if (Date.now() > deadline) throw new Error(`new backends not programmed (${JSON.stringify([...seen.traced.keys()])})`);
    polls++;
    await Promise.all([
      runningPods(t).then((m) => mark(seen.running, m.keys())),
      readyEndpoints(t).then((s) => mark(seen.ready, s)),
      programmed(t, kubeconfig, clientNode, vip, viaProcess).then((ips) => mark(seen.traced, ips)),
    ]);
  }
  // A programmed backend was running and ready, whatever a list answered a moment before.
  const last = (m: Map<string, number>) => Math.max(...[...seen.traced.keys()].map((ip) => Math.min(m.get(ip) ?? Infinity, seen.traced.get(ip)!)));
  const round = { viaProcess, scaleMs, runningMs: last(seen.running), endpointsMs: last(seen.ready), traceMs: last(seen.traced), polls };
  // Back to two replicas (the newest go first, so the client pod stays) before the next round; their addresses do not
  // count again, should a load balancer still hold them.
  for (const ip of seen.traced.keys()) retired.add(ip);
  kubectl(kubeconfig, ['scale', 'deployment', 'win-webserver', '--replicas=2']);
  await waitFor('2 replicas again', async () => ((await runningPods(t)).size === 2 && (await readyEndpoints(t)).size === 2 ? true : undefined));
  return round;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-net-bench-'));
  const { proc, kubeconfig } = await upWinkube(dir);
  const t = new HttpTransport(optionsFromKubeconfig(loadKubeconfig(kubeconfig)));
  try {
    // The seed's manifest, pinned to the WS2019 nodes (unpinned, replicas past two spread onto the WS2022 node, whose
    // ltsc2019 pull fails: docs/node-profiles.md).
    const seed = readFileSync(join(ROOT, 'test', 'fixtures', 'win-webserver.yaml'), 'utf8')
      .replace('      kubernetes.io/os: windows\n', "      kubernetes.io/os: windows\n      node.kubernetes.io/windows-build: '10.0.17763'\n");
    if (!seed.includes('windows-build')) throw new Error('could not pin the manifest to WS2019');
    kubectl(kubeconfig, ['apply', '-f', '-'], seed);
    const running = await waitFor('2 win-webserver pods Running', async () => {
      const m = await runningPods(t);
      return m.size === 2 ? m : undefined;
    });
    const client = [...running.values()].sort()[0];
    const podIPs = new Map([...running].map(([ip, name]) => [name, ip]));
    // Discovery by name needs kube-dns endpoints (the coredns pods' readiness): wait until the check passes.
    await waitFor('`winkube net check` passing', async () => (winkube(kubeconfig, ['net', 'check']).code === 0 ? true : undefined));
    const agent = await agentNode(t);
    const clientNode = (await get<{ spec: { nodeName: string } }>(t, `/api/v1/namespaces/default/pods/${client}`, {})).spec.nodeName;
    const vip = (await get<{ spec: { clusterIP: string } }>(t, '/api/v1/namespaces/default/services/win-webserver', {})).spec.clusterIP;

    const timed = (args: string[]) => {
      const xs: number[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const r = winkube(kubeconfig, args);
        if (r.code !== 0) throw new Error(`winkube ${args.join(' ')} exited ${r.code}:\n${r.stdout}${r.stderr}`);
        if (i >= 2) xs.push(r.ms);
      }
      return xs;
    };
    const help = timed(['--help']);
    const check = timed(['net', 'check']);
    const trace = timed(['net', 'trace', `pod/${client}`, 'svc/win-webserver']);
    const api = async (path: string, q: Record<string, string>) => {
      const xs: number[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const t0 = performance.now();
        await nodeProxyGet(t, agent, path, q);
        if (i >= 2) xs.push(performance.now() - t0);
      }
      return xs;
    };
    const checkApi = await api('winkube/net/check', {});
    const traceApi = await api('winkube/net/trace', { from: `pod/${client}`, to: 'svc/win-webserver', protocol: 'TCP', port: '80' });
    const cells = (JSON.parse(winkube(kubeconfig, ['net', 'check', '--json']).stdout) as unknown[]).length;

    const rounds: Round[] = [];
    for (let i = 1; i <= ROUNDS + PROC_ROUNDS; i++) {
      if (!(await runningPods(t)).has(podIPs.get(client)!)) throw new Error(`the client pod ${client} went away`);
      rounds.push(await scaleRound(t, kubeconfig, clientNode, vip, i > ROUNDS));
    }
    const api_ = rounds.filter((r) => !r.viaProcess);
    const procR = rounds.filter((r) => r.viaProcess);

    const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;
    const row = (name: string, xs: number[]) => console.log(`  ${name.padEnd(64)} ${ms(median(xs))} ${ms(pct(xs, 95))}  (n=${xs.length})`);
    console.log(`network benchmark: default cluster, win-webserver (2 pods), ${cells} net check cells   median / p95`);
    row('`winkube --help` (process start-up alone)', help);
    row('`winkube net check`, whole process', check);
    row('`winkube net trace pod/<a> svc/win-webserver`, whole process', trace);
    row('net check through the API server (HTTPS, no process start-up)', checkApi);
    row('net trace through the API server (HTTPS, no process start-up)', traceApi);
    console.log('  `kubectl scale deployment win-webserver --replicas=4` (from 2), from just before kubectl starts, until both new pods are:');
    if (api_.length) {
      row('  `kubectl scale` returned', api_.map((r) => r.scaleMs));
      row('  Running (pod list)', api_.map((r) => r.runningMs));
      row('  ready in the EndpointSlice', api_.map((r) => r.endpointsMs));
      row('  in the VIP\'s HNS load balancer on the client\'s node (the API path winkube hns asks)', api_.map((r) => r.traceMs));
      row('  … of which EndpointSlice ready → programmed (kube-proxy + polling)', api_.map((r) => r.traceMs - r.endpointsMs));
    }
    if (procR.length) row('  programmed, polled with whole `winkube hns` processes', procR.map((r) => r.traceMs));
    console.log(`  (${api_.length} + ${procR.length} rounds; polls per round: ${rounds.map((r) => r.polls).join(' ')})`);
    const stat = (xs: number[]) => ({ median: +median(xs).toFixed(1), p95: +pct(xs, 95).toFixed(1), n: xs.length });
    console.log(JSON.stringify({
      bench: 'network', netCheckCells: cells,
      helpProcessMs: stat(help), netCheckProcessMs: stat(check), netTraceProcessMs: stat(trace), netCheckApiMs: stat(checkApi), netTraceApiMs: stat(traceApi),
      scaleReturnedMs: stat(api_.map((r) => r.scaleMs)), scaleToRunningMs: stat(api_.map((r) => r.runningMs)), scaleToEndpointsReadyMs: stat(api_.map((r) => r.endpointsMs)),
      scaleToReachableMs: stat(api_.map((r) => r.traceMs)), endpointsReadyToReachableMs: stat(api_.map((r) => r.traceMs - r.endpointsMs)),
      scaleToReachableProcessPollMs: stat(procR.map((r) => r.traceMs)),
      rounds: rounds.map((r) => ({ viaProcess: r.viaProcess, scaleMs: Math.round(r.scaleMs), runningMs: Math.round(r.runningMs), endpointsMs: Math.round(r.endpointsMs), traceMs: Math.round(r.traceMs), polls: r.polls })),
    }));
  } finally {
    t.close();
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGINT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
