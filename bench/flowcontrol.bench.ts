// API Priority and Fairness cost per request: the filter around a handler that answers at once, for kube's default
// FlowSchemas and levels, over a mix of users (the exempt admin, 200 ordinary users, kube-system ServiceAccounts,
// nodes) and request shapes, seats always free (the hot path every request takes); against the bare handler. Then
// the queues alone, with and without the per-queue virtual-time accounting.
// Run: npx tsc -p . && node dist/bench/flowcontrol.bench.js   (table, then one JSON line; BENCH_APF_ITERATIONS)

import { performance } from 'node:perf_hooks';
import type { ApiResponse } from '../src/client/interfaces.js';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../src/apiserver/bootstrap-flowcontrol.js';
import { FlowControl } from '../src/apiserver/flowcontrol/filter.js';
import { QueueSet } from '../src/apiserver/flowcontrol/queue-set.js';
import { ONE_SEAT } from '../src/apiserver/flowcontrol/work-estimator.js';
import { parseRequestInfo, type RequestInfo } from '../src/apiserver/request-info.js';
import type { UserInfo } from '../src/apiserver/admission/interfaces.js';

const ITERATIONS = Number(process.env.BENCH_APF_ITERATIONS ?? 300_000);
const AUTH = 'system:authenticated';

// Lists are estimated from an object count, as the API server's watch caches give it.
const fc = new FlowControl({ objectCount: () => 5000 });
fc.reconfigure(FLOW_SCHEMAS, PRIORITY_LEVELS);

interface Req { info: RequestInfo; method: string; user: UserInfo }
const reqs: Req[] = [];
const users: UserInfo[] = [
  { name: 'admin', groups: ['system:masters', AUTH] },
  ...Array.from({ length: 200 }, (_, i) => ({ name: `user-${i}`, groups: [AUTH] })),
  ...Array.from({ length: 20 }, (_, i) => ({ name: `system:serviceaccount:kube-system:c-${i}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', AUTH] })),
  ...Array.from({ length: 50 }, (_, i) => ({ name: `system:node:n-${i}`, groups: ['system:nodes', AUTH] })),
];
const shapes: [string, string][] = [
  ['GET', '/api/v1/namespaces/ns-1/configmaps/a'], ['POST', '/api/v1/namespaces/ns-2/configmaps'], ['GET', '/api/v1/pods'],
  ['PUT', '/apis/apps/v1/namespaces/ns-3/deployments/web'], ['PATCH', '/api/v1/nodes/n-1/status'], ['GET', '/version'],
];
for (let i = 0; i < 1000; i++) {
  const [method, path] = shapes[i % shapes.length]!;
  reqs.push({ info: parseRequestInfo(method, path, false), method, user: users[(i * 7) % users.length]! });
}

const answer: ApiResponse = { status: 200, body: '{}', contentType: 'application/json' };
const handler = () => Promise.resolve(answer);

async function measure(label: string, fn: (r: Req) => Promise<unknown>): Promise<{ label: string; nsPerOp: number }> {
  for (let i = 0; i < 20_000; i++) await fn(reqs[i % reqs.length]!);
  const start = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await fn(reqs[i % reqs.length]!);
  const ns = ((performance.now() - start) * 1e6) / ITERATIONS;
  return { label, nsPerOp: Math.round(ns) };
}

const bare = await measure('handler alone', () => handler());
const apf = await measure('APF filter + handler', (r) => fc.serve(r.info, r.method, r.user, undefined, handler));
console.log('case                      ns/op');
for (const r of [bare, apf]) console.log(`${r.label.padEnd(24)} ${String(r.nsPerOp).padStart(7)}`);
console.log(`APF adds ~${((apf.nsPerOp - bare.nsPerOp) / 1000).toFixed(2)} µs per request (${users.length} users × ${shapes.length} shapes, seats free)`);
console.log(JSON.stringify({ bench: 'flowcontrol', iterations: ITERATIONS, results: [bare, apf], addedUs: (apf.nsPerOp - bare.nsPerOp) / 1000 }));
fc.stop();

// The queues alone: a start and finish with seats free, queue-less (a Reject level) against a Queue level, where the
// request is charged to its flow's queue as kube's StartRequest charges it (virtual time, hand of queues).
function queueSetCost(label: string, queues: number): { label: string; nsPerOp: number } {
  const qs = new QueueSet('bench', 100, { queues, handSize: queues ? 8 : 0, queueLengthLimit: 50 });
  const flows = Array.from({ length: 300 }, (_, i) => ({ hash: BigInt(i) * 0x9e3779b97f4a7c15n }));
  const n = ITERATIONS * 4;
  for (let i = 0; i < 100_000; i++) qs.finish(ONE_SEAT, qs.tryStart(ONE_SEAT, flows[i % 300]!));
  const start = performance.now();
  for (let i = 0; i < n; i++) qs.finish(ONE_SEAT, qs.tryStart(ONE_SEAT, flows[i % 300]!));
  return { label, nsPerOp: Math.round(((performance.now() - start) * 1e6) / n) };
}
const qsResults = [queueSetCost('queue-less start+finish', 0), queueSetCost('queued start+finish', 64)];
for (const r of qsResults) console.log(`${r.label.padEnd(24)} ${String(r.nsPerOp).padStart(7)}`);
console.log(JSON.stringify({ bench: 'flowcontrol-queueset', iterations: ITERATIONS * 4, results: qsResults }));
