// API latency and throughput over HTTPS with real clients: winkube's HttpTransport and @kubernetes/client-node
// creating, getting, updating and listing ConfigMaps against a winkube API server in another process, at a few
// concurrency levels. Run: npx tsc -p . && node dist/bench/api.bench.js   (table, then one JSON line; about 30-60 s on 2 cores)
// BENCH_OPS (default 300) sets the ConfigMaps per run; every phase also stops at BENCH_PHASE_MS (default 2500).

import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as k8s from '@kubernetes/client-node';
import type { KubeObject } from '../src/api/types.js';
import { createHttpClient } from '../src/client/http-transport.js';
import type { Client } from '../src/client/interfaces.js';
import { R } from '../src/client/resources.js';

const OPS = Number(process.env.BENCH_OPS ?? 300);
const LIST_OPS = Math.max(10, Math.round(OPS / 5));
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 2500);
const LEVELS = [1, 8, 32];

interface Cm {
  metadata?: { name?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

/** One client library, reduced to the four calls measured. */
interface Driver {
  name: string;
  create(ns: string, body: Cm): Promise<Cm>;
  get(ns: string, name: string): Promise<Cm>;
  update(ns: string, body: Cm): Promise<Cm>;
  list(ns: string): Promise<number>;
  close(): void;
}

function winkubeDriver(kubeconfig: string): Driver {
  const c: Client = createHttpClient(kubeconfig);
  return {
    name: 'winkube HttpTransport',
    create: (ns, body) => c.create(R.configmaps, ns, body as KubeObject),
    get: (ns, name) => c.get(R.configmaps, ns, name),
    update: (ns, body) => c.update(R.configmaps, ns, body as KubeObject),
    list: async (ns) => (await c.list(R.configmaps, ns)).items.length,
    close: () => c.transport.close?.(),
  };
}

function clientNodeDriver(kubeconfig: string): Driver {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const api = kc.makeApiClient(k8s.CoreV1Api);
  return {
    name: '@kubernetes/client-node',
    create: (namespace, body) => api.createNamespacedConfigMap({ namespace, body: body as k8s.V1ConfigMap }),
    get: (namespace, name) => api.readNamespacedConfigMap({ namespace, name }),
    update: (namespace, body) => api.replaceNamespacedConfigMap({ namespace, name: body.metadata!.name!, body: body as k8s.V1ConfigMap }),
    list: async (namespace) => (await api.listNamespacedConfigMap({ namespace })).items.length,
    close: () => {},
  };
}

interface PhaseResult {
  client: string;
  concurrency: number;
  op: string;
  ops: number;
  errors: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

let firstError: unknown;

/** Runs fn(0..count-1) on `conc` workers until done or the phase's time is up; latencies per call. */
async function phase(count: number, conc: number, fn: (i: number) => Promise<unknown>): Promise<Omit<PhaseResult, 'client' | 'concurrency' | 'op'>> {
  const lat: number[] = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  const deadline = t0 + PHASE_MS;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      const s = performance.now();
      try {
        await fn(i);
      } catch (err) {
        errors++;
        firstError ??= err;
      }
      lat.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: conc }, worker));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const pct = (p: number) => Math.round((lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? 0) * 100) / 100;
  return { ops: lat.length, errors, opsPerSec: Math.round(lat.length / secs), p50Ms: pct(0.5), p99Ms: pct(0.99) };
}

const payload = (i: number, gen: number): Record<string, string> =>
  ({ 'app.properties': `instance=${i}\ngeneration=${gen}\n${'setting.key=value\n'.repeat(50)}` }); // ~1 KB

async function runDriver(d: Driver, admin: Client, short: string): Promise<PhaseResult[]> {
  const out: PhaseResult[] = [];
  for (const conc of LEVELS) {
    const ns = `bench-${short}-c${conc}`;
    await admin.create(R.namespaces, undefined, { metadata: { name: ns } });
    // Warm-up: connections, JIT, the server's first-request paths.
    for (let i = 0; i < 10; i++) await d.get(ns, 'missing').catch(() => {});
    const objs: Cm[] = [];
    const rec = (op: string, r: Awaited<ReturnType<typeof phase>>) => out.push({ client: d.name, concurrency: conc, op, ...r });
    rec('create', await phase(OPS, conc, async (i) => {
      objs[i] = await d.create(ns, { metadata: { name: `cm-${i}` }, data: payload(i, 0) });
    }));
    const made = objs.filter(Boolean).length;
    rec('get', await phase(OPS, conc, (i) => d.get(ns, `cm-${i % made}`)));
    // Each object is updated once, so concurrent workers never race on one resourceVersion.
    rec('update', await phase(made, conc, async (i) => {
      const cur = objs[i]!;
      objs[i] = await d.update(ns, { ...cur, data: payload(i, 1) });
    }));
    rec(`list(${made})`, await phase(LIST_OPS, conc, async () => {
      const n = await d.list(ns);
      if (n !== made) throw new Error(`list returned ${n} items, expected ${made}`);
    }));
  }
  return out;
}

async function main(): Promise<void> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'winkube-api-bench-'));
  // The compiled server (its store runs a worker thread, which needs compiled JavaScript); its source under tsx when
  // this file runs as TypeScript.
  const compiled = import.meta.url.endsWith('.js');
  const server = fork(new URL(`./api-bench-server.${compiled ? 'js' : 'ts'}`, import.meta.url).pathname, [dir], { execArgv: compiled ? [] : ['--import', 'tsx'], stdio: 'inherit' });
  const killTimer = setTimeout(() => server.kill('SIGKILL'), 180_000);
  killTimer.unref();
  try {
    const kubeconfig = await new Promise<string>((resolve, reject) => {
      server.once('message', (m: { kubeconfig?: string }) => (m.kubeconfig ? resolve(m.kubeconfig) : reject(new Error('server did not start'))));
      server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const admin = createHttpClient(kubeconfig);
    const results: PhaseResult[] = [];
    const drivers: [Driver, string][] = [[winkubeDriver(kubeconfig), 'wk'], [clientNodeDriver(kubeconfig), 'cn']];
    for (const [d, short] of drivers) {
      results.push(...(await runDriver(d, admin, short)));
      d.close();
    }
    admin.transport.close?.();
    const serverCpuMs = await new Promise<number>((resolve) => {
      server.once('message', (m: { cpuMs: number }) => resolve(m.cpuMs));
      server.send({ stop: true });
    });
    const wallS = Math.round((performance.now() - started) / 100) / 10;

    console.log(`winkube API over HTTPS (HTTP/1.1, TLS 1.3, client certs), SQLite on disk, ${OPS} ConfigMaps of ~1 KB per run, ` +
      `server in its own process on loopback; node ${process.version}`);
    console.log('client'.padEnd(26) + 'conc'.padStart(5) + '  ' + 'op'.padEnd(11) + 'ops'.padStart(6) + 'err'.padStart(5) +
      'ops/s'.padStart(8) + 'p50 ms'.padStart(9) + 'p99 ms'.padStart(9));
    for (const r of results) {
      console.log(r.client.padEnd(26) + String(r.concurrency).padStart(5) + '  ' + r.op.padEnd(11) + String(r.ops).padStart(6) +
        String(r.errors).padStart(5) + String(r.opsPerSec).padStart(8) + r.p50Ms.toFixed(2).padStart(9) + r.p99Ms.toFixed(2).padStart(9));
    }
    console.log(`server CPU ${serverCpuMs} ms over ${wallS} s wall`);
    if (firstError) console.log(`first error: ${(firstError as Error).message ?? String(firstError)}`);
    console.log(JSON.stringify({ bench: 'api/https', node: process.version, ops: OPS, phaseMs: PHASE_MS, results, serverCpuMs, wallS }));
    if (results.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    if (server.exitCode === null) server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
