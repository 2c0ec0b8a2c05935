import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkPolicy, NetworkPolicySpec } from 'kubernetes-types/networking/v1.js';
import type { ClusterNetwork } from '../model/cluster-network.js';
import type { PodNet, Trace } from '../model/types.js';
import type { CniPluginName } from '../profile.js';
import { addNode, addPod, addService, listener, modelCluster } from '../testing/model-cluster.js';

const np = (name: string, spec: NetworkPolicySpec): NetworkPolicy => ({ metadata: { name, namespace: 'default' }, spec });
const DENY_INGRESS: NetworkPolicySpec = { podSelector: {}, policyTypes: ['Ingress'] };

/** A Linux and a Windows node on `plugin`, a web pod on each behind one Service, and a client on each. */
function cluster(plugin: CniPluginName) {
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1, network: { plugin } });
  // Calico for Windows starts kube-proxy with DSR (profile-parse.ts), so ClusterIP traffic keeps the client's address.
  const kubeProxy = { mode: 'kernelspace' as const, networkName: 'cbr0', enableDSR: plugin === 'calico', featureGates: plugin === 'calico' ? { WinDSR: true } : ({} as Record<string, boolean>), hostnameOverride: true };
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2, windowsBuild: '10.0.20348', network: { plugin, kubeProxy } });
  const lweb = addPod(net, linux, 5, 'lweb', [listener(80, 'nginx')]);
  const wweb = addPod(net, win, 5, 'wweb', [listener(80, 'iis')]);
  const lclient = addPod(net, linux, 6, 'lclient');
  const wclient = addPod(net, win, 6, 'wclient');
  for (const p of [lweb, wweb]) labels(p, { app: 'web' });
  labels(lclient, { role: 'client' });
  labels(wclient, { role: 'client' });
  addService(net, 'web', '10.96.0.50', [lweb, wweb]);
  return { net, linux, win, lweb, wweb, lclient, wclient };
}

function labels(p: PodNet, l: Record<string, string>): void {
  p.labels = () => l;
}

const tcp = (net: ClusterNetwork, from: PodNet, to: string, port = 80): Trace => net.trace({ from: { kind: 'pod', ip: from.ip }, to, protocol: 'TCP', port });
const hopsOf = (t: Trace) => t.hops.map((h) => `${h.at}: ${h.rule}`).join('\n');

test('Calico on Linux and Windows: deny-all drops at the destination (pod IP and ClusterIP), an allow rule opens it again', () => {
  const { net, lweb, wweb, lclient, wclient } = cluster('calico');
  for (const [from, to] of [[lclient, wweb], [wclient, lweb], [wclient, wweb]] as const) assert.equal(tcp(net, from, to.ip).fate, 'delivered');
  net.policies.set('default', 'deny', np('deny', DENY_INGRESS));
  for (const [from, to] of [[lclient, wweb], [wclient, lweb], [lclient, lweb]] as const) {
    const t = tcp(net, from, to.ip);
    assert.equal(t.fate, 'timeout', hopsOf(t));
    assert.equal(t.reason, `NetworkPolicy default/deny isolates pod default/${to.name} for ingress and no rule allows TCP port 80 from ${from.ip}: Calico drops the packet`);
    assert.equal(t.hops.at(-1)!.at, `node ${to.node} Calico`);
  }
  // Through the Service: both backends are behind the policy, whichever the load balancer picks.
  for (let i = 0; i < 2; i++) assert.equal(tcp(net, lclient, '10.96.0.50').fate, 'timeout');
  net.policies.set('default', 'allow-clients', np('allow-clients', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }], ports: [{ port: 80 }] }] }));
  const ok = tcp(net, wclient, '10.96.0.50');
  assert.equal(ok.fate, 'delivered', hopsOf(ok));
  assert.ok(ok.hops.some((h) => h.rule === `NetworkPolicy ingress of pod default/${ok.target!.pod!.name}: TCP port 80 from ${wclient.ip} allowed by default/allow-clients (ingress rule 1)`), hopsOf(ok));
  // A pod without the client label stays out; the policy sees a relabel at once.
  labels(wclient, { role: 'other' });
  assert.equal(tcp(net, wclient, wweb.ip).fate, 'timeout');
  labels(wclient, { role: 'client' });
  assert.equal(tcp(net, wclient, wweb.ip).fate, 'delivered');
  net.policies.set('default', 'deny', undefined);
  net.policies.set('default', 'allow-clients', undefined);
  assert.equal(tcp(net, wclient, wweb.ip).fate, 'delivered');
});

test('flannel enforces nothing: the policy is shown as ignored and the flow gets through', () => {
  const { net, lweb, wweb, lclient } = cluster('flannel');
  net.policies.set('default', 'deny', np('deny', DENY_INGRESS));
  for (const to of [lweb, wweb]) {
    const t = tcp(net, lclient, to.ip);
    assert.equal(t.fate, 'delivered');
    assert.match(hopsOf(t), new RegExp(`node ${to.node} flannel: NetworkPolicy ingress of pod default/${to.name} \\(default/deny\\) not enforced: flannel routes pod traffic and implements no NetworkPolicy`));
  }
});

test('each end is decided by its own node: a Calico destination enforces ingress even from a flannel node', () => {
  const net = modelCluster();
  const fl = addNode(net, { name: 'linux-fl', os: 'linux', index: 1 });
  const ca = addNode(net, { name: 'win-ca', os: 'windows', index: 2, windowsBuild: '10.0.20348', network: { plugin: 'calico' } });
  const client = addPod(net, fl, 6, 'client');
  const web = addPod(net, ca, 5, 'web', [listener(80, 'iis')]);
  const other = addPod(net, fl, 5, 'other', [listener(80, 'nginx')]);
  net.policies.set('default', 'deny', np('deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }));
  assert.equal(tcp(net, client, web.ip).fate, 'timeout', 'ingress at the Calico node');
  // The flannel node enforces neither its pods' egress nor their ingress.
  assert.equal(tcp(net, client, other.ip).fate, 'delivered');
  // The Calico pod's egress is enforced at its node, before any route.
  const out = tcp(net, web, other.ip);
  assert.equal(out.fate, 'timeout');
  assert.equal(out.reason, `NetworkPolicy default/deny isolates pod default/web for egress and no rule allows TCP port 80 to ${other.ip}: Calico drops the packet`);
  assert.ok(!out.hops.some((h) => h.rule.startsWith('route ')), hopsOf(out));
});

test('egress: deny-all egress blocks DNS and the outside; allowing kube-dns and a CIDR opens exactly those', () => {
  const { net, lclient, wclient, lweb, linux } = cluster('calico');
  // DNS over TCP (the model helper's EndpointSlices are TCP).
  const dns = addPod(net, linux, 7, 'coredns', [listener(53, 'coredns')]);
  labels(dns, { 'k8s-app': 'kube-dns' });
  addService(net, 'kube-dns', '10.96.0.10', [dns], { ports: [{ port: 53, targetPort: 53, protocol: 'TCP' }] }, 53);
  net.policies.set('default', 'no-egress', np('no-egress', { podSelector: { matchLabels: { role: 'client' } }, policyTypes: ['Egress'] }));
  for (const c of [lclient, wclient]) {
    assert.equal(tcp(net, c, '10.96.0.10', 53).fate, 'timeout');
    assert.equal(tcp(net, c, '203.0.113.10', 443).fate, 'timeout');
    assert.equal(net.trace({ from: { kind: 'pod', ip: c.ip }, to: lweb.ip, protocol: 'ICMP' }).fate, 'timeout');
  }
  net.policies.set('default', 'dns', np('dns', {
    podSelector: {}, policyTypes: ['Egress'],
    egress: [{ to: [{ podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }], ports: [{ port: 53, protocol: 'TCP' }] }, { to: [{ ipBlock: { cidr: '203.0.113.0/24' } }] }],
  }));
  for (const c of [lclient, wclient]) {
    assert.equal(tcp(net, c, '10.96.0.10', 53).fate, 'delivered');
    assert.equal(tcp(net, c, '203.0.113.10', 443).fate, 'egress');
    assert.equal(tcp(net, c, lweb.ip).fate, 'timeout');
  }
});

test('replies to allowed connections pass; the own node always reaches its pods; hostNetwork pods are not isolated', () => {
  const { net, linux, win, lweb, wweb, lclient } = cluster('calico');
  // The web pods may send nothing, yet answer the connections they accept.
  net.policies.set('default', 'web-no-egress', np('web-no-egress', { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Egress'] }));
  assert.equal(tcp(net, lclient, wweb.ip).fate, 'delivered');
  net.policies.set('default', 'deny', np('deny', DENY_INGRESS));
  // Kubelet probes come from the node itself: allowed. Another node is subject to the policy.
  for (const [node, pod] of [[linux, lweb], [win, wweb]] as const) {
    const own = net.trace({ from: { kind: 'node', node: node.name }, to: pod.ip, protocol: 'TCP', port: 80 });
    assert.equal(own.fate, 'delivered');
    assert.ok(own.hops.some((h) => h.rule.endsWith('is the pod\'s own node, always allowed')), hopsOf(own));
  }
  assert.equal(net.trace({ from: { kind: 'node', node: linux.name }, to: wweb.ip, protocol: 'TCP', port: 80 }).fate, 'timeout');
  // A host-network pod on the Linux node is its node: it reaches the local pod, and nothing isolates it.
  const host: PodNet = { ip: linux.ip, node: linux.name, namespace: 'default', name: 'hostnet', hostNetwork: true, listenerAt: () => undefined, labels: () => ({}) };
  net.setPod('10.244.1.200', host);
  assert.equal(net.trace({ from: { kind: 'pod', ip: '10.244.1.200' }, to: lweb.ip, protocol: 'TCP', port: 80 }).fate, 'delivered');
});

test('NodePort from outside: the policy sees the client before the node SNATs it; ipBlock admits it', () => {
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1, network: { plugin: 'calico' } });
  const web = addPod(net, linux, 5, 'web', [listener(80, 'nginx')]);
  addService(net, 'web', '10.96.0.60', [web], { type: 'NodePort', ports: [{ port: 80, targetPort: 80, nodePort: 30080, protocol: 'TCP' }] });
  net.policies.set('default', 'deny', np('deny', DENY_INGRESS));
  const t = net.trace({ from: { kind: 'outside' }, to: linux.ip, protocol: 'TCP', port: 30080 });
  assert.equal(t.fate, 'timeout');
  assert.match(t.reason ?? '', new RegExp(`from ${net.outsideIP.replace(/\./g, '\\.')}: Calico drops`));
  net.policies.set('default', 'outside', np('outside', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: `${net.outsideIP}/32` } }] }] }));
  assert.equal(net.trace({ from: { kind: 'outside' }, to: linux.ip, protocol: 'TCP', port: 30080 }).fate, 'delivered');
});
