import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkPolicyIngressRule, NetworkPolicyPeer, NetworkPolicySpec } from 'kubernetes-types/networking/v1.js';
import { endpointPolicy } from '../hns/format.js';
import type { ClusterNetwork } from '../model/cluster-network.js';
import type { NodeNet, PodNet } from '../model/types.js';
import { addNode, addPod, listener, modelCluster } from '../testing/model-cluster.js';
import { HnsAclRenderer, renderHnsAcls } from './hns-acls.js';

const NAMESPACES = ['default', 'shop', 'ops'];
const APPS = ['web', 'api', 'db', 'cache'];

/** Every pod endpoint's ACLs on every Windows node, in the PowerShell shape an admin reads. */
function acls(net: ClusterNetwork): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const n of net.nodes.values()) {
    for (const ep of n.hns?.endpoints.values() ?? []) out[`${n.name}/${ep.ipAddress}`] = ep.policies.filter((p) => p.type === 'ACL').map(endpointPolicy);
  }
  return out;
}

/** A seeded generator (LCG), so that a failing sequence can be replayed from its seed. */
function rng(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

type R = ReturnType<typeof rng>;

/** A policy drawn from the shapes Felix renders: pod and namespace selectors, ipBlocks (with and without except), egress, NotIn. */
function randomSpec(r: R): NetworkPolicySpec {
  const app = r.pick(APPS);
  const peers: NetworkPolicyPeer[] = [
    { podSelector: { matchLabels: { role: 'client' } } },
    { podSelector: { matchLabels: { app: r.pick(APPS) } } },
    { namespaceSelector: { matchLabels: { team: r.pick(['a', 'b']) } } },
    { namespaceSelector: { matchLabels: { team: 'a' } }, podSelector: { matchExpressions: [{ key: 'role', operator: 'NotIn' as const, values: ['client'] }] } },
    { ipBlock: { cidr: '10.244.0.0/16' } },
    { ipBlock: { cidr: '10.244.0.0/16', except: ['10.244.2.0/24'] } },
  ];
  const selector = r.int(4) === 0 ? {} : r.int(3) === 0 ? { matchExpressions: [{ key: 'app', operator: 'In' as const, values: [app, r.pick(APPS)] }] } : { matchLabels: { app } };
  const rule = (): NetworkPolicyIngressRule => ({ ...(r.int(4) ? { from: [r.pick(peers), ...(r.int(2) ? [r.pick(peers)] : [])] } : {}), ...(r.int(2) ? { ports: [{ port: r.pick([80, 443, 8080]) }] } : {}) });
  const egress = r.int(3) === 0;
  return {
    podSelector: selector,
    ...(egress ? { policyTypes: ['Ingress', 'Egress'], egress: [{ to: rule().from, ports: [{ port: 53, protocol: 'UDP' }] }] } : {}),
    ingress: Array.from({ length: r.int(3) }, rule),
  };
}

function cluster(seed: number) {
  const r = rng(seed);
  const net = modelCluster();
  const calico = { plugin: 'calico' as const };
  const nodes = [
    addNode(net, { name: 'win-1', os: 'windows', index: 2, windowsBuild: '10.0.20348', network: calico }),
    addNode(net, { name: 'win-2', os: 'windows', index: 3, windowsBuild: '10.0.20348', network: calico }),
    addNode(net, { name: 'linux-1', os: 'linux', index: 1, network: calico }),
  ];
  const labels = new Map<PodNet, Record<string, string>>();
  const pods: PodNet[] = [];
  let host = 10;
  const newPod = (node: NodeNet) => {
    const p = addPod(net, node, host++, `p${host}`, [listener(80, 'web')]);
    p.namespace = r.pick(NAMESPACES);
    labels.set(p, { app: r.pick(APPS), ...(r.int(2) ? { role: 'client' } : {}) });
    p.labels = () => labels.get(p);
    pods.push(p);
    return p;
  };
  for (let i = 0; i < 30; i++) newPod(nodes[i % nodes.length]);
  for (const ns of NAMESPACES) net.policies.setNamespace(ns, { 'kubernetes.io/metadata.name': ns, team: r.pick(['a', 'b']) });
  for (let i = 0; i < 8; i++) {
    const ns = r.pick(NAMESPACES);
    net.policies.set(ns, `np-${i}`, { metadata: { namespace: ns, name: `np-${i}` }, spec: randomSpec(r) });
  }
  return { r, net, nodes, pods, labels, newPod };
}

// The property: after any sequence of changes, the renderer that keeps its state between passes leaves every
// endpoint with exactly the ACLs a render from scratch gives (Felix's incremental calculation graph and a Felix
// restarted on the same state program the same rules).
for (const seed of [1, 7, 42, 1234, 99991]) {
  test(`incremental ACL render equals a render from scratch after random changes (seed ${seed})`, () => {
    const { r, net, nodes, pods, labels, newPod } = cluster(seed);
    const renderer = new HnsAclRenderer(net);
    renderer.render();
    const ops: [string, () => void][] = [
      ['relabel a pod', () => { const p = r.pick(pods); labels.set(p, { app: r.pick(APPS), ...(r.int(2) ? { role: 'client' } : {}) }); }],
      ['the same labels in a new object', () => { const p = r.pick(pods); labels.set(p, { ...labels.get(p)! }); }],
      ['move a pod to another namespace', () => { r.pick(pods).namespace = r.pick(NAMESPACES); }],
      ['relabel a namespace', () => { const ns = r.pick(NAMESPACES); net.policies.setNamespace(ns, { 'kubernetes.io/metadata.name': ns, team: r.pick(['a', 'b', 'c']) }); }],
      ['add or replace a policy', () => { const ns = r.pick(NAMESPACES); const name = `np-${r.int(12)}`; net.policies.set(ns, name, { metadata: { namespace: ns, name }, spec: randomSpec(r) }); }],
      ['delete a policy', () => { const p = r.pick(net.policies.index.all()); if (p) net.policies.set(p.namespace, p.name, undefined); }],
      ['a pod starts', () => { newPod(r.pick(nodes)); }],
      ['a pod goes', () => {
        const p = pods.splice(r.int(pods.length), 1)[0];
        if (!p) return;
        net.setPod(p.ip, undefined);
        const hns = net.nodes.get(p.node)!.hns;
        const ep = hns?.endpointByIP(p.ip);
        if (ep) hns!.deleteEndpoint(ep.id);
      }],
    ];
    for (let step = 0; step < 60; step++) {
      const done: string[] = [];
      for (let k = 1 + r.int(3); k > 0; k--) {
        const [name, op] = r.pick(ops);
        op();
        done.push(name);
      }
      renderer.render();
      const incremental = acls(net);
      renderHnsAcls(net);
      assert.deepEqual(incremental, acls(net), `seed ${seed} step ${step}: ${done.join(', ')}`);
    }
  });
}

// What a change costs: only the endpoints it can touch are rendered again (Felix re-renders the endpoints whose
// policy set or IP sets changed).
const COSTS: { name: string; change: (c: ReturnType<typeof fixed>) => void; rerendered: (c: ReturnType<typeof fixed>) => number }[] = [
  { name: 'nothing changed', change: () => {}, rerendered: () => 0 },
  { name: 'a pod no policy mentions is relabelled (same namespace, other labels)', change: (c) => c.label(c.loner, { app: 'batch' }), rerendered: () => 1 },
  { name: 'a client leaves the peers of allow-clients', change: (c) => c.label(c.client, { app: 'client' }), rerendered: (c) => c.webs.length + 1 },
  { name: 'a web pod stops being selected', change: (c) => c.label(c.webs[0], { app: 'old' }), rerendered: () => 1 },
  { name: 'labels replaced by equal ones', change: (c) => c.label(c.client, { app: 'client', role: 'client' }), rerendered: () => 0 },
  { name: 'the other namespace gets a policy', change: (c) => c.net.policies.set('ops', 'deny', { metadata: { namespace: 'ops', name: 'deny' }, spec: { podSelector: {} } }), rerendered: (c) => c.opsPods },
];

function fixed() {
  const net = modelCluster();
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2, windowsBuild: '10.0.20348', network: { plugin: 'calico' } });
  const labels = new Map<PodNet, Record<string, string>>();
  const pod = (host: number, l: Record<string, string>, ns = 'default') => {
    const p = addPod(net, win, host, `p${host}`);
    p.namespace = ns;
    labels.set(p, l);
    p.labels = () => labels.get(p);
    return p;
  };
  const webs = [10, 11, 12].map((h) => pod(h, { app: 'web' }));
  const client = pod(20, { app: 'client', role: 'client' });
  const loner = pod(21, { app: 'tool' });
  const opsPods = [30, 31].map((h) => pod(h, { app: 'x' }, 'ops')).length;
  net.policies.set('default', 'allow-clients', { metadata: { namespace: 'default', name: 'allow-clients' }, spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }] }] } });
  const label = (p: PodNet, l: Record<string, string>) => labels.set(p, l);
  return { net, webs, client, loner, opsPods, label };
}

for (const c of COSTS) {
  test(`incremental ACL render cost: ${c.name}`, () => {
    const f = fixed();
    const renderer = new HnsAclRenderer(f.net);
    assert.equal(renderer.render(), 7, 'the first pass renders every endpoint');
    c.change(f);
    assert.equal(renderer.render(), c.rerendered(f));
    const after = acls(f.net);
    renderHnsAcls(f.net);
    assert.deepEqual(after, acls(f.net));
  });
}
