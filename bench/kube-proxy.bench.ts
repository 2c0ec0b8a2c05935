// kube-proxy winkernel and iptables sync cost in the network model (a component figure; `bench/network.bench.ts` has
// the end-to-end ones): 1,000 Services × 10 endpoints programmed on 100 Windows nodes (HNS load balancers and remote
// endpoints) and 10 Linux nodes, then single-endpoint changes re-programmed on every node.
// Run: npx tsc -p . && node dist/bench/kube-proxy.bench.js   (table, then one JSON line; BENCH_SERVICES, BENCH_NODES)

import { performance } from 'node:perf_hooks';
import { addNode, addPod, modelCluster } from '../src/network/testing/model-cluster.js';
import type { SliceLike } from '../src/network/proxy/service-ports.js';
import type { Service } from 'kubernetes-types/core/v1.js';

const SERVICES = Number(process.env.BENCH_SERVICES ?? 1000);
const ENDPOINTS = 10;
const WIN_NODES = Number(process.env.BENCH_NODES ?? 100);
const LINUX_NODES = 10;
const CHANGES = 50;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const net = modelCluster();
const nodes = [
  ...Array.from({ length: LINUX_NODES }, (_, i) => addNode(net, { name: `linux-${i}`, os: 'linux', index: i })),
  ...Array.from({ length: WIN_NODES }, (_, i) => addNode(net, { name: `win-${i}`, os: 'windows', index: LINUX_NODES + i })),
];
// Pods spread over all nodes, 10 per Service.
const podIPs: { ip: string; node: string }[] = [];
for (let i = 0; i < SERVICES * ENDPOINTS; i++) {
  const node = nodes[i % nodes.length];
  const host = 2 + Math.floor(i / nodes.length);
  podIPs.push({ ip: addPod(net, node, host % 250 + 2, `p${i}`).ip, node: node.name });
}
function service(i: number): Service {
  return { metadata: { namespace: 'default', name: `svc-${i}` }, spec: { clusterIP: `10.96.${Math.floor(i / 250) + 1}.${(i % 250) + 1}`, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } };
}
function slice(i: number, eps: { ip: string; node: string }[]): SliceLike {
  return {
    metadata: { namespace: 'default', labels: { 'kubernetes.io/service-name': `svc-${i}` } },
    ports: [{ port: 8080, protocol: 'TCP' }],
    endpoints: eps.map((e) => ({ addresses: [e.ip], nodeName: e.node, conditions: { ready: true } })),
  };
}

const heapBefore = process.memoryUsage().heapUsed;
const t0 = performance.now();
for (let i = 0; i < SERVICES; i++) net.serviceChanged('default', `svc-${i}`, service(i), [slice(i, podIPs.slice(i * ENDPOINTS, (i + 1) * ENDPOINTS))]);
const fullMs = performance.now() - t0;
const lbs = nodes.reduce((n, x) => n + (x.hns?.loadBalancers.size ?? 0), 0);
const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

// One endpoint of one Service turns not ready: every node re-programs that Service.
const changes: number[] = [];
for (let c = 0; c < CHANGES; c++) {
  const i = (c * 37) % SERVICES;
  const eps = podIPs.slice(i * ENDPOINTS, (i + 1) * ENDPOINTS);
  const s = slice(i, eps);
  s.endpoints![c % ENDPOINTS].conditions = { ready: c % 2 === 0 ? false : true };
  const t = performance.now();
  net.serviceChanged('default', `svc-${i}`, service(i), [s]);
  changes.push(performance.now() - t);
}

const result = {
  services: SERVICES, endpointsPerService: ENDPOINTS, windowsNodes: WIN_NODES, linuxNodes: LINUX_NODES,
  fullSyncMs: Math.round(fullMs), hnsLoadBalancers: lbs, heapMB: Math.round(heapMB),
  endpointChangeAllNodesP50Ms: +pct(changes, 50).toFixed(2), endpointChangeAllNodesP99Ms: +pct(changes, 99).toFixed(2),
  endpointChangePerNodeP50Ms: +(pct(changes, 50) / nodes.length).toFixed(3),
};
console.log(`kube-proxy sync, ${SERVICES} Services × ${ENDPOINTS} endpoints, ${WIN_NODES} Windows + ${LINUX_NODES} Linux nodes`);
console.log(`  full sync, every node              ${result.fullSyncMs} ms  (${lbs} HNS load balancers, +${result.heapMB} MB heap)`);
console.log(`  one endpoint change, every node    p50 ${result.endpointChangeAllNodesP50Ms} ms  p99 ${result.endpointChangeAllNodesP99Ms} ms  (${result.endpointChangePerNodeP50Ms} ms per node)`);
console.log(JSON.stringify({ bench: 'kube-proxy', ...result }));
