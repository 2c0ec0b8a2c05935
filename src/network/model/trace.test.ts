import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addNode, addPod, addRemoteSubnets, addService, listener, modelCluster } from '../testing/model-cluster.js';
import { WINDOWS_HOST_TO_VIP, WINDOWS_ICMP_OUT, WINDOWS_LOCAL_NODEPORT } from './trace.js';

function mixed() {
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1 });
  const win1 = addNode(net, { name: 'win-1', os: 'windows', index: 2 });
  const win2 = addNode(net, { name: 'win-2', os: 'windows', index: 3, windowsBuild: '10.0.20348' });
  const web1 = addPod(net, win1, 5, 'web-1', [listener(80, 'powershell.exe')]);
  const web2 = addPod(net, win2, 5, 'web-2', [listener(80, 'powershell.exe')]);
  const client = addPod(net, win1, 6, 'client');
  const lclient = addPod(net, linux, 6, 'lclient');
  addService(net, 'win-webserver', '10.96.0.50', [web1, web2], { type: 'NodePort', ports: [{ port: 80, targetPort: 80, nodePort: 30080, protocol: 'TCP' }] });
  return { net, linux, win1, win2, web1, web2, client, lclient };
}

test('the seed verification list on a mixed cluster, hop by hop', () => {
  const { net, linux, win1, web1, web2, client, lclient } = mixed();
  // Node to pod across the network, from the Linux control plane node.
  const n2p = net.trace({ from: { kind: 'node', node: linux.name }, to: web1.ip, protocol: 'TCP', port: 80 });
  assert.equal(n2p.fate, 'delivered');
  assert.equal(n2p.target?.pod, web1);
  // Pod to pod on one node and across nodes (ping).
  assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: web1.ip, protocol: 'ICMP' }).fate, 'delivered');
  const across = net.trace({ from: { kind: 'pod', ip: client.ip }, to: web2.ip, protocol: 'ICMP' });
  assert.equal(across.fate, 'delivered');
  assert.ok(across.hops.some((h) => h.rule.startsWith('route 10.244.3.0/24 via 172.18.0.5')), JSON.stringify(across.hops));
  // Service to pod from the Linux node (iptables) and from a Windows pod (HNS load balancer): both backends take turns.
  const seen = new Set<string>();
  for (let i = 0; i < 4; i++) {
    const t = net.trace({ from: { kind: 'pod', ip: client.ip }, to: '10.96.0.50', protocol: 'TCP', port: 80 });
    assert.equal(t.fate, 'delivered');
    assert.equal(t.seenSource, win1.ip, 'pod → ClusterIP without DSR: SNAT to the node on l2bridge, same node or not');
    seen.add(t.target!.ip);
  }
  assert.deepEqual([...seen].sort(), [web1.ip, web2.ip]);
  const fromLinux = net.trace({ from: { kind: 'node', node: linux.name }, to: '10.96.0.50', protocol: 'TCP', port: 80 });
  assert.equal(fromLinux.fate, 'delivered');
  assert.ok(fromLinux.hops.some((h) => h.at === 'node linux-1 iptables' && h.rule.includes('KUBE-SVC-')));
  // Inbound: the NodePort of a Windows node from outside is SNATed to the node (no DSR).
  const inbound = net.trace({ from: { kind: 'outside' }, to: win1.ip, protocol: 'TCP', port: 30080 });
  assert.equal(inbound.fate, 'delivered');
  assert.equal(inbound.seenSource, win1.ip);
  // Outbound TCP leaves the cluster through OutBoundNAT; ping does not come back on Windows.
  const out = net.trace({ from: { kind: 'pod', ip: client.ip }, to: '8.8.8.8', protocol: 'TCP', port: 443 });
  assert.equal(out.fate, 'egress');
  assert.ok(out.hops.some((h) => h.rule.startsWith('OutBoundNAT: SNAT 10.244.2.6 → 172.18.0.4')));
  assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: '8.8.8.8', protocol: 'ICMP' }).reason, WINDOWS_ICMP_OUT);
  assert.equal(net.trace({ from: { kind: 'pod', ip: lclient.ip }, to: '8.8.8.8', protocol: 'ICMP' }).fate, 'egress', 'Linux pods ping out');
});

test('Windows node limitations: no Service VIPs from the host, no local NodePort', () => {
  const { net, win1, linux } = mixed();
  const vip = net.trace({ from: { kind: 'node', node: win1.name }, to: '10.96.0.50', protocol: 'TCP', port: 80 });
  assert.equal(vip.fate, 'timeout');
  assert.equal(vip.reason, WINDOWS_HOST_TO_VIP);
  const local = net.trace({ from: { kind: 'node', node: win1.name }, to: win1.ip, protocol: 'TCP', port: 30080 });
  assert.equal(local.reason, WINDOWS_LOCAL_NODEPORT);
  // From another node the same NodePort works.
  assert.equal(net.trace({ from: { kind: 'node', node: linux.name }, to: win1.ip, protocol: 'TCP', port: 30080 }).fate, 'delivered');
});

test('closed ports, Services without endpoints and unknown addresses', () => {
  const { net, client, lclient, web1 } = mixed();
  assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: web1.ip, protocol: 'TCP', port: 81 }).fate, 'refused');
  addService(net, 'empty', '10.96.0.60', []);
  // iptables REJECTs a Service without endpoints; HNS has no load balancer for it, so the SYN goes nowhere.
  assert.equal(net.trace({ from: { kind: 'pod', ip: lclient.ip }, to: '10.96.0.60', protocol: 'TCP', port: 80 }).fate, 'refused');
  assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: '10.96.0.60', protocol: 'TCP', port: 80 }).fate, 'timeout');
  assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: '10.244.9.9', protocol: 'TCP', port: 80 }).reason, 'no running pod has address 10.244.9.9');
  assert.equal(net.trace({ from: { kind: 'pod', ip: client.ip }, to: '10.96.0.50', protocol: 'ICMP' }).fate, 'timeout');
});

test('flannel vxlan: routes need RemoteSubnetRoutes and matching VNI', () => {
  const net = modelCluster();
  const vx = { plugin: 'flannel' as const, backend: 'vxlan' as const };
  const w1 = addNode(net, { name: 'w1', os: 'windows', index: 2, network: { ...vx, kubeProxy: { mode: 'kernelspace', networkName: 'flannel.4096', sourceVip: '10.244.2.250', enableDSR: false, featureGates: {}, hostnameOverride: true } } });
  const w2 = addNode(net, { name: 'w2', os: 'windows', index: 3, network: { ...vx, kubeProxy: { mode: 'kernelspace', networkName: 'flannel.4096', sourceVip: '10.244.3.250', enableDSR: false, featureGates: {}, hostnameOverride: true } } });
  const a = addPod(net, w1, 5, 'a');
  const b = addPod(net, w2, 5, 'b', [listener(80, 'nginx')]);
  assert.match(net.trace({ from: { kind: 'pod', ip: a.ip }, to: b.ip, protocol: 'TCP', port: 80 }).reason ?? '', /no RemoteSubnetRoute for 10.244.3.0\/24/);
  addRemoteSubnets(net);
  const ok = net.trace({ from: { kind: 'pod', ip: a.ip }, to: b.ip, protocol: 'TCP', port: 80 });
  assert.equal(ok.fate, 'delivered');
  assert.ok(ok.hops.some((h) => h.rule.startsWith('VXLAN (VNI 4096, UDP 4789) to 172.18.0.5')));
  // Through the ClusterIP, an overlay backend on another node sees the source VIP.
  addService(net, 'b', '10.96.0.70', [b]);
  const viaVip = net.trace({ from: { kind: 'pod', ip: a.ip }, to: '10.96.0.70', protocol: 'TCP', port: 80 });
  assert.equal(viaVip.fate, 'delivered');
  assert.equal(viaVip.seenSource, '10.244.2.250');
  w2.network = { ...w2.network, vni: 4097 };
  assert.match(net.trace({ from: { kind: 'pod', ip: a.ip }, to: b.ip, protocol: 'TCP', port: 80 }).reason ?? '', /VXLAN mismatch/);
});

test('externalTrafficPolicy Local with DSR keeps the client address; nodes without local endpoints drop', () => {
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1 });
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2 });
  const web = addPod(net, win, 5, 'web', [listener(80, 'iis')]);
  addService(net, 'web', '10.96.0.80', [web], { type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ port: 80, targetPort: 80, nodePort: 30090, protocol: 'TCP' }] });
  const t = net.trace({ from: { kind: 'outside' }, to: win.ip, protocol: 'TCP', port: 30090 });
  assert.equal(t.fate, 'delivered');
  assert.equal(t.seenSource, net.outsideIP);
  const viaLinux = net.trace({ from: { kind: 'outside' }, to: linux.ip, protocol: 'TCP', port: 30090 });
  assert.equal(viaLinux.fate, 'timeout');
  assert.match(viaLinux.reason ?? '', /no local endpoints on linux-1/);
});

test('seed troubleshooting cases: MAC spoofing off, hairpin without DSR, VXLAN node→pod, the WS2019 overlay hotfix', () => {
  const net = modelCluster();
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2 });
  const other = addNode(net, { name: 'win-2', os: 'windows', index: 3 });
  const web = addPod(net, win, 5, 'web', [listener(80, 'iis')]);
  const peer = addPod(net, other, 5, 'peer');
  addService(net, 'web', '10.96.0.90', [web]);
  // Hairpin: the backend is the client itself. Without DSR the load balancer's SNAT brings it back (source-vip.ts),
  // loopback DSR policy or not; the DSR case is in source-vip-frontends.test.ts.
  assert.equal(net.trace({ from: { kind: 'pod', ip: web.ip }, to: '10.96.0.90', protocol: 'TCP', port: 80 }).fate, 'delivered');
  const ep = win.hns!.endpointByIP(web.ip)!;
  ep.policies = ep.policies.filter((p) => !(p.type === 'OutBoundNAT' && p.destinations));
  const hair = net.trace({ from: { kind: 'pod', ip: web.ip }, to: '10.96.0.90', protocol: 'TCP', port: 80 });
  assert.equal(hair.fate, 'delivered', hair.reason);
  assert.equal(hair.seenSource, win.ip);
  // MAC spoofing off on the VM of win-1: its containers are cut off.
  win.network = { ...win.network, macSpoofing: false };
  assert.match(net.trace({ from: { kind: 'pod', ip: peer.ip }, to: web.ip, protocol: 'ICMP' }).reason ?? '', /MAC address spoofing is off on the network adapter of win-1/);
  win.network = { ...win.network, macSpoofing: true };
  // flannel VXLAN: a Windows node reaches only its own pods.
  const vx = { backend: 'vxlan' as const };
  const v1 = addNode(net, { name: 'vx-1', os: 'windows', index: 4, network: { ...vx, kubeProxy: { mode: 'kernelspace', networkName: 'flannel.4096', sourceVip: '10.244.4.250', enableDSR: false, featureGates: {}, hostnameOverride: true } } });
  const v2 = addNode(net, { name: 'vx-2', os: 'windows', index: 5, network: { ...vx, kubeProxy: { mode: 'kernelspace', networkName: 'flannel.4096', sourceVip: '10.244.5.250', enableDSR: false, featureGates: {}, hostnameOverride: true } } });
  addRemoteSubnets(net);
  const local = addPod(net, v1, 5, 'local', [listener(80, 'iis')]);
  const remote = addPod(net, v2, 5, 'remote', [listener(80, 'iis')]);
  assert.equal(net.trace({ from: { kind: 'node', node: 'vx-1' }, to: local.ip, protocol: 'TCP', port: 80 }).fate, 'delivered');
  assert.match(net.trace({ from: { kind: 'node', node: 'vx-1' }, to: remote.ip, protocol: 'TCP', port: 80 }).reason ?? '', /not possible on Windows by design/);
  assert.equal(net.trace({ from: { kind: 'pod', ip: local.ip }, to: remote.ip, protocol: 'TCP', port: 80 }).fate, 'delivered');
  // WS2019 before KB4482887 (17763.348) cannot run overlay networks.
  v2.windowsBuild = '10.0.17763';
  v2.windowsUBR = 316;
  assert.match(net.trace({ from: { kind: 'pod', ip: local.ip }, to: remote.ip, protocol: 'TCP', port: 80 }).reason ?? '', /needs KB4482887 \(10\.0\.17763\.348\) or later; vx-2 runs 10\.0\.17763\.316/);
  v2.windowsUBR = 348;
  assert.equal(net.trace({ from: { kind: 'pod', ip: local.ip }, to: remote.ip, protocol: 'TCP', port: 80 }).fate, 'delivered');
});

test('ovn-kubernetes (transparent): no kube-proxy on the Windows node, and Services are reachable from it', async () => {
  const { IptablesProxier } = await import('../proxy/iptables/proxier.js');
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1 });
  const ovn = addNode(net, { name: 'win-ovn', os: 'windows', index: 2, network: { plugin: 'ovn-k8s-cni-overlay' } });
  ovn.winkernel = undefined;
  ovn.iptables = new IptablesProxier({ name: ovn.name, nodeIP: ovn.ip }, () => 0, 'OVN');
  const web = addPod(net, linux, 5, 'web', [listener(80, 'nginx')]);
  addService(net, 'web', '10.96.0.99', [web]);
  const t = net.trace({ from: { kind: 'node', node: 'win-ovn' }, to: '10.96.0.99', protocol: 'TCP', port: 80 });
  assert.equal(t.fate, 'delivered');
  assert.ok(t.hops.some((h) => h.at === 'node win-ovn OVN'));
});

test('hostPort: HNS PortMapping on Windows (win-bridge), the portmap plugin on Linux', () => {
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1 });
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2 });
  const w = addPod(net, win, 5, 'w', [listener(80, 'iis')]);
  win.hns!.endpointByIP(w.ip)!.policies.push({ type: 'PortMapping', internalPort: 80, externalPort: 8080, protocol: 6 });
  const l = addPod(net, linux, 5, 'l', [listener(80, 'nginx')]);
  l.hostPorts = [{ hostPort: 9090, containerPort: 80, protocol: 'TCP' }];
  const toWin = net.trace({ from: { kind: 'outside' }, to: win.ip, protocol: 'TCP', port: 8080 });
  assert.equal(toWin.fate, 'delivered');
  assert.equal(toWin.target?.pod, w);
  const toLinux = net.trace({ from: { kind: 'node', node: 'win-1' }, to: linux.ip, protocol: 'TCP', port: 9090 });
  assert.equal(toLinux.fate, 'delivered');
  assert.equal(toLinux.target?.pod, l);
  assert.equal(net.trace({ from: { kind: 'outside' }, to: win.ip, protocol: 'TCP', port: 8081 }).fate, 'refused');
});

test('dual stack: IPv6 flows between dual-stack pods and through an IPv6 ClusterIP; an IPv4-only pod cannot take part', async () => {
  const net = modelCluster();
  const linux = addNode(net, { name: 'linux-1', os: 'linux', index: 1 });
  const win = addNode(net, { name: 'win-1', os: 'windows', index: 2, windowsBuild: '10.0.20348' });
  const old = addNode(net, { name: 'win-2019', os: 'windows', index: 3 });
  const w = addPod(net, win, 5, 'w', [listener(80, 'iis')]);
  w.ipv6 = 'fd00:10:244:2::5';
  net.setPod(w.ipv6, w);
  win.hns!.setEndpointIPv6(win.hns!.endpointByIP(w.ip)!.id, w.ipv6);
  const l = addPod(net, linux, 5, 'l');
  l.ipv6 = 'fd00:10:244:1::5';
  net.setPod(l.ipv6, l);
  const v4only = addPod(net, old, 5, 'v4only');
  const svc = { metadata: { namespace: 'default', name: 'dual' }, spec: { clusterIP: '10.96.0.77', clusterIPs: ['10.96.0.77', 'fd00:10:96::77'], ipFamilies: ['IPv4', 'IPv6'], ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }] } };
  const slice = (addressType: string, ip: string) => ({ metadata: { namespace: 'default', labels: { 'kubernetes.io/service-name': 'dual' } }, addressType, ports: [{ port: 80, protocol: 'TCP' }], endpoints: [{ addresses: [ip], nodeName: 'win-1', conditions: { ready: true } }] });
  net.serviceChanged('default', 'dual', svc, [slice('IPv4', w.ip), slice('IPv6', w.ipv6)]);
  const direct = net.trace({ from: { kind: 'pod', ip: l.ip }, to: 'FD00:10:244:2:0:0:0:5', protocol: 'TCP', port: 80 });
  assert.equal(direct.fate, 'delivered');
  assert.equal(direct.seenSource, 'fd00:10:244:1::5');
  const viaV6 = net.trace({ from: { kind: 'pod', ip: l.ip }, to: 'fd00:10:96::77', protocol: 'TCP', port: 80 });
  assert.equal(viaV6.fate, 'delivered');
  assert.equal(viaV6.target?.ip, 'fd00:10:244:2::5');
  // The Windows node's kube-proxy programs an IPv6 load balancer (flag IPv6) over the endpoint's IPv6 address.
  const lb6 = [...win.hns!.loadBalancers.values()].find((x) => x.frontendVIPs[0] === 'fd00:10:96::77')!;
  assert.equal(lb6.flags & 2, 2);
  const fromWin = net.trace({ from: { kind: 'pod', ip: w.ip }, to: 'fd00:10:96::77', protocol: 'TCP', port: 80 });
  assert.equal(fromWin.target?.ip, 'fd00:10:244:2::5');
  // Without DSR the IPv6 load balancer SNATs within its family: to the node's IPv6 address (source-vip.ts).
  win.ipv6 = 'FD00:172:18:0::4';
  assert.equal(net.trace({ from: { kind: 'pod', ip: w.ip }, to: 'fd00:10:96::77', protocol: 'TCP', port: 80 }).seenSource, 'fd00:172:18::4');
  const noV6 = net.trace({ from: { kind: 'pod', ip: v4only.ip }, to: 'fd00:10:96::77', protocol: 'TCP', port: 80 });
  assert.equal(noV6.fate, 'unreachable');
  assert.match(noV6.reason ?? '', /has no IPv6 address/);
});

test('v1.9 wincni (l2bridge): pods on different nodes meet only with the routes of an upstream L3 or host-gateway topology', () => {
  const net = modelCluster();
  const a = addNode(net, { name: 'w1', os: 'windows', index: 2, network: { plugin: 'wincni' } });
  const b = addNode(net, { name: 'w2', os: 'windows', index: 3, network: { plugin: 'wincni' } });
  const p = addPod(net, a, 5, 'p');
  const q = addPod(net, b, 5, 'q', [listener(80, 'iis')]);
  assert.match(net.trace({ from: { kind: 'pod', ip: p.ip }, to: q.ip, protocol: 'TCP', port: 80 }).reason ?? '', /needs user-defined routes \(seed 004/);
  for (const routes of ['upstream-l3', 'host-gateway'] as const) {
    a.network = { ...a.network, routes };
    b.network = { ...b.network, routes };
    assert.equal(net.trace({ from: { kind: 'pod', ip: p.ip }, to: q.ip, protocol: 'TCP', port: 80 }).fate, 'delivered', routes);
  }
});
