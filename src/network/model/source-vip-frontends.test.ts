import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeProxyProfile } from '../profile.js';
import { addNode, addPod, addRemoteSubnets, addService, listener, modelCluster } from '../testing/model-cluster.js';

const VIP = '10.96.0.90';
const EXTERNAL = '198.51.100.7';

/**
 * Two Windows Calico nodes (l2bridge or overlay), kube-proxy with or without --enable-dsr, a NodePort Service with an
 * externalIP over one web pod on win-1; `patched`: WS2019 with or without its DSR update (17763.1432).
 */
function cluster(o: { overlay?: boolean; dsr: boolean; etpLocal: boolean; build?: string; ubr?: number }) {
  const net = modelCluster();
  const kp = (index: number): KubeProxyProfile => ({
    mode: 'kernelspace', networkName: o.overlay ? 'flannel.4096' : 'cbr0', sourceVip: o.overlay ? `10.244.${index}.250` : undefined,
    enableDSR: o.dsr, featureGates: o.dsr ? { WinDSR: true } : {}, hostnameOverride: true,
  });
  const nodes = [2, 3].map((index) => addNode(net, {
    name: `win-${index - 1}`, os: 'windows', index, windowsBuild: o.build ?? '10.0.20348', windowsUBR: o.ubr,
    network: { plugin: 'calico', ...(o.overlay ? { backend: 'vxlan' as const } : {}), kubeProxy: kp(index) },
  }));
  if (o.overlay) addRemoteSubnets(net);
  const web = addPod(net, nodes[0], 5, 'web', [listener(80, 'iis')]);
  web.labels = () => ({ app: 'web' });
  const client = addPod(net, nodes[1], 6, 'client');
  client.labels = () => ({ role: 'client' });
  addService(net, 'web', VIP, [web], {
    type: 'NodePort', externalIPs: [EXTERNAL], externalTrafficPolicy: o.etpLocal ? 'Local' : 'Cluster',
    ports: [{ port: 80, targetPort: 80, nodePort: 30080, protocol: 'TCP' }],
  });
  return { net, nodes, web, client };
}

// proxier.go syncProxyRules: NodePort and externalIP load balancers take `sourceVip` and isDSR = localTrafficDSR
// (externalTrafficPolicy: Local, forced off where hcn.DSRSupported fails); --enable-dsr only flags the ClusterIP one.
// Seed 002 "Windows Service settings": client IP preservation is ETP Local with DSR.
const CASES = [
  { name: 'l2bridge, ETP Cluster', dsr: false, etpLocal: false, seen: 'node' },
  { name: 'l2bridge, ETP Cluster, --enable-dsr (does not touch NodePorts)', dsr: true, etpLocal: false, seen: 'node' },
  { name: 'l2bridge, ETP Local', dsr: false, etpLocal: true, seen: 'client' },
  { name: 'l2bridge, ETP Local, --enable-dsr', dsr: true, etpLocal: true, seen: 'client' },
  { name: 'overlay, ETP Cluster', overlay: true, dsr: false, etpLocal: false, seen: 'source-vip' },
  { name: 'overlay, ETP Local', overlay: true, dsr: false, etpLocal: true, seen: 'client' },
  { name: 'WS2019 before its DSR update, ETP Local', build: '10.0.17763', ubr: 1431, dsr: false, etpLocal: true, seen: 'node' },
  { name: 'WS2019 with its DSR update, ETP Local', build: '10.0.17763', ubr: 1432, dsr: false, etpLocal: true, seen: 'client' },
] as const;

for (const c of CASES) {
  for (const frontend of ['NodePort', 'externalIP'] as const) {
    test(`${frontend} from outside, ${c.name}: the backend sees the ${c.seen} address`, () => {
      const { net, nodes, web } = cluster(c);
      const outside = net.outsideIP;
      const to = frontend === 'NodePort' ? nodes[0].ip : EXTERNAL;
      const port = frontend === 'NodePort' ? 30080 : 80;
      const trace = () => net.trace({ from: { kind: 'outside' }, to, protocol: 'TCP', port });
      const t = trace();
      assert.equal(t.fate, 'delivered', t.reason);
      assert.equal(t.target?.pod, web);
      const want = c.seen === 'client' ? outside : c.seen === 'node' ? nodes[0].ip : '10.244.2.250';
      assert.equal(t.seenSource, want);
      const lb = t.hops.find((h) => h.at === 'node win-1 HNS')!.rule;
      if (c.seen === 'client') assert.match(lb, new RegExp(`\\(default/web \\(${frontend}\\), DSR\\)$`));
      else assert.ok(lb.endsWith(`(${frontend}), SNAT ${outside} → ${want} (the source VIP is win-1's ${c.seen === 'node' ? 'node address' : '--source-vip endpoint'}))`), lb);

      // A policy that admits the outside client by address: it matches only when the client's address arrives.
      net.policies.set('default', 'allow', { metadata: { name: 'allow', namespace: 'default' }, spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ ipBlock: { cidr: `${outside}/32` } }] }] } });
      const p = trace();
      if (c.seen === 'client') assert.equal(p.fate, 'delivered', p.reason);
      else {
        assert.equal(p.fate, 'timeout');
        assert.equal(p.reason, `NetworkPolicy default/allow isolates pod default/web for ingress and no rule allows TCP port 80 from ${want}: Calico drops the packet; `
          + `the policy saw ${want}, not the client ${outside}: kube-proxy on win-1 SNATs ${frontend} traffic to its source VIP; only externalTrafficPolicy: Local (on an HNS with DSR) makes that load balancer DSR and keeps the client address`);
      }
    });
  }
}

test('a pod through a NodePort of another node: SNAT to that node\'s source VIP unless ETP Local', () => {
  for (const etpLocal of [false, true]) {
    const { net, nodes, client } = cluster({ dsr: true, etpLocal });
    const t = net.trace({ from: { kind: 'pod', ip: client.ip }, to: nodes[0].ip, protocol: 'TCP', port: 30080 });
    assert.equal(t.fate, 'delivered', t.reason);
    assert.equal(t.seenSource, etpLocal ? client.ip : nodes[0].ip);
  }
});

// Hairpin: without DSR the load balancer's SNAT brings the packet back from the source VIP; with DSR it needs the
// loopback DSR OutBoundNAT (CNI loopbackDSR), which NATs it to the node (sig-windows-tools#119).
const HAIRPIN = [
  { dsr: false, loopback: true, fate: 'delivered', seen: 'node' },
  { dsr: false, loopback: false, fate: 'delivered', seen: 'node' },
  { dsr: true, loopback: true, fate: 'delivered', seen: 'node' },
  { dsr: true, loopback: false, fate: 'timeout' },
] as const;

for (const h of HAIRPIN) {
  test(`hairpin through the ClusterIP, DSR ${h.dsr ? 'on' : 'off'}, loopback DSR policy ${h.loopback ? 'present' : 'absent'}: ${h.fate}`, () => {
    const { net, nodes, web } = cluster({ dsr: h.dsr, etpLocal: false });
    const ep = nodes[0].hns!.endpointByIP(web.ip)!;
    if (!h.loopback) ep.policies = ep.policies.filter((p) => !(p.type === 'OutBoundNAT' && p.destinations));
    const t = net.trace({ from: { kind: 'pod', ip: web.ip }, to: VIP, protocol: 'TCP', port: 80 });
    assert.equal(t.fate, h.fate, t.reason);
    if (h.fate === 'timeout') {
      assert.equal(t.reason, `default/web reaches itself through a DSR load balancer only with loopbackDSR in its CNI config (an OutBoundNAT policy with Destinations [${web.ip}])`);
      return;
    }
    assert.equal(t.seenSource, nodes[0].ip);
    if (h.dsr) assert.ok(t.hops.some((x) => x.rule === `loopback DSR: OutBoundNAT (Destinations [${web.ip}]) SNATs ${web.ip} → ${nodes[0].ip}, so the pod reaches itself`), JSON.stringify(t.hops));
    else assert.ok(t.hops.some((x) => x.rule.includes(`SNAT ${web.ip} → ${nodes[0].ip} (the source VIP is win-1's node address)`)), JSON.stringify(t.hops));
  });
}
