// Node-runtime benchmark, end to end through `winkube up` and real clients over HTTPS:
//  - exec round trip (`echo`) with @kubernetes/client-node's Exec (WebSocket v5, as kubectl ≥ 1.30 speaks it), and
//    whole `kubectl exec` processes beside it;
//  - `logs -f` latency: a container prints a line every 100 ms; the client's arrival time minus the kubelet's
//    timestamp of the line;
//  - probe cost: CPU of the winkube process with N pods each probed every second (readiness httpGet + liveness exec).
// Run: npx tsc -p . && node dist/bench/streams.bench.js   (table, then one JSON line; BENCH_EXECS, BENCH_PROBED_PODS,
// BENCH_PROBES=http|http+exec)

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import * as k8s from '@kubernetes/client-node';

const ROOT = new URL('../..', import.meta.url).pathname;
const EXECS = Number(process.env.BENCH_EXECS ?? 300);
const PROBED = Number(process.env.BENCH_PROBED_PODS ?? 1000);
const PROBE_NODES = 100;
/** `http` (one readiness httpGet per pod) or `http+exec` (plus an exec liveness probe). */
const PROBES = process.env.BENCH_PROBES ?? 'http';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function up(dir: string, fleet?: string): Promise<{ proc: ChildProcess; kubeconfig: string }> {
  const kubeconfig = join(dir, 'kubeconfig');
  const args = [join(ROOT, 'bin', 'winkube.js'), 'up', '--data-dir', dir, '--port', '0', '--log-level', 'error'];
  if (fleet) args.push('--fleet', fleet);
  const proc = spawn(process.execPath, args, { stdio: 'ignore' });
  const deadline = Date.now() + 120_000;
  while (!existsSync(kubeconfig)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error('winkube up did not become ready');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { proc, kubeconfig };
}

async function down(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGINT');
  await exited;
}

function kubectl(kubeconfig: string, args: string[], input?: string): string {
  const r = spawnSync('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8', input });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function waitRunning(kubeconfig: string, selector: string, count: number): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const phases = kubectl(kubeconfig, ['get', 'pods', '-l', selector, '-o', 'jsonpath={.items[*].status.phase}']).split(' ').filter(Boolean);
    if (phases.length >= count && phases.every((p) => p === 'Running')) return;
    if (Date.now() > deadline) throw new Error(`pods ${selector} not Running`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function execLatency(kubeconfig: string): Promise<{ clientNode: number[]; kubectl: number[] }> {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const exec = new k8s.Exec(kc);
  const clientNode: number[] = [];
  for (let i = 0; i < EXECS + 20; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const stdout = new Writable({ write(c, _e, cb) { out += c.toString(); cb(); } });
      exec.exec('default', 'bench', 'c', ['echo', 'x'], stdout, null, null, false, (s) => {
        if (s.status === 'Success' && out === 'x\n') resolve();
        else reject(new Error(`exec ended ${JSON.stringify(s)} with ${JSON.stringify(out)}`));
      }).catch(reject);
    });
    if (i >= 20) clientNode.push(performance.now() - t0);
  }
  const whole: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    kubectl(kubeconfig, ['exec', 'bench', '--', 'echo', 'x']);
    whole.push(performance.now() - t0);
  }
  return { clientNode, kubectl: whole };
}

async function logsLatency(kubeconfig: string): Promise<number[]> {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const log = new k8s.Log(kc);
  const lat: number[] = [];
  const sink = new PassThrough();
  // Lines from before the follow began are history, not latency (client-node drops tailLines: 0 as unset).
  const since = Date.now();
  let buf = '';
  sink.on('data', (c: Buffer) => {
    const now = Date.now();
    buf += c.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const stamp = Date.parse(line.slice(0, line.indexOf(' ')));
      if (!Number.isNaN(stamp) && stamp >= since) lat.push(now - stamp);
    }
  });
  const req = await log.log('default', 'ticker', 'c', sink, { follow: true, timestamps: true, tailLines: 0 });
  await new Promise((r) => setTimeout(r, 6000));
  req.abort();
  return lat;
}

function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

async function probeCost(): Promise<{ idle: number; probed: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-bench-probes-'));
  const fleet = join(dir, 'fleet.yaml');
  writeFileSync(fleet, `addressing: {clusterCIDR: 10.0.0.0/8}\nnodes:\n  - {name: node, count: ${PROBE_NODES}}\n`);
  const { proc, kubeconfig } = await up(join(dir, 'data'), fleet);
  const window = async () => {
    const c0 = cpuMs(proc.pid!);
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 10_000));
    return (cpuMs(proc.pid!) - c0) / (Date.now() - t0);
  };
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await window();
  kubectl(kubeconfig, ['apply', '-f', '-'], `apiVersion: apps/v1
kind: Deployment
metadata: {name: probed}
spec:
  replicas: ${PROBED}
  selector: {matchLabels: {app: probed}}
  template:
    metadata: {labels: {app: probed}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 1}
${PROBES === 'http+exec' ? '        livenessProbe: {exec: {command: [cat, /etc/hostname]}, periodSeconds: 1}\n' : ''}`);
  await waitRunning(kubeconfig, 'app=probed', PROBED);
  await new Promise((r) => setTimeout(r, 3000));
  const probed = await window();
  await down(proc);
  rmSync(dir, { recursive: true, force: true });
  return { idle, probed };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-bench-streams-'));
  const { proc, kubeconfig } = await up(dir);
  kubectl(kubeconfig, ['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: bench, labels: {app: bench}}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"]}]
---
apiVersion: v1
kind: Pod
metadata: {name: ticker, labels: {app: bench}}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sh, -c, 'while true; do echo tick; sleep 0.1; done']}]
`);
  await waitRunning(kubeconfig, 'app=bench', 2);
  const ex = await execLatency(kubeconfig);
  const logs = await logsLatency(kubeconfig);
  await down(proc);
  rmSync(dir, { recursive: true, force: true });
  const probes = await probeCost();

  const row = (name: string, xs: number[]) => console.log(`  ${name.padEnd(58)} ${pct(xs, 50).toFixed(1).padStart(7)} ${pct(xs, 99).toFixed(1).padStart(7)}  (n=${xs.length})`);
  console.log('node runtime benchmark (milliseconds: p50 / p99)');
  row('exec round trip, client-node WebSocket v5, HTTPS', ex.clientNode);
  row('exec, whole `kubectl exec` process', ex.kubectl);
  row('logs -f: kubelet timestamp → client (line every 100 ms)', logs);
  console.log(`  ${`probe cost: ${PROBED} pods × (${PROBES}) every 1 s on ${PROBE_NODES} nodes`.padEnd(58)} ${(probes.probed * 100).toFixed(1).padStart(6)}% of a core (idle ${(probes.idle * 100).toFixed(1)}%)`);
  console.log(JSON.stringify({
    bench: 'streams',
    execClientNodeMs: { p50: pct(ex.clientNode, 50), p99: pct(ex.clientNode, 99), n: ex.clientNode.length },
    execKubectlMs: { p50: pct(ex.kubectl, 50), p99: pct(ex.kubectl, 99) },
    logsFollowMs: { p50: pct(logs, 50), p99: pct(logs, 99), n: logs.length },
    probeCost: { pods: PROBED, nodes: PROBE_NODES, probes: PROBES, coreFraction: Number(probes.probed.toFixed(3)), idleCoreFraction: Number(probes.idle.toFixed(3)) },
  }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
