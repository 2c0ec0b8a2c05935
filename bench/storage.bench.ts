// Benchmark of the Store backends' hot paths (sqlite, and etcd when installed): create, get, update, list, delete,
// with a watch cache attached. Run: node --import tsx bench/storage.bench.ts   (prints a table per backend, then one
// JSON line; under a minute on 2 cores; BENCH_N / BENCH_ETCD_N set the pod counts)

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdHttp } from '../src/storage/etcd/etcd-http.js';
import { EtcdStore } from '../src/storage/etcd/etcd-store.js';
import { ETCD_BIN, etcdInstalled, startLocalEtcd } from '../src/storage/etcd/local-etcd.js';
import type { Store } from '../src/storage/interfaces.js';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { WatchCache } from '../src/storage/watch-cache.js';
import { silentLogger } from '../src/util/log.js';

const N = Number(process.env.BENCH_N ?? 10_000);
const N_ETCD = Number(process.env.BENCH_ETCD_N ?? 2_000);
const NAMESPACES = 20;
const PODS = '/registry/pods/';

interface Result {
  ops: number;
  opsPerSec: number;
  p50Us: number;
  p99Us: number;
}

/** Times `fn(i)` for i in [0, count) one at a time, the way request handlers call the store. */
async function measure(count: number, fn: (i: number) => Promise<unknown>): Promise<Result> {
  const lat = new Float64Array(count);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const s = process.hrtime.bigint();
    await fn(i);
    lat[i] = Number(process.hrtime.bigint() - s) / 1000;
  }
  const totalS = Number(process.hrtime.bigint() - t0) / 1e9;
  lat.sort();
  const pct = (p: number) => Math.round(lat[Math.min(count - 1, Math.floor(p * count))]! * 10) / 10;
  return { ops: count, opsPerSec: Math.round(count / totalS), p50Us: pct(0.5), p99Us: pct(0.99) };
}

/** A pod-sized JSON value (~1 KB), varied so sqlite cannot cheat on identical rows. */
function podJson(i: number, gen: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: `ns${i % NAMESPACES}`, labels: { app: `app-${i % 50}`, gen: String(gen) } },
    spec: {
      nodeName: `node-${i % 100}`,
      containers: [{ name: 'main', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', resources: { limits: { cpu: '500m', memory: '256Mi' } } }],
    },
    status: { phase: 'Running', podIP: `10.244.${(i >> 8) & 255}.${i & 255}`, conditions: [{ type: 'Ready', status: 'True' }] },
    pad: 'x'.repeat(600),
  });
}

const key = (i: number) => `${PODS}ns${i % NAMESPACES}/pod-${i}`;

interface Run {
  n: number;
  results: Record<string, Result>;
  delivered: number;
  expected: number;
  sizeMb: number;
}

/** The same workload for every backend; `settle` waits until the watch cache has seen every write so far. */
async function run(store: Store, n: number, settle: () => Promise<void>, sizeMb: () => Promise<number>): Promise<Run> {
  const cache = new WatchCache({ store, prefix: PODS, logger: silentLogger });
  await cache.start();
  let delivered = 0;
  for (let w = 0; w < 10; w++) cache.watch(PODS, cache.revision(), () => void delivered++);

  const order = Array.from({ length: n }, (_, i) => (i * 7919) % n); // a fixed shuffle
  const results: Record<string, Result> = {};
  results.create = await measure(n, (i) => store.create(key(i), podJson(i, 0)));
  results.get = await measure(n, (i) => store.get(key(order[i]!)));
  await settle(); // etcd delivers watch events asynchronously: the cache must hold every create before the CAS loop
  results.update = await measure(n, async (i) => {
    const k = key(order[i]!);
    const cur = cache.get(k)!; // read-modify-write as the API server does: cache read, CAS write
    return store.update(k, podJson(order[i]!, 1), cur.modRevision);
  });
  const nsSize = n / NAMESPACES;
  results[`list-ns(${nsSize})`] = await measure(200, (i) => store.list(`${PODS}ns${i % NAMESPACES}/`));
  results['list-page(500)'] = await measure(200, (i) => store.list(PODS, { limit: 500, afterKey: key(order[i]!) }));
  results[`cache-list-ns(${nsSize})`] = await measure(200, async (i) => cache.list(`${PODS}ns${i % NAMESPACES}/`));
  // A watch that starts at the oldest revision still held replays the whole log window (puts, updates with prev).
  const from = await store.compactedRevision();
  results['watch-replay(window)'] = await measure(5, async () => {
    let seen = 0;
    const h = await store.watch(PODS, from, () => void seen++);
    h.stop();
    return seen;
  });
  results.delete = await measure(n / 2, (i) => store.delete(key(order[i]!)));
  await settle();
  const size = await sizeMb();
  cache.stop();
  return { n, results, delivered, expected: (n + n + n / 2) * 10, sizeMb: Math.round(size * 10) / 10 };
}

function print(title: string, r: Run): void {
  console.log(title);
  console.log('op'.padEnd(22) + 'ops'.padStart(8) + 'ops/s'.padStart(10) + 'p50 µs'.padStart(10) + 'p99 µs'.padStart(10));
  for (const [name, x] of Object.entries(r.results)) {
    console.log(name.padEnd(22) + String(x.ops).padStart(8) + String(x.opsPerSec).padStart(10) + String(x.p50Us).padStart(10) + String(x.p99Us).padStart(10));
  }
  console.log(`watch events delivered: ${r.delivered} (expected ${r.expected}); data size: ${r.sizeMb} MB\n`);
}

async function sqliteRun(): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-bench-'));
  const path = join(dir, 'state.db');
  const store = new SqliteStore({ path, logger: silentLogger });
  try {
    return await run(store, N, async () => {}, async () => (statSync(path).size + safeSize(`${path}-wal`)) / 1e6);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** etcd fsyncs every write, so it gets a smaller N (BENCH_ETCD_N) to keep the whole run under a minute. */
async function etcdRun(): Promise<Run> {
  const etcd = await startLocalEtcd();
  const store = new EtcdStore({ endpoints: [etcd.endpoint], logger: silentLogger });
  const status = new EtcdHttp({ endpoints: [etcd.endpoint] });
  try {
    return await run(store, N_ETCD, async () => void (await store.watchProgress()), async () => {
      const st = await status.call<{ dbSize?: string }>('/v3/maintenance/status', {});
      return Number(st.dbSize ?? 0) / 1e6;
    });
  } finally {
    status.close();
    await store.close();
    await etcd.stop();
  }
}

async function main(): Promise<void> {
  const sqlite = await sqliteRun();
  print(`sqlite store, file-backed (WAL, synchronous=NORMAL), ${N} pods of ~1 KB, watch cache + 10 watchers attached`, sqlite);
  let etcd: Run | { skipped: string };
  if (etcdInstalled()) {
    const r = await etcdRun();
    print(`etcd store, one local etcd ${'3.4+'} member over the JSON gateway, ${N_ETCD} pods of ~1 KB, watch cache + 10 watchers`, r);
    etcd = r;
  } else {
    etcd = { skipped: `${ETCD_BIN} not installed` };
    console.log(`etcd store: skipped (${etcd.skipped})`);
  }
  const brief = (r: Run | { skipped: string }) => ('skipped' in r ? r : { n: r.n, results: r.results, delivered: r.delivered, dataMb: r.sizeMb });
  console.log(JSON.stringify({ bench: 'storage', sqlite: brief(sqlite), etcd: brief(etcd) }));
  for (const r of [sqlite, etcd]) if (!('skipped' in r) && r.delivered !== r.expected) process.exitCode = 1;
}

function safeSize(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

await main();
