// Issue 9 acceptance (DNS): kubeadm's DNS add-on in kube-system, the cluster DNS asked with `dig` on the loopback port
// `winkube up` prints, and pods resolving through it with their OS's resolver (seed 002 "DNS": Windows pods use one
// suffix, so `kubernetes` and the FQDN resolve but `kubernetes.default` does not).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
const HAVE_DIG = spawnSync('sh', ['-c', 'command -v dig'], { encoding: 'utf8' }).stdout.trim() !== '';
const NO_DIG = HAVE_DIG ? false : 'dig is not installed (apt-get install bind9-dnsutils)';
let cluster: RunningCluster;
let k: Kubectl;
let dns: { host: string; port: string };

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const m = await eventually(() => /^DNS: ([\d.]+):(\d+)$/m.exec(cluster.output()), 10_000, 'the DNS line');
  dns = { host: m[1], port: m[2] };
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Namespace
metadata: {name: dns-test}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: dns-test}
spec: {selector: {app: web}, ports: [{name: http, port: 80, protocol: TCP}]}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: dns-test}
spec: {clusterIP: None, selector: {app: db}, ports: [{name: pg, port: 5432, protocol: TCP}]}
---
apiVersion: v1
kind: Service
metadata: {name: ext, namespace: dns-test}
spec: {type: ExternalName, externalName: example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: db-0, namespace: dns-test, labels: {app: db}}
spec:
  hostname: db-0
  subdomain: db
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600']}]
---
apiVersion: v1
kind: Pod
metadata: {name: lin, namespace: default}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600']}]
---
apiVersion: v1
kind: Pod
metadata: {name: win, namespace: default}
spec:
  nodeSelector: {node.kubernetes.io/windows-build: "10.0.17763"}
  containers: [{name: c, image: mcr.microsoft.com/windows/servercore:ltsc2019, command: [powershell, -command, Start-Sleep 3600]}]
`);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

function dig(...args: string[]): string {
  const r = spawnSync('dig', [`@${dns.host}`, '-p', dns.port, '+time=2', '+tries=1', ...args], { encoding: 'utf8' });
  return r.stdout;
}
const short = (...args: string[]) => dig('+short', ...args).trim().split('\n').filter(Boolean).sort();
const ready = (ns: string, pod: string) => k.run(['get', 'pod', '-n', ns, pod, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']).stdout === 'True';

test('kubeadm\'s DNS add-on: kube-dns Service at 10.96.0.10 with its ports and labels, the coredns Deployment Ready on Linux nodes', async () => {
  const svc = JSON.parse(k.ok(['get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'json']));
  assert.equal(svc.spec.clusterIP, '10.96.0.10');
  assert.deepEqual(svc.spec.ports.map((p: { name: string; port: number; protocol: string }) => `${p.name}/${p.port}/${p.protocol}`), ['dns/53/UDP', 'dns-tcp/53/TCP', 'metrics/9153/TCP']);
  assert.equal(svc.metadata.labels['k8s-app'], 'kube-dns');
  assert.equal(svc.metadata.labels['kubernetes.io/name'], 'CoreDNS');
  assert.equal(svc.metadata.annotations['winkube.io/dns-server'], `${dns.host}:${dns.port}`);
  const dep = JSON.parse(k.ok(['get', 'deploy', '-n', 'kube-system', 'coredns', '-o', 'json']));
  assert.equal(dep.spec.replicas, 2);
  assert.match(dep.spec.template.spec.containers[0].image, /^registry\.k8s\.io\/coredns\/coredns:v1\.\d+\.\d+$/);
  assert.deepEqual(dep.spec.template.spec.nodeSelector, { 'kubernetes.io/os': 'linux' });
  assert.match(k.ok(['get', 'cm', '-n', 'kube-system', 'coredns', '-o', 'jsonpath={.data.Corefile}']), /kubernetes cluster\.local in-addr\.arpa ip6\.arpa \{\s+pods insecure/);
  await eventually(() => k.ok(['get', 'deploy', '-n', 'kube-system', 'coredns', '-o', 'jsonpath={.status.readyReplicas}']) === '2', 30_000, 'coredns 2/2 ready');
  const nodes = k.ok(['get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-dns', '-o', 'jsonpath={.items[*].spec.nodeName}']).split(' ');
  for (const n of nodes) assert.equal(k.ok(['get', 'node', n, '-o', 'jsonpath={.metadata.labels.kubernetes\\.io/os}']), 'linux');
  assert.match(k.ok(['logs', '-n', 'kube-system', 'deploy/coredns']), /^\.:53\n.*\nCoreDNS-1\.12\.0/m);
  // The Service's endpoints are the two coredns pods.
  await eventually(() => k.ok(['get', 'endpointslices', '-n', 'kube-system', '-l', 'kubernetes.io/service-name=kube-dns', '-o', 'jsonpath={.items[*].endpoints[*].addresses[0]}']).split(' ').filter(Boolean).length === 2, 20_000, 'two kube-dns endpoints');
});

test('dig: Service A records, headless endpoints by hostname, ExternalName CNAME, SRV, PTR, TXT', { skip: NO_DIG }, async () => {
  assert.deepEqual(short('kubernetes.default.svc.cluster.local'), ['10.96.0.1']);
  const webIP = k.ok(['get', 'svc', '-n', 'dns-test', 'web', '-o', 'jsonpath={.spec.clusterIP}']);
  assert.deepEqual(short('web.dns-test.svc.cluster.local'), [webIP]);
  await eventually(() => ready('dns-test', 'db-0'), 30_000, 'db-0 Ready');
  const dbIP = k.ok(['get', 'pod', '-n', 'dns-test', 'db-0', '-o', 'jsonpath={.status.podIP}']);
  await eventually(() => short('db.dns-test.svc.cluster.local').join() === dbIP, 10_000, 'headless A');
  assert.deepEqual(short('db-0.db.dns-test.svc.cluster.local'), [dbIP]);
  assert.deepEqual(short(`${dbIP.replace(/\./g, '-')}.dns-test.pod.cluster.local`), [dbIP]);
  assert.deepEqual(short('ext.dns-test.svc.cluster.local'), ['example.com.']);
  assert.deepEqual(short('SRV', '_http._tcp.web.dns-test.svc.cluster.local'), ['0 100 80 web.dns-test.svc.cluster.local.']);
  assert.deepEqual(short('SRV', '_pg._tcp.db.dns-test.svc.cluster.local'), ['0 100 5432 db-0.db.dns-test.svc.cluster.local.']);
  assert.deepEqual(short('-x', '10.96.0.10'), ['kube-dns.kube-system.svc.cluster.local.']);
  assert.deepEqual(short('-x', dbIP), ['db-0.db.dns-test.svc.cluster.local.']);
  assert.deepEqual(short('TXT', 'dns-version.cluster.local'), ['"1.1.0"']);
});

test('dig: NXDOMAIN with the SOA, NODATA, SERVFAIL outside the cluster, TCP, and the header flags', { skip: NO_DIG }, () => {
  const nx = dig('nope.dns-test.svc.cluster.local');
  assert.match(nx, /status: NXDOMAIN/);
  assert.match(nx, /flags: qr aa rd;/);
  assert.match(nx, /cluster\.local\.\s+30\s+IN\s+SOA\s+ns\.dns\.cluster\.local\. hostmaster\.cluster\.local\. \d+ 7200 1800 86400 30/);
  const nodata = dig('AAAA', 'kubernetes.default.svc.cluster.local');
  assert.match(nodata, /status: NOERROR/);
  assert.match(nodata, /ANSWER: 0, AUTHORITY: 1/);
  assert.match(dig('www.example.com'), /status: SERVFAIL/);
  assert.match(dig('+tcp', 'kubernetes.default.svc.cluster.local'), /ANSWER SECTION:\nkubernetes\.default\.svc\.cluster\.local\.\s+30\s+IN\s+A\s+10\.96\.0\.1/);
});

test('a Linux pod resolves kubernetes.default through its search path (ndots:5)', async () => {
  await eventually(() => ready('default', 'lin'), 30_000, 'lin Ready');
  const out = k.ok(['exec', 'lin', '--', 'nslookup', 'kubernetes.default']);
  assert.match(out, /Server:\s+10\.96\.0\.10/);
  assert.match(out, /Name:\s+kubernetes\.default\.svc\.cluster\.local\nAddress: 10\.96\.0\.1/);
});

test('a Windows pod resolves kubernetes and the FQDN but not kubernetes.default (one DNS suffix)', async () => {
  await eventually(() => ready('default', 'win'), 30_000, 'win Ready');
  const ns = k.run(['exec', 'win', '--', 'nslookup', 'kubernetes']);
  assert.equal(ns.code, 0, ns.stderr);
  assert.match(ns.stdout, /Server:\s+kube-dns\.kube-system\.svc\.cluster\.local/);
  assert.match(ns.stdout, /Name:\s+kubernetes\.default\.svc\.cluster\.local\r?\nAddress:\s+10\.96\.0\.1/);
  const fq = k.run(['exec', 'win', '--', 'powershell', '-command', 'Resolve-DnsName kubernetes.default.svc.cluster.local']);
  assert.equal(fq.code, 0, fq.stderr);
  assert.match(fq.stdout, /10\.96\.0\.1/);
  const partial = k.run(['exec', 'win', '--', 'powershell', '-command', 'Resolve-DnsName kubernetes.default']);
  assert.notEqual(partial.code, 0);
  assert.match(partial.stdout + partial.stderr, /Resolve-DnsName : kubernetes\.default : /);
});
