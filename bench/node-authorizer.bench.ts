// Node authorizer cost at scale (issue 11's 5,000 nodes and 150,000 pods): building the graph from pods as the informer
// delivers them, then per-decision cost for a kubelet's reads (related and unrelated secret, PV through its claim,
// its own lease) and a status-only pod update (the common event, which must not touch the graph).
// Run: npx tsc -p . && node dist/bench/node-authorizer.bench.js   (table, then one JSON line; BENCH_NODES, BENCH_PODS)

import type { Pod } from 'kubernetes-types/core/v1.js';
import { NodeAuthorizer } from '../src/apiserver/authz/node/authorizer.js';
import { NodeGraph } from '../src/apiserver/authz/node/graph.js';
import type { AuthorizationAttributes } from '../src/apiserver/authz/interfaces.js';

const NODES = Number(process.env.BENCH_NODES ?? 5000);
const PODS = Number(process.env.BENCH_PODS ?? 150_000);
const ITERATIONS = 200_000;

const pod = (i: number): Pod => ({
  metadata: { namespace: `ns-${i % 100}`, name: `p-${i}` },
  spec: {
    nodeName: `n-${i % NODES}`, serviceAccountName: 'default', containers: [{ name: 'c', envFrom: [{ configMapRef: { name: `cm-${i % 1000}` } }] }],
    volumes: [{ name: 'root', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } }, { name: 's', secret: { secretName: `s-${i}` } }, { name: 'd', persistentVolumeClaim: { claimName: `c-${i}` } }],
  },
});

const g = new NodeGraph();
const heap0 = process.memoryUsage().heapUsed;
const t0 = process.hrtime.bigint();
for (let i = 0; i < PODS; i++) g.setPod(pod(i));
for (let i = 0; i < PODS; i += 10) g.setPV({ metadata: { name: `pv-${i}` }, spec: { claimRef: { namespace: `ns-${i % 100}`, name: `c-${i}` } } });
const buildMs = Number(process.hrtime.bigint() - t0) / 1e6;
const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;

const z = new NodeAuthorizer(g);
const i = 4321;
const user = { name: `system:node:n-${i % NODES}`, groups: ['system:nodes', 'system:authenticated'] };
const base = { user, isResourceRequest: true, group: '', subresource: '', path: '' };
const REQUESTS: { what: string; attrs: AuthorizationAttributes }[] = [
  { what: 'related secret', attrs: { ...base, verb: 'get', resource: 'secrets', namespace: `ns-${i % 100}`, name: `s-${i}` } },
  { what: 'unrelated secret', attrs: { ...base, verb: 'get', resource: 'secrets', namespace: `ns-${i % 100}`, name: `s-${i + 1}` } },
  { what: 'shared root CA', attrs: { ...base, verb: 'get', resource: 'configmaps', namespace: `ns-${i % 100}`, name: 'kube-root-ca.crt' } },
  { what: 'pv via its claim', attrs: { ...base, verb: 'get', resource: 'persistentvolumes', namespace: '', name: 'pv-4320' } },
  { what: 'own lease', attrs: { ...base, group: 'coordination.k8s.io', verb: 'update', resource: 'leases', namespace: 'kube-node-lease', name: `n-${i % NODES}` } },
];

function measure(fn: () => void, n: number): number {
  for (let k = 0; k < 10_000; k++) fn();
  const s = process.hrtime.bigint();
  for (let k = 0; k < n; k++) fn();
  return Number(process.hrtime.bigint() - s) / 1000 / n;
}

const rows = REQUESTS.map((r) => ({ what: r.what, us: measure(() => z.authorize(r.attrs), ITERATIONS) }));
const same = pod(i);
rows.push({ what: 'pod status update', us: measure(() => g.setPod(same), ITERATIONS) });
console.log(`Node authorizer: ${NODES.toLocaleString('en-US')} nodes, ${PODS.toLocaleString('en-US')} pods; graph built in ${buildMs.toFixed(0)} ms, ~${heapMb.toFixed(0)} MB heap`);
for (const r of rows) console.log(`  ${r.what.padEnd(20)} ${r.us.toFixed(2).padStart(7)} µs`);
console.log(JSON.stringify({ bench: 'node-authorizer', nodes: NODES, pods: PODS, buildMs: Math.round(buildMs), heapMb: Math.round(heapMb), perRequestUs: Object.fromEntries(rows.map((r) => [r.what, +r.us.toFixed(3)])) }));
