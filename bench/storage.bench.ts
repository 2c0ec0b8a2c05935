// Benchmark of the sqlite Store's hot paths: create, get, update, list (and delete), with a watch cache attached.
// Run: node --import tsx bench/storage.bench.ts   (prints a table, then one JSON line; under 10 s on 2 cores; BENCH_N sets the pod count)

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { WatchCache } from '../src/storage/watch-cache.js';
import { silentLogger } from '../src/util/log.js';

const N = Number(process.env.BENCH_N ?? 10_000);
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-bench-'));
  const path = join(dir, 'state.db');
  const store = new SqliteStore({ path, logger: silentLogger });
  const cache = new WatchCache({ store, prefix: PODS, logger: silentLogger });
  await cache.start();
  let delivered = 0;
  for (let w = 0; w < 10; w++) cache.watch(PODS, cache.revision(), () => void delivered++);

  const order = Array.from({ length: N }, (_, i) => (i * 7919) % N); // a fixed shuffle
  const results: Record<string, Result> = {};
  results.create = await measure(N, (i) => store.create(key(i), podJson(i, 0)));
  results.get = await measure(N, (i) => store.get(key(order[i]!)));
  results.update = await measure(N, async (i) => {
    const k = key(order[i]!);
    const cur = cache.get(k)!; // read-modify-write as the API server does: cache read, CAS write
    return store.update(k, podJson(order[i]!, 1), cur.modRevision);
  });
  const nsSize = N / NAMESPACES;
  results[`list-ns(${nsSize})`] = await measure(200, (i) => store.list(`${PODS}ns${i % NAMESPACES}/`));
  results['list-page(500)'] = await measure(200, (i) => store.list(PODS, { limit: 500, afterKey: key(order[i]!) }));
  results[`cache-list-ns(${nsSize})`] = await measure(200, async (i) => cache.list(`${PODS}ns${i % NAMESPACES}/`));
  results.delete = await measure(N / 2, (i) => store.delete(key(order[i]!)));

  const sizeMb = Math.round(((statSync(path).size + safeSize(`${path}-wal`)) / 1e6) * 10) / 10;
  const expected = (N + N + N / 2) * 10;
  cache.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  console.log(`sqlite store, file-backed (WAL, synchronous=NORMAL), ${N} pods of ~1 KB, watch cache + 10 watchers attached`);
  console.log('op'.padEnd(22) + 'ops'.padStart(8) + 'ops/s'.padStart(10) + 'p50 µs'.padStart(10) + 'p99 µs'.padStart(10));
  for (const [name, r] of Object.entries(results)) {
    console.log(name.padEnd(22) + String(r.ops).padStart(8) + String(r.opsPerSec).padStart(10) + String(r.p50Us).padStart(10) + String(r.p99Us).padStart(10));
  }
  console.log(`watch events delivered: ${delivered} (expected ${expected}); file size: ${sizeMb} MB`);
  console.log(JSON.stringify({ bench: 'storage/sqlite', n: N, results, delivered, fileMb: sizeMb }));
  if (delivered !== expected) process.exitCode = 1;
}

function safeSize(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

await main();
