// NetworkPolicy enforcement with the real kubectl (oldest and newest) against `winkube up`: on a Calico cluster
// (Linux and Windows nodes) a pod reaches another pod and a Service, times out once a deny policy selects the
// backends, and gets through again with an allow rule; Calico for Windows shows the policy as HNS ACLs. On a flannel
// cluster the same policy is accepted by the API server and ignored on the wire, as flannel implements none.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, winkube, writeTemp, type RunningCluster } from './harness.js';

const ENDS = kubectlEnds();
const NEWEST = ENDS.at(-1)!;

const fleet = (plugin: string) => writeTemp(`${plugin}-fleet.yaml`, `apiVersion: winkube.io/v1alpha1
kind: NodeFleet
nodes:
  - {name: control-plane, os: linux, roles: [control-plane], network: {plugin: ${plugin}}}
  - {name: linux-1, os: linux, network: {plugin: ${plugin}}}
  - {name: win-1, os: windows, windowsBuild: 10.0.20348, network: {plugin: ${plugin}}}
`);

/** nginx on Linux and IIS on Windows behind Service `web`, and an idle client on each OS (quick pulls: this is not about images). */
const APPS = `apiVersion: v1
kind: Pod
metadata: {name: lweb, labels: {app: web}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: linux-1
  containers: [{name: c, image: 'nginx:1.27', ports: [{name: http, containerPort: 80}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: wweb, labels: {app: web}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: win-1
  containers: [{name: c, image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', ports: [{name: http, containerPort: 80}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: lclient, labels: {role: client}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: linux-1
  containers: [{name: c, image: 'busybox:1.36', command: [sleep, '36000']}]
---
apiVersion: v1
kind: Pod
metadata: {name: wclient, labels: {role: client}, annotations: {winkube.io/pull-duration: 100ms}}
spec:
  nodeName: win-1
  containers: [{name: c, image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: [powershell.exe, -command, 'Start-Sleep -Seconds 36000']}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
`;

const denyWeb = (name: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: ${name}}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Ingress]
`;

const allowClients = (name: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: ${name}}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
  - from: [{podSelector: {matchLabels: {role: client}}}]
    ports: [{port: 80}]
`;

let calico: RunningCluster;
let flannel: RunningCluster;
const podIP: Record<string, string> = {};

async function ready(c: RunningCluster): Promise<void> {
  const k = new Kubectl(NEWEST.path, c.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], APPS);
    await eventually(() => {
      const items = (JSON.parse(k.ok(['get', 'pods', '-o', 'json'])) as { items: { metadata: { name: string }; status: { phase?: string; podIP?: string } }[] }).items;
      return items.length === 4 && items.every((p) => p.status.phase === 'Running' && p.status.podIP) ? items : undefined;
    }, 30_000, 'the web and client pods Running').then((items) => {
      if (c === calico) for (const p of items) podIP[p.metadata.name] = p.status.podIP!;
    });
    // The Service name resolves once kube-dns has ready endpoints.
    await eventually(() => k.ok(['get', 'endpointslices', '-n', 'kube-system', '-l', 'kubernetes.io/service-name=kube-dns', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}']).trim() || undefined, 30_000, 'kube-dns endpoints ready');
  } finally {
    k.dispose();
  }
}

before(async () => {
  [calico, flannel] = await Promise.all([startCluster({ fleet: fleet('calico') }), startCluster({ fleet: fleet('flannel') })]);
  await Promise.all([ready(calico), ready(flannel)]);
});

after(async () => {
  await Promise.all([calico?.stop(), flannel?.stop()]);
});

const NGINX = /<title>Welcome to nginx!<\/title>/;
const IIS = /<title>IIS Windows Server<\/title>/;

/** Linux: busybox wget with a 1 s timeout; Windows: Invoke-WebRequest with -TimeoutSec 1 (a drop waits that long). */
const wget = (k: Kubectl, url: string) => k.run(['exec', 'lclient', '--', 'wget', '-qO-', '-T', '1', url]);
const iwr = (k: Kubectl, url: string) => k.run(['exec', 'wclient', '--', 'powershell', '-command', `(Invoke-WebRequest -UseBasicParsing ${url} -TimeoutSec 1).Content`]);

for (const { version, path } of ENDS) {
  test(`Calico enforces NetworkPolicy on Linux and Windows pods: allowed, timed out after deny, allowed again (kubectl ${version})`, () => {
    const k = new Kubectl(path, calico.kubeconfig);
    const v = version.replace(/\D/g, '');
    try {
      // Before any policy: pod → pod across OSes, and pod → Service.
      assert.match(wget(k, `http://${podIP.wweb}`).stdout, IIS);
      assert.match(iwr(k, `http://${podIP.lweb}`).stdout, NGINX);
      assert.match(iwr(k, 'http://web').stdout, /<title>/);
      // A deny policy on the backends: the SYN is dropped, so clients time out (to the pods and to the ClusterIP).
      k.ok(['apply', '-f', '-'], denyWeb(`deny-web-${v}`));
      const lin = wget(k, `http://${podIP.wweb}`);
      assert.equal(lin.code, 1, lin.stdout);
      assert.match(lin.stderr, /wget: download timed out/);
      assert.match(wget(k, 'http://web').stderr, /wget: download timed out/);
      const win = iwr(k, 'http://web');
      assert.notEqual(win.code, 0);
      assert.match(win.stderr, /Invoke-WebRequest : The operation has timed out\./);
      const denied = winkube(['net', 'trace', 'pod/lclient', podIP.wweb, '--port', '80'], calico.kubeconfig);
      assert.match(denied.stdout, new RegExp(`node win-1 Calico +NetworkPolicy ingress of pod default/wweb: TCP port 80 from ${podIP.lclient.replace(/\./g, '\\.')} denied \\(selected by default/deny-web-${v}\\) → drop`));
      assert.match(denied.stdout, new RegExp(`^verdict: timeout — NetworkPolicy default/deny-web-${v} isolates pod default/wweb for ingress`, 'm'));
      // An allow rule for the clients: policies add up, so the clients get through again; the rest stays out.
      k.ok(['apply', '-f', '-'], allowClients(`allow-clients-${v}`));
      assert.match(wget(k, `http://${podIP.wweb}`).stdout, IIS);
      assert.match(iwr(k, `http://${podIP.lweb}`).stdout, NGINX);
      assert.match(iwr(k, 'http://web').stdout, /<title>/);
      assert.match(k.ok(['exec', 'wclient', '--', 'powershell', '-command', `Test-NetConnection ${podIP.wweb} -Port 80 -InformationLevel Quiet`]), /^True/m);
      k.ok(['label', 'pod', 'lclient', 'role=other', '--overwrite']);
      assert.match(wget(k, `http://${podIP.lweb}`).stderr, /wget: download timed out/);
      k.ok(['label', 'pod', 'lclient', 'role=client', '--overwrite']);
      assert.match(wget(k, `http://${podIP.lweb}`).stdout, NGINX);
      k.ok(['delete', 'networkpolicy', `deny-web-${v}`, `allow-clients-${v}`]);
    } finally {
      k.dispose();
    }
  });
}

test('Calico for Windows: the enforced policy shows as ACL endpoint policies in Get-HnsEndpoint', async () => {
  const k = new Kubectl(NEWEST.path, calico.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], `${denyWeb('deny-web-hns')}---\n${allowClients('allow-clients-hns')}`);
    const acls = await eventually(() => {
      const out = winkube(['hns', 'win-1', '--view', 'endpoints'], calico.kubeconfig).stdout;
      return out.includes('"Action":  "Block"') ? out : undefined;
    }, 10_000, 'ACLs on the wweb endpoint');
    assert.match(acls, new RegExp(`"Protocols":  "6",\\s+"RemoteAddresses":  "${[podIP.lclient, podIP.wclient].sort().join(',').replace(/\./g, '\\.')}",\\s+"LocalPorts":  "80"`));
    k.ok(['delete', 'networkpolicy', 'deny-web-hns', 'allow-clients-hns']);
    await eventually(() => !winkube(['hns', 'win-1', '--view', 'endpoints'], calico.kubeconfig).stdout.includes('"ACL"') || undefined, 10_000, 'ACLs removed');
  } finally {
    k.dispose();
  }
});

test('flannel enforces no NetworkPolicy: the API server takes it, traffic flows as before', () => {
  const k = new Kubectl(NEWEST.path, flannel.kubeconfig);
  try {
    k.ok(['apply', '-f', '-'], denyWeb('deny-web'));
    assert.match(k.ok(['get', 'networkpolicy', 'deny-web', '-o', 'jsonpath={.spec.policyTypes}']), /Ingress/);
    const ips = Object.fromEntries(['lweb', 'wweb'].map((p) => [p, k.ok(['get', 'pod', p, '-o', 'jsonpath={.status.podIP}'])]));
    assert.match(wget(k, `http://${ips.wweb}`).stdout, IIS);
    assert.match(wget(k, 'http://web').stdout, /<title>/);
    assert.match(iwr(k, `http://${ips.lweb}`).stdout, NGINX);
    const t = winkube(['net', 'trace', 'pod/lclient', ips.wweb, '--port', '80'], flannel.kubeconfig);
    assert.match(t.stdout, /node win-1 flannel +NetworkPolicy ingress of pod default\/wweb \(default\/deny-web\) not enforced: flannel routes pod traffic and implements no NetworkPolicy/);
    assert.match(t.stdout, /^verdict: delivered/m);
  } finally {
    k.dispose();
  }
});
