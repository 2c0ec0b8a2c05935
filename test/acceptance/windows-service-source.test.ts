// Who a Service backend sees as the client when a Windows pod calls a ClusterIP, with the real kubectl (oldest and
// newest) against `winkube up` on Calico: kube-proxy without DSR SNATs to its source VIP (the node on l2bridge), so
// agnhost's /clientip shows the node and a podSelector allow does not match; with DSR (Calico's kube-proxy default)
// the pod's own address arrives and the policy lets it in. NodePorts SNAT to the source VIP whatever --enable-dsr
// says, unless externalTrafficPolicy is Local; a pod reaching itself through its Service under DSR comes back through
// the loopback DSR NAT (src/network/model/source-vip.ts has the sources).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, winkube, writeTemp, type RunningCluster } from './harness.js';

const ENDS = kubectlEnds();
const NEWEST = ENDS.at(-1)!;

const FLEET = writeTemp('source-fleet.yaml', `apiVersion: winkube.io/v1alpha1
kind: NodeFleet
nodes:
  - {name: control-plane, os: linux, roles: [control-plane], network: {plugin: calico}}
  - {name: win-nodsr, os: windows, windowsBuild: 10.0.20348, network: {plugin: calico, kubeProxy: {enableDSR: false}}}
  - {name: win-dsr, os: windows, windowsBuild: 10.0.20348, network: {plugin: calico}}
`);

const client = (name: string, node: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {role: client}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: ${node}
  containers: [{name: c, image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: [powershell.exe, -command, 'Start-Sleep -Seconds 36000']}]
`;

/** agnhost netexec on the DSR node behind Service `web`; a client on each node (one across nodes, one beside it). */
const APPS = `apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: win-dsr
  containers: [{name: c, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [netexec, '--http-port=8080']}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: web-np}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080, nodePort: 30090}]
---
apiVersion: v1
kind: Service
metadata: {name: web-local}
spec:
  type: NodePort
  externalTrafficPolicy: Local
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080, nodePort: 30091}]
---
${client('far', 'win-nodsr')}---
${client('near', 'win-dsr')}`;

const allowClients = (name: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: ${name}}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
  - from: [{podSelector: {matchLabels: {role: client}}}]
    ports: [{port: 8080}]
`;

let cluster: RunningCluster;
const ip: Record<string, string> = {};

before(async () => {
  cluster = await startCluster({ fleet: FLEET });
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], APPS);
    const items = await eventually(() => {
      const all = (JSON.parse(k.ok(['get', 'pods', '-o', 'json'])) as { items: { metadata: { name: string }; status: { phase?: string; podIP?: string } }[] }).items;
      return all.length === 3 && all.every((p) => p.status.phase === 'Running' && p.status.podIP) ? all : undefined;
    }, 30_000, 'web and the clients Running');
    for (const p of items) ip[p.metadata.name] = p.status.podIP!;
    ip.nodsr = k.ok(['get', 'node', 'win-nodsr', '-o', 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}']);
    ip.dsr = k.ok(['get', 'node', 'win-dsr', '-o', 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}']);
    ip.vip = k.ok(['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}']);
    await eventually(() => k.ok(['get', 'endpointslices', '-n', 'kube-system', '-l', 'kubernetes.io/service-name=kube-dns', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}']).trim() || undefined, 30_000, 'kube-dns endpoints ready');
  } finally {
    k.dispose();
  }
});

after(async () => {
  await cluster?.stop();
});

const clientIP = (k: Kubectl, pod: string) => k.run(['exec', pod, '--', 'curl.exe', '-s', '-m', '2', 'http://web/clientip']);
const escape = (s: string) => s.replace(/\./g, '\\.');

for (const { version, path } of ENDS) {
  test(`a Windows pod calling a ClusterIP: SNAT to the node without DSR, its own address with DSR; the policy follows (kubectl ${version})`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    const name = `allow-clients-${version.replace(/\D/g, '')}`;
    try {
      // agnhost /clientip answers with the address:port it saw.
      assert.match(clientIP(k, 'far').stdout, new RegExp(`^${escape(ip.nodsr)}:\\d+$`));
      assert.match(clientIP(k, 'near').stdout, new RegExp(`^${escape(ip.near)}:\\d+$`));
      // Direct to the pod, no load balancer: both keep their address.
      assert.match(k.ok(['exec', 'far', '--', 'curl.exe', '-s', '-m', '2', `http://${ip.web}:8080/clientip`]), new RegExp(`^${escape(ip.far)}:\\d+$`));

      k.ok(['apply', '-f', '-'], allowClients(name));
      const far = clientIP(k, 'far');
      assert.equal(far.code, 28, `curl: (28) expected, got ${far.code} ${far.stdout}${far.stderr}`);
      assert.match(clientIP(k, 'near').stdout, new RegExp(`^${escape(ip.near)}:\\d+$`));
      assert.match(k.ok(['exec', 'far', '--', 'curl.exe', '-s', '-m', '2', `http://${ip.web}:8080/clientip`]), new RegExp(`^${escape(ip.far)}:\\d+$`), 'the pod IP itself is allowed');
      const t = winkube(['net', 'trace', 'pod/far', ip.vip, '--port', '80'], cluster.kubeconfig);
      assert.match(t.stdout, new RegExp(`SNAT ${escape(ip.far)} → ${escape(ip.nodsr)} \\(the source VIP is win-nodsr's node address\\)`));
      assert.match(t.stdout, new RegExp(`the policy saw ${escape(ip.nodsr)}, not the client ${escape(ip.far)}: kube-proxy on win-nodsr SNATs Service traffic to its source VIP without DSR`));
      k.ok(['delete', 'networkpolicy', name]);
    } finally {
      k.dispose();
    }
  });
}

for (const { version, path } of ENDS) {
  test(`NodePorts: SNAT to the receiving node's source VIP with --enable-dsr too, the client's address with externalTrafficPolicy Local; hairpin under DSR (kubectl ${version})`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      // From a pod on the other node, through win-dsr's NodePorts.
      assert.match(k.ok(['exec', 'far', '--', 'curl.exe', '-s', '-m', '2', `http://${ip.dsr}:30090/clientip`]), new RegExp(`^${escape(ip.dsr)}:\\d+$`));
      assert.match(k.ok(['exec', 'far', '--', 'curl.exe', '-s', '-m', '2', `http://${ip.dsr}:30091/clientip`]), new RegExp(`^${escape(ip.far)}:\\d+$`));
      // From outside the cluster, as winkube net trace explains it.
      const etpCluster = winkube(['net', 'trace', 'outside', 'node/win-dsr', '--port', '30090'], cluster.kubeconfig);
      const outside = new RegExp(`SNAT (\\S+) → ${escape(ip.dsr)} \\(the source VIP is win-dsr's node address\\)\\)`).exec(etpCluster.stdout)?.[1];
      assert.ok(outside, etpCluster.stdout);
      assert.match(etpCluster.stdout, new RegExp(`^the destination sees the client as ${escape(ip.dsr)} `, 'm'));
      const local = winkube(['net', 'trace', 'outside', 'node/win-dsr', '--port', '30091'], cluster.kubeconfig);
      assert.match(local.stdout, /\(NodePort\), DSR\)$/m);
      assert.match(local.stdout, new RegExp(`^the destination sees the client as ${escape(outside)} `, 'm'));
      // Hairpin: web through its own ClusterIP on the DSR node comes back through the loopback DSR OutBoundNAT.
      const hair = winkube(['net', 'trace', 'pod/web', 'svc/web', '--port', '80'], cluster.kubeconfig);
      assert.match(hair.stdout, /^verdict: delivered$/m);
      assert.match(hair.stdout, new RegExp(`loopback DSR: OutBoundNAT \\(Destinations \\[${escape(ip.web)}\\]\\) SNATs ${escape(ip.web)} → ${escape(ip.dsr)}`));
    } finally {
      k.dispose();
    }
  });
}
