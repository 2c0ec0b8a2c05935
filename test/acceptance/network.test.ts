// Issue 9 acceptance (networking), with the real kubectl against `winkube up`: seed 000's verification list on the
// seed's win-webserver, the Windows limitations the seeds list (no Service VIPs from a Windows host, no ICMP out of
// the pod network), session affinity on WS2019 vs WS2022, a Service with 65 Windows backends with and without DSR,
// and flanneld's refusal of a Windows vxlan config.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { eventually, Kubectl, kubectlBinaries, startCluster, winkube, type RunningCluster } from './harness.js';

const FLEET = new URL('../../../test/fixtures/network-fleet.yaml', import.meta.url).pathname;
const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;
let published: number;

interface PodJson { metadata: { name: string }; spec: { nodeName?: string }; status: { phase?: string; podIP?: string } }

function pods(selector: string): PodJson[] {
  return (JSON.parse(k.ok(['get', 'pods', '-l', selector, '-o', 'json'])) as { items: PodJson[] }).items;
}

async function running(selector: string, count: number, timeoutMs = 30_000): Promise<PodJson[]> {
  return eventually(() => {
    const ps = pods(selector).filter((p) => p.status.phase === 'Running' && p.status.podIP);
    return ps.length === count ? ps : undefined;
  }, timeoutMs, `${count} pods ${selector} Running`);
}

const exec = (pod: string, cmd: string[]) => k.run(['exec', pod, '--', ...cmd]);
const nodeIP = (name: string) => k.ok(['get', 'node', name, '-o', 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}']);

/** A Windows client pod on one node that idles, for exec. */
function windowsClient(name: string, node: string, tag: string): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {role: client}}
spec:
  nodeName: ${node}
  nodeSelector: {kubernetes.io/os: windows}
  containers:
  - {name: c, image: 'mcr.microsoft.com/windows/servercore:${tag}', command: [powershell.exe, -command, 'Start-Sleep -Seconds 36000']}
`;
}

/** agnhost netexec replicas on the WS2019 nodes behind a Service on port 80 (extra: more Service spec lines). */
function agnhostService(name: string, replicas: number, extra = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.17763'}
      containers: [{name: c, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [netexec, '--http-port=8080']}]
---
apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: {app: ${name}}
  ports: [{port: 80, targetPort: 8080}]
${extra ? `  ${extra}\n` : ''}`;
}

before(async () => {
  cluster = await startCluster({ fleet: FLEET, args: ['--publish', '0:30080@win2019'] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const m = await eventually(() => /^published: 127\.0\.0\.1:(\d+) → NodePort 30080 on win2019$/m.exec(cluster.output()), 10_000, 'the published port');
  published = Number(m[1]);
  // The seed's win-webserver (seed 000 "Getting Started") on the WS2019 nodes (its image is ltsc2019), NodePort 30080.
  const seed = readFileSync(new URL('../../../test/fixtures/win-webserver.yaml', import.meta.url), 'utf8')
    .replace('      targetPort: 80\n', '      targetPort: 80\n      nodePort: 30080\n')
    .replace('      kubernetes.io/os: windows\n', "      kubernetes.io/os: windows\n      node.kubernetes.io/windows-build: '10.0.17763'\n");
  assert.match(seed, /nodePort: 30080[\s\S]*windows-build/);
  k.ok(['apply', '-f', '-'], seed);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: nodeshell}
spec:
  nodeName: control-plane
  hostNetwork: true
  containers: [{name: c, image: busybox:1.36, command: [sleep, '36000']}]
---
${windowsClient('c2019', 'win2019', 'ltsc2019')}---
${windowsClient('c2019-dsr', 'win2019-dsr', 'ltsc2019')}---
${windowsClient('c2022', 'win2022', 'ltsc2022')}`);
});

after(async () => {
  k?.dispose();
  await cluster?.stop();
});

test('seed 000 verification list on win-webserver: node→pod, pod→pod, Service IP, discovery, NodePort, outbound', async () => {
  const [a, b] = await running('app=win-webserver', 2);
  await eventually(() => pods('role=client').filter((p) => p.status.phase === 'Running').length === 3 || undefined, 30_000, 'clients Running');
  await eventually(() => k.ok(['get', 'pod', 'nodeshell', '-o', 'jsonpath={.status.phase}']) === 'Running' || undefined, 20_000, 'nodeshell Running');
  // Names resolve once kube-dns has ready endpoints (the coredns pods' readiness probes passed).
  await eventually(() => k.ok(['get', 'endpointslices', '-n', 'kube-system', '-l', 'kubernetes.io/service-name=kube-dns', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}']).trim().split(/\s+/).length === 2 || undefined, 30_000, 'kube-dns endpoints ready');
  const page = /<H1>Windows Container Web Server<\/H1>/;
  // Node to pod across the network: curl port 80 of the pod IPs from the Linux control plane node.
  for (const p of [a, b]) assert.match(exec('nodeshell', ['wget', '-qO-', `http://${p.status.podIP}`]).stdout, page);
  // Pod to pod: ping between the pods, across hosts.
  const ping = exec(a.metadata.name, ['ping', '-n', '1', b.status.podIP!]);
  assert.match(ping.stdout, new RegExp(`Reply from ${b.status.podIP!.replace(/\./g, '\\.')}: bytes=32`), ping.stdout + ping.stderr);
  // Service to pod: the virtual IP from the control plane node and from the pods.
  const vip = k.ok(['get', 'svc', 'win-webserver', '-o', 'jsonpath={.spec.clusterIP}']);
  assert.match(exec('nodeshell', ['wget', '-qO-', `http://${vip}`]).stdout, page);
  for (const p of [a, b]) assert.match(exec(p.metadata.name, ['curl.exe', '-s', `http://${vip}`]).stdout, page);
  // Service discovery by name with the default DNS suffix.
  assert.match(exec(a.metadata.name, ['curl.exe', '-s', 'http://win-webserver']).stdout, page);
  assert.match(exec(a.metadata.name, ['powershell', '-command', '(Invoke-WebRequest -UseBasicParsing http://win-webserver.default.svc.cluster.local).Content']).stdout, page);
  // Inbound: the NodePort from the control plane node and from outside the cluster (published on 127.0.0.1).
  assert.match(exec('nodeshell', ['wget', '-qO-', `http://${nodeIP('win2019')}:30080`]).stdout, page);
  const res = await fetch(`http://127.0.0.1:${published}/`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), page);
  // Outbound: TCP leaves the cluster through the node's OutBoundNAT (nothing outside is modelled to answer).
  const out = winkube(['net', 'trace', `pod/${a.metadata.name}`, '203.0.113.10', '--port', '80'], cluster.kubeconfig);
  assert.match(out.stdout, /OutBoundNAT: SNAT 10\.244\.\d+\.\d+ → 172\.18\.0\.\d+/);
  assert.match(out.stdout, /^verdict: egress/m);
  // The whole list as a matrix: everything passes or is a documented limitation, except the NodePorts of the two
  // nodes whose flannel setup failed (their kube-proxy has no HNS network to program).
  const check = winkube(['net', 'check'], cluster.kubeconfig);
  const failed = check.stdout.split('\n').filter((l) => l.includes('FAIL '));
  assert.equal(failed.length, 4, check.stdout);
  for (const l of failed) assert.match(l, /(win-badvxlan|win-stuck) 172\.18\.0\.\d+:30080 +refused: kube-proxy on \1 is not programming Services: Unable to find HNS Network specified/);
  assert.equal(check.code, 1);
});

test('Windows limitations: no Service VIP from the Windows host, no ICMP out of the pod network, no local NodePort', async () => {
  const [a] = await running('app=win-webserver', 2);
  const host = winkube(['net', 'trace', 'node/win2019', 'svc/win-webserver'], cluster.kubeconfig);
  assert.equal(host.code, 1);
  assert.match(host.stdout, /verdict: timeout — Windows container hosts are not able to access the IP of services scheduled on them/);
  const local = winkube(['net', 'trace', 'node/win2019', 'node/win2019', '--port', '30080'], cluster.kubeconfig);
  assert.match(local.stdout, /Local NodePort access from the node itself fails on Windows/);
  assert.match(exec(a.metadata.name, ['ping', '-n', '1', '203.0.113.10']).stdout, /Request timed out\./);
  const icmp = winkube(['net', 'trace', `pod/${a.metadata.name}`, '203.0.113.10', '--protocol', 'icmp'], cluster.kubeconfig);
  assert.match(icmp.stdout, /does not transpose ICMP packets/);
});

test('session affinity: HNS keeps a client on one backend on WS2022, not on WS2019 (kube-proxy says why)', async () => {
  k.ok(['apply', '-f', '-'], agnhostService('echo', 3, 'sessionAffinity: ClientIP'));
  await running('app=echo', 3);
  const backends = (client: string) => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const r = exec(client, ['curl.exe', '-s', 'http://echo/hostname']);
      assert.equal(r.code, 0, r.stderr);
      seen.add(r.stdout.trim());
    }
    return seen.size;
  };
  assert.equal(backends('c2022'), 1, 'WS2022: one backend per client');
  assert.ok(backends('c2019') > 1, 'WS2019: no session affinity');
  assert.match(winkube(['net', 'proxy', 'win2019'], cluster.kubeconfig).stdout, /Session Affinity is not supported on this version of Windows/);
});

test('a Service with 65 Windows backends: HNS refuses the non-DSR load balancer; with --enable-dsr it works', async () => {
  k.ok(['apply', '-f', '-'], agnhostService('many', 65));
  await running('app=many', 65, 90_000);
  await eventually(() => /invalid number of destinations/.test(winkube(['net', 'proxy', 'win2019'], cluster.kubeconfig).stdout) || undefined, 15_000, 'the HNS error in kube-proxy\'s log');
  const log = winkube(['net', 'proxy', 'win2019'], cluster.kubeconfig).stdout;
  assert.match(log, /"Policy creation failed" err="hcnCreateLoadBalancer failed in Win32: The parameter is incorrect\. \(0x57\)/);
  // From the node without DSR the VIP leads nowhere; from the DSR node it answers.
  const plain = exec('c2019', ['curl.exe', '-s', '-m', '2', 'http://many/hostname']);
  assert.notEqual(plain.code, 0);
  const dsr = exec('c2019-dsr', ['curl.exe', '-s', '-m', '2', 'http://many/hostname']);
  assert.equal(dsr.code, 0, dsr.stderr);
  assert.match(dsr.stdout, /^many-/);
  k.ok(['delete', 'deployment', 'many']);
});

test('flanneld refuses a Windows vxlan VNI below 4096: the node\'s pods get no network', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: on-broken}
spec:
  nodeName: win-badvxlan
  tolerations: [{key: broken, operator: Exists}]
  containers: [{name: c, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: [cmd, /c, ping, -t, localhost]}]
`);
  const msg = await eventually(() => k.ok(['get', 'events', '--field-selector', 'involvedObject.name=on-broken,reason=FailedCreatePodSandBox', '-o', 'jsonpath={.items[0].message}']), 20_000, 'FailedCreatePodSandBox');
  assert.match(msg, /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]+": plugin type="flannel" name="flannel\.1" failed \(add\): failed to load flannel 'subnet\.env' file/);
  assert.equal(k.ok(['get', 'pod', 'on-broken', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.reason}']), 'ContainerCreating');
});

test('Windows e2e black-box: hybrid_network (Linux ↔ Windows pods), service (NodePort from a Windows pod), dns (dnsPolicy None)', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: linux-nginx, labels: {e2e: hybrid}}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  tolerations: [{operator: Exists, effect: NoSchedule}]
  containers: [{name: linux-container, image: 'registry.k8s.io/e2e-test-images/nginx:1.14-4'}]
---
apiVersion: v1
kind: Pod
metadata: {name: win-web, labels: {e2e: hybrid}}
spec:
  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.17763'}
  containers: [{name: windows-container, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [test-webserver]}]
---
apiVersion: v1
kind: Pod
metadata: {name: win-dns, labels: {e2e: hybrid}}
spec:
  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.17763'}
  dnsPolicy: None
  dnsConfig: {nameservers: [10.96.0.10, 1.1.1.1], searches: [default.svc.cluster.local]}
  containers: [{name: c, image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: [pause]}]
`);
  const ps = await running('e2e=hybrid', 3);
  const ip = (name: string) => ps.find((p) => p.metadata.name === name)!.status.podIP!;
  // hybrid_network.go: Linux → Windows with nc, Windows → Linux with curl.exe --fail.
  assert.equal(exec('linux-nginx', ['sh', '-c', `nc -vz ${ip('win-web')} 80 -w 10`]).code, 0);
  const toLinux = exec('win-web', ['cmd', '/c', 'curl.exe', `http://${ip('linux-nginx')}`, '--connect-timeout', '10', '--fail']);
  assert.equal(toLinux.code, 0, toLinux.stderr);
  // service.go: a Windows pod reaches a NodePort Service of Windows backends at <nodeIP>:<nodePort>.
  const np = exec('win-web', ['cmd', '/c', 'curl.exe', `http://${nodeIP('win2022')}:30080`, '--connect-timeout', '10', '--fail']);
  assert.equal(np.code, 0, np.stderr);
  assert.match(np.stdout, /Windows Container Web Server/);
  // dns.go: the configured servers show in ipconfig, the search list resolves `kubernetes`, a wrong name does not.
  assert.match(exec('win-dns', ['ipconfig', '/all']).stdout, /1\.1\.1\.1/);
  assert.notEqual(exec('win-dns', ['curl.exe', '-k', 'https://kubernetezzzzzzzz:443']).code, 0);
  const api = exec('win-dns', ['curl.exe', '-k', '-s', 'https://kubernetes:443/version']);
  assert.equal(api.code, 0, api.stderr);
  assert.match(api.stdout, /"kind":"Status"|"gitVersion"/, 'kube-apiserver answered through the kubernetes Service');
});

test('flanneld stuck at "Waiting for the Network to be created": pods wait for network until a relaunch (Restart-Service flanneld)', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: on-stuck}
spec:
  nodeName: win-stuck
  tolerations: [{key: broken, operator: Exists}]
  containers: [{name: c, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: [cmd, /c, ping, -t, localhost]}]
`);
  await eventually(() => k.ok(['get', 'events', '--field-selector', 'involvedObject.name=on-stuck,reason=FailedCreatePodSandBox', '-o', 'jsonpath={.items[0].message}']), 20_000, 'FailedCreatePodSandBox');
  // The seed's fix: relaunch flanneld, here from a HostProcess container on the node.
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: relaunch}
spec:
  restartPolicy: Never
  hostNetwork: true
  nodeName: win-stuck
  tolerations: [{key: broken, operator: Exists}]
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM'}}
  containers: [{name: c, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: [powershell.exe, -Command, 'Restart-Service flanneld']}]
`);
  await eventually(() => k.ok(['get', 'pod', 'relaunch', '-o', 'jsonpath={.status.phase}']) === 'Succeeded' || undefined, 30_000, 'relaunch done');
  await eventually(() => k.ok(['get', 'pod', 'on-stuck', '-o', 'jsonpath={.status.phase}']) === 'Running' || undefined, 30_000, 'on-stuck Running after the relaunch');
});
