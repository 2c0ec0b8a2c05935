import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkPolicyPeer } from 'kubernetes-types/networking/v1.js';
import type { KubeProxyProfile } from '../profile.js';
import { addNode, addPod, addRemoteSubnets, addService, listener, modelCluster } from '../testing/model-cluster.js';

const VIP = '10.96.0.90';

/** Two Windows Calico nodes on l2bridge or overlay, kube-proxy with or without DSR; a client on node 1 and a web pod on node 1 or 2. */
function cluster(o: { overlay: boolean; dsr: boolean; sameNode: boolean }) {
  const net = modelCluster();
  const kp = (index: number): KubeProxyProfile => ({
    mode: 'kernelspace', networkName: o.overlay ? 'flannel.4096' : 'cbr0', sourceVip: o.overlay ? `10.244.${index}.250` : undefined,
    enableDSR: o.dsr, featureGates: o.dsr ? { WinDSR: true } : {}, hostnameOverride: true,
  });
  const nodes = [2, 3].map((index) => addNode(net, {
    name: `win-${index - 1}`, os: 'windows', index, windowsBuild: '10.0.20348',
    network: { plugin: 'calico', ...(o.overlay ? { backend: 'vxlan' as const } : {}), kubeProxy: kp(index) },
  }));
  if (o.overlay) addRemoteSubnets(net);
  const client = addPod(net, nodes[0], 6, 'client');
  client.labels = () => ({ role: 'client' });
  const web = addPod(net, o.sameNode ? nodes[0] : nodes[1], 5, 'web', [listener(80, 'iis')]);
  web.labels = () => ({ app: 'web' });
  addService(net, 'web', VIP, [web]);
  return { net, nodes, client, web };
}

const allowFrom = (peer: NetworkPolicyPeer) => ({
  metadata: { name: 'allow', namespace: 'default' },
  spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [peer], ports: [{ port: 80 }] }] },
});

// Calico for Windows limitations ("Service ClusterIPs incompatible with selectors/pod IPs in network policy"), seeds
// 001/002 Direct Server Return, proxier.go sourceVip: see source-vip.ts.
const CASES = [
  { overlay: false, dsr: false, sameNode: true, seen: 'node' },
  { overlay: false, dsr: false, sameNode: false, seen: 'node' },
  { overlay: true, dsr: false, sameNode: true, seen: 'source-vip' },
  { overlay: true, dsr: false, sameNode: false, seen: 'source-vip' },
  { overlay: false, dsr: true, sameNode: true, seen: 'pod' },
  { overlay: false, dsr: true, sameNode: false, seen: 'pod' },
  { overlay: true, dsr: true, sameNode: true, seen: 'pod' },
  { overlay: true, dsr: true, sameNode: false, seen: 'pod' },
] as const;

for (const c of CASES) {
  const name = `${c.overlay ? 'overlay' : 'l2bridge'}, DSR ${c.dsr ? 'on' : 'off'}, ${c.sameNode ? 'same node' : 'across nodes'}`;
  test(`pod → ClusterIP on ${name}: the backend and its policy see the ${c.seen} address`, () => {
    const { net, nodes, client, web } = cluster(c);
    const snat = c.seen === 'node' ? nodes[0].ip : c.seen === 'source-vip' ? '10.244.2.250' : client.ip;
    const trace = () => net.trace({ from: { kind: 'pod', ip: client.ip }, to: VIP, protocol: 'TCP', port: 80 });
    const open = trace();
    assert.equal(open.fate, 'delivered', open.reason);
    assert.equal(open.target?.pod, web);
    assert.equal(open.seenSource, snat);
    const lb = open.hops.find((h) => h.at === `node ${nodes[0].name} HNS`)!.rule;
    if (c.dsr) assert.match(lb, /\(default\/web \(ClusterIP\), DSR\)$/);
    else assert.ok(lb.endsWith(`, SNAT ${client.ip} → ${snat} (the source VIP is win-1's ${c.overlay ? '--source-vip endpoint' : 'node address'}))`), lb);

    // podSelector: matches the client only when its address arrives.
    net.policies.set('default', 'allow', allowFrom({ podSelector: { matchLabels: { role: 'client' } } }));
    const bySelector = trace();
    if (c.dsr) assert.equal(bySelector.fate, 'delivered', bySelector.reason);
    else {
      assert.equal(bySelector.fate, 'timeout');
      assert.equal(bySelector.reason, `NetworkPolicy default/allow isolates pod default/web for ingress and no rule allows TCP port 80 from ${snat}: Calico drops the packet; `
        + `the policy saw ${snat}, not the client ${client.ip}: kube-proxy on win-1 SNATs Service traffic to its source VIP without DSR (--enable-dsr with the WinDSR feature gate keeps the pod address)`);
    }
    // The pod directly (no load balancer): the selector matches whatever kube-proxy does.
    assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: web.ip, protocol: 'TCP', port: 80 }).fate, 'delivered');

    // ipBlock: the client's /32 behaves like the selector; the SNAT address's /32 admits the non-DSR flow instead.
    net.policies.set('default', 'allow', allowFrom({ ipBlock: { cidr: `${client.ip}/32` } }));
    assert.equal(trace().fate, c.dsr ? 'delivered' : 'timeout');
    net.policies.set('default', 'allow', allowFrom({ ipBlock: { cidr: `${snat}/32` } }));
    assert.equal(trace().fate, 'delivered');
  });
}

test('overlay: a backend with no RemoteSubnetRoute (a public or node address) makes the node IP the source VIP', () => {
  const { net, nodes, client } = cluster({ overlay: true, dsr: false, sameNode: true });
  // A Service whose endpoint is a node of the cluster (e.g. a host-network backend): kube-proxy's containsNodeIP case.
  addService(net, 'host', '10.96.0.91', [{ ...client, ip: nodes[1].ip, node: nodes[1].name, name: 'host' }]);
  const lbs = [...nodes[0].hns!.loadBalancers.values()];
  assert.equal(lbs.find((l) => l.frontendVIPs[0] === '10.96.0.91')?.sourceVIP, nodes[0].ip);
  assert.equal(lbs.find((l) => l.frontendVIPs[0] === VIP)?.sourceVIP, '10.244.2.250');
});
