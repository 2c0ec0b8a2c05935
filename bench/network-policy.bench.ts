// NetworkPolicy cost. End to end, as a user triggers it: `winkube up` with a Calico fleet (Linux control plane, two
// Windows nodes), 1,000 NetworkPolicies applied with kubectl, then `winkube net trace pod/<client> svc/web` as whole
// processes and over the node agent's HTTPS (what the CLI asks), and the time from `kubectl label pod` until the trace's
// verdict flips. Beside it the component figures in the model alone: 1,000 policies over 10,000 pods on 40 Calico
// nodes — one verdict (evaluate.ts), one flow traced through kube-proxy and the policy, the verdict right after a label
// change, and Calico for Windows' HNS ACL re-render that a label change triggers (hns-acls.ts).
// Run: npx tsc -p . && node dist/bench/network-policy.bench.js   (table, then one JSON line; BENCH_NP_POLICIES,
// BENCH_NP_PODS, BENCH_NP_RUNS, BENCH_NP_E2E=0 for the component figures alone)

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import { HttpTransport, optionsFromKubeconfig } from '../src/client/http-transport.js';
import { loadKubeconfig } from '../src/client/kubeconfig.js';
import { agentNode, nodeProxyGet } from '../src/cli/cluster-access.js';
import type { SerializedTrace } from '../src/network/model/serialize.js';
import type { PodNet } from '../src/network/model/types.js';
import { evaluatePolicies } from '../src/network/policy/evaluate.js';
import { policyPod } from '../src/network/policy/flow-check.js';
import { HnsAclRenderer, renderHnsAcls } from '../src/network/policy/hns-acls.js';
import { addNode, addPod, addService, listener, modelCluster } from '../src/network/testing/model-cluster.js';
import { kubectl, runWith, upWinkube, WINKUBE } from './winkube-process.js';

const POLICIES = Number(process.env.BENCH_NP_POLICIES ?? 1000);
const PODS = Number(process.env.BENCH_NP_PODS ?? 10_000);
const RUNS = Number(process.env.BENCH_NP_RUNS ?? 20);
const E2E = process.env.BENCH_NP_E2E !== '0';
const NAMESPACES = 10;
const NODES = Math.max(2, Math.ceil(PODS / 250));
const APPS = 100;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}
const median = (xs: number[]) => pct(xs, 50);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Policy `i` of a namespace: selects app-(i mod 100) and lets in clients of another app, a namespace, or a CIDR. */
function policy(ns: string, i: number): NetworkPolicy {
  const kind = i % 4;
  const from = kind === 0 ? [{ podSelector: { matchLabels: { role: 'client', app: `app-${(i + 1) % APPS}` } } }]
    : kind === 1 ? [{ namespaceSelector: { matchLabels: { team: `t${i % 5}` } }, podSelector: { matchLabels: { role: 'client' } } }]
      : kind === 2 ? [{ ipBlock: { cidr: `10.244.${i % 20}.0/24` } }]
        : [{ podSelector: { matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['web', 'api'] }] } }];
  return { metadata: { namespace: ns, name: `np-${i}` }, spec: { podSelector: { matchLabels: { app: `app-${i % APPS}` } }, ingress: [{ from, ports: [{ port: 80 }] }] } };
}

// ---------------------------------------------------------------- component figures (the model alone)

function component() {
  const net = modelCluster();
  const calico = { plugin: 'calico' as const };
  const dsr = { mode: 'kernelspace' as const, networkName: 'cbr0', enableDSR: true, featureGates: { WinDSR: true }, hostnameOverride: true };
  // 40 nodes of 250 pods each (one /24 per node); half Windows.
  const nodes = Array.from({ length: NODES }, (_, i) => i < NODES / 2
    ? addNode(net, { name: `linux-${i}`, os: 'linux', index: i + 1, network: calico })
    : addNode(net, { name: `win-${i}`, os: 'windows', index: i + 1, windowsBuild: '10.0.20348', network: { ...calico, kubeProxy: dsr } }));
  for (let n = 0; n < NAMESPACES; n++) net.policies.setNamespace(`ns-${n}`, { 'kubernetes.io/metadata.name': `ns-${n}`, team: `t${n % 5}` });
  const pods: PodNet[] = [];
  const labels = new Map<PodNet, Record<string, string>>();
  for (let i = 0; i < PODS; i++) {
    const node = nodes[i % nodes.length];
    const p = addPod(net, node, 2 + Math.floor(i / nodes.length), `p${i}`, [listener(80, 'web')]);
    p.namespace = `ns-${Math.floor(i / Math.ceil(PODS / NAMESPACES)) % NAMESPACES}`;
    const l = { app: `app-${i % APPS}`, role: i % 3 === 0 ? 'client' : 'server', tier: ['web', 'api', 'db'][i % 3] };
    labels.set(p, l);
    p.labels = () => labels.get(p)!;
    pods.push(p);
  }
  const live = pods;
  const perNs = Math.ceil(POLICIES / NAMESPACES);
  let t0 = performance.now();
  for (let n = 0; n < NAMESPACES; n++) for (let i = 0; i < perNs && n * perNs + i < POLICIES; i++) net.policies.set(`ns-${n}`, `np-${i}`, policy(`ns-${n}`, i));
  const loadMs = performance.now() - t0;
  // A Service per app in ns-0 over its pods there (kube-proxy programs them on every node).
  for (let a = 0; a < 20; a++) addService(net, `svc-${a}`, `10.96.1.${a + 1}`, live.filter((p) => p.namespace === 'ns-0' && labels.get(p)!.app === `app-${a}`).slice(0, 10));

  const ctx = { index: net.policies.index, namespaceLabels: (ns: string) => net.policies.namespaceLabels(ns) };
  const rnd = (() => { let s = 42; return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31; })();
  const pick = () => live[Math.floor(rnd() * live.length)];
  const verdict: number[] = [];
  let allowed = 0;
  for (let i = 0; i < 20_000; i++) {
    const [a, b] = [pick(), pick()];
    const t = performance.now();
    const v = evaluatePolicies(ctx, 'Ingress', policyPod(b), { ip: a.ip, pod: policyPod(a) }, { protocol: 'TCP', port: 80 });
    verdict.push(performance.now() - t);
    if (v.isolated && v.allowed) allowed++;
  }
  const traceDirect: number[] = [];
  const traceVip: number[] = [];
  let t = 0;
  for (let i = 0; i < 2_000; i++) {
    const a = pick();
    const b = pick();
    t = performance.now();
    net.trace({ from: { kind: 'pod', ip: a.ip }, to: b.ip, protocol: 'TCP', port: 80 }, { peek: true });
    traceDirect.push(performance.now() - t);
    t = performance.now();
    net.trace({ from: { kind: 'pod', ip: a.ip }, to: `10.96.1.${(i % 20) + 1}`, protocol: 'TCP', port: 80 }, { peek: true });
    traceVip.push(performance.now() - t);
  }
  // A client's label changes: the next verdict reads the new labels (no cache to invalidate), and Calico for Windows
  // re-renders the ACLs the change touches (followPoliciesInHns keeps one HnsAclRenderer); beside it a render from
  // scratch of every pod endpoint on its nodes (what each change cost before the renderer kept its state).
  const relabel: number[] = [];
  const render: number[] = [];
  const full: number[] = [];
  const rerendered: number[] = [];
  const renderer = new HnsAclRenderer(net);
  t = performance.now();
  renderer.render();
  const firstRenderMs = performance.now() - t;
  for (let i = 0; i < 10; i++) {
    const a = live.find((p, j) => j >= i * 7 && labels.get(p)!.role === 'client' && labels.get(p)!.app === 'app-1' && p.namespace === 'ns-0')!;
    const b = live.find((p) => p.namespace === 'ns-0' && labels.get(p)!.app === 'app-0')!;
    const flip = () => evaluatePolicies(ctx, 'Ingress', policyPod(b), { ip: a.ip, pod: policyPod(a) }, { protocol: 'TCP', port: 80 });
    const before = flip();
    t = performance.now();
    labels.set(a, { ...labels.get(a)!, role: 'other' });
    const after = flip();
    relabel.push(performance.now() - t);
    if (before.isolated && after.isolated && before.allowed === after.allowed) throw new Error('the relabel did not change the verdict');
    // The client left np-0's peers: the renderer re-renders the endpoints np-0 selects; then the label goes back.
    for (const role of ['other', 'client']) {
      if (role === 'client') labels.set(a, { ...labels.get(a)!, role });
      t = performance.now();
      rerendered.push(renderer.render());
      render.push(performance.now() - t);
    }
    t = performance.now();
    renderHnsAcls(net);
    full.push(performance.now() - t);
  }
  const acls = nodes.reduce((n, x) => n + [...(x.hns?.endpoints.values() ?? [])].reduce((m, e) => m + e.policies.filter((p) => p.type === 'ACL').length, 0), 0);
  return { pods: live.length, policies: net.policies.index.size, loadMs, verdict, allowedShare: allowed / verdict.length, traceDirect, traceVip, relabel, render, full, rerendered, firstRenderMs, acls };
}

// ---------------------------------------------------------------- end to end through `winkube up`


const FLEET = `apiVersion: winkube.io/v1alpha1
kind: NodeFleet
nodes:
  - {name: control-plane, os: linux, roles: [control-plane], network: {plugin: calico}}
  - {name: win-1, os: windows, windowsBuild: 10.0.20348, network: {plugin: calico}}
  - {name: win-2, os: windows, windowsBuild: 10.0.20348, network: {plugin: calico}}
`;

const APPS_YAML = `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: ns-0, labels: {app: app-0}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: win-2
  containers: [{name: c, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [netexec, '--http-port=80']}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: ns-0}
spec:
  selector: {app: app-0}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Pod
metadata: {name: client, namespace: ns-0, labels: {app: app-1, role: client}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: win-1
  containers: [{name: c, image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: [powershell.exe, -command, 'Start-Sleep -Seconds 36000']}]
`;

async function endToEnd() {
  const dir = mkdtempSync(join(tmpdir(), 'winkube-np-bench-'));
  const fleet = join(dir, 'fleet.yaml');
  writeFileSync(fleet, FLEET);
  const { proc, kubeconfig } = await upWinkube(dir, ['--fleet', fleet]);
  const t = new HttpTransport(optionsFromKubeconfig(loadKubeconfig(kubeconfig)));
  try {
    const nsYaml = Array.from({ length: NAMESPACES }, (_, n) => `apiVersion: v1\nkind: Namespace\nmetadata: {name: ns-${n}, labels: {team: t${n % 5}}}\n`).join('---\n');
    kubectl(kubeconfig, ['apply', '-f', '-'], nsYaml);
    kubectl(kubeconfig, ['apply', '-f', '-'], APPS_YAML);
    const deadline = Date.now() + 60_000;
    while (kubectl(kubeconfig, ['get', 'pods', '-n', 'ns-0', '-o', 'jsonpath={.items[*].status.phase}']).trim() !== 'Running Running') {
      if (Date.now() > deadline) throw new Error('pods not Running');
      await sleep(100);
    }
    const agent = await agentNode(t);
    const query = { from: 'pod/ns-0/client', to: 'svc/ns-0/web', protocol: 'TCP', port: '80' };
    const traceApi = async () => (await nodeProxyGet(t, agent, 'winkube/net/trace', query)) as SerializedTrace;
    const measure = async () => {
      const proc_: number[] = [];
      const api: number[] = [];
      const check: number[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const r = runWith(kubeconfig, process.execPath, [WINKUBE, 'net', 'trace', 'pod/ns-0/client', 'svc/ns-0/web']);
        if (i >= 2) proc_.push(r.ms);
        let t0 = performance.now();
        await traceApi();
        if (i >= 2) api.push(performance.now() - t0);
        t0 = performance.now();
        await nodeProxyGet(t, agent, 'winkube/net/check', { namespace: 'ns-0' });
        if (i >= 2) check.push(performance.now() - t0);
      }
      return { proc: proc_, api, check };
    };
    const none = await measure();
    const noneFate = (await traceApi()).fate;
    // 1,000 policies in 10 namespaces, one `kubectl apply` of a List.
    const perNs = Math.ceil(POLICIES / NAMESPACES);
    const items = Array.from({ length: POLICIES }, (_, i) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', ...policy(`ns-${Math.floor(i / perNs)}`, i % perNs) }));
    let t0 = performance.now();
    kubectl(kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const applyMs = performance.now() - t0;
    // The node agent sees them through its informer: wait until the trace names np-0 (it selects app-0: the web pod).
    for (const end = Date.now() + 60_000; !(await traceApi()).hops.some((h) => /np-0\b/.test(h.rule));) {
      if (Date.now() > end) throw new Error('policies not seen by the node agent');
      await sleep(20);
    }
    const withPolicies = await measure();
    const fate = (await traceApi()).fate;
    // Relabel the client out of np-0's allowed peers and back: from just before kubectl starts until the verdict flips.
    const flips: number[] = [];
    const labelProc: number[] = [];
    for (let i = 0; i < 6; i++) {
      const role = i % 2 === 0 ? 'other' : 'client';
      const want = role === 'client' ? 'delivered' : 'timeout';
      t0 = performance.now();
      kubectl(kubeconfig, ['label', 'pod', '-n', 'ns-0', 'client', `role=${role}`, '--overwrite']);
      labelProc.push(performance.now() - t0);
      while ((await traceApi()).fate !== want) {
        if (performance.now() - t0 > 30_000) throw new Error(`verdict did not flip to ${want}`);
        await sleep(5);
      }
      flips.push(performance.now() - t0);
    }
    return { none, noneFate, withPolicies, fate, applyMs, flips, labelProc };
  } finally {
    t.close();
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const c = component();
const e = E2E ? await endToEnd() : undefined;
const us = (x: number) => `${(x * 1000).toFixed(1).padStart(9)} µs`;
const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;
const row = (name: string, xs: number[], f = ms) => console.log(`  ${name.padEnd(70)} ${f(median(xs))} ${f(pct(xs, 99))}  (n=${xs.length})`);
if (e) {
  console.log(`NetworkPolicy end to end: winkube up, Calico fleet (Linux control plane, 2 × WS2022), ${POLICIES} policies      median / p99`);
  row('`winkube net trace pod/client svc/web`, whole process, no policies', e.none.proc);
  row(`\`winkube net trace pod/client svc/web\`, whole process, ${POLICIES} policies`, e.withPolicies.proc);
  row('the same over the node agent (nodes/<n>/proxy/winkube/net/trace), no policies', e.none.api);
  row(`the same over the node agent, ${POLICIES} policies`, e.withPolicies.api);
  row('`winkube net check` over the node agent (ns-0), no policies', e.none.check);
  row(`the same, ${POLICIES} policies`, e.withPolicies.check);
  row('`kubectl label pod client role=…` → the trace verdict flips', e.flips);
  row('… of which the kubectl process', e.labelProc);
  console.log(`  kubectl apply of the ${POLICIES} policies (one List): ${e.applyMs.toFixed(0)} ms; verdicts ${e.noneFate} → ${e.fate}`);
}
console.log(`NetworkPolicy in the model (component): ${c.pods} pods on ${NODES} Calico nodes (${NODES / 2} WS2022 with DSR), ${c.policies} policies (load ${c.loadMs.toFixed(0)} ms)`);
row('one verdict (evaluatePolicies, random pod pairs)', c.verdict, us);
row('a flow pod → pod traced (route, policy egress + ingress)', c.traceDirect, us);
row('a flow pod → ClusterIP traced (kube-proxy load balancer, then the policy)', c.traceVip, us);
row('a label change, then the next verdict for that client', c.relabel, us);
row(`Calico for Windows HNS ACL re-render after it (incremental; ${median(c.rerendered)} endpoints re-rendered)`, c.render);
row(`the same rendered from scratch (every endpoint on ${NODES / 2} nodes; ${c.acls} ACLs)`, c.full);
console.log(`  first render of the ${c.acls} ACLs: ${c.firstRenderMs.toFixed(0)} ms`);
console.log(JSON.stringify({
  bench: 'network-policy', policies: c.policies, pods: c.pods,
  component: { verdictUsP50: median(c.verdict) * 1000, verdictUsP99: pct(c.verdict, 99) * 1000, traceDirectUsP50: median(c.traceDirect) * 1000, traceVipUsP50: median(c.traceVip) * 1000, relabelUsP50: median(c.relabel) * 1000, aclRenderMsP50: median(c.render), aclRenderMsP99: pct(c.render, 99), aclFullRenderMsP50: median(c.full), aclFirstRenderMs: c.firstRenderMs, aclEndpointsRerenderedP50: median(c.rerendered), acls: c.acls, allowedShare: c.allowedShare },
  ...(e ? { e2e: { traceProcMsP50: median(e.withPolicies.proc), traceProcMsP50NoPolicies: median(e.none.proc), traceApiMsP50: median(e.withPolicies.api), traceApiMsP50NoPolicies: median(e.none.api), checkApiMsP50: median(e.withPolicies.check), checkApiMsP50NoPolicies: median(e.none.check), relabelFlipMsP50: median(e.flips), relabelFlipMsP99: pct(e.flips, 99), kubectlLabelMsP50: median(e.labelProc), applyMs: e.applyMs } } : {}),
}));
process.exit(0);
