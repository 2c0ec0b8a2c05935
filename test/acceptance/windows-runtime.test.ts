// Issue 8 leftovers, black-box with kubectl: LogMonitor brings IIS's log files and event log to `kubectl logs`
// (seed 000/001/003 "Capturing logs from workloads"), port-forward needs wincat in the pause image (seed 001 Q14),
// a HostProcess container sees and controls the node's kubelet service (seed 000 "Node-level troubleshooting" Q2) and
// stopping it turns the node NotReady through the node lifecycle controller,
// and a Linux container over its memory limit is OOMKilled.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url).pathname;
const NEWEST = kubectlBinaries().at(-1)!;
/**
 * kube-controller-manager's --node-monitor-grace-period, short so a stopped kubelet shows quickly; it must stay above
 * the kubelets' 10 s Lease renewal plus the 5 s monitor period, or healthy nodes would flap.
 */
const GRACE = '20s';
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster({ fleet: `${FIXTURES}runtime-behaviours-fleet.yaml`, args: ['--node-monitor-grace-period', GRACE] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const jsonpath = (pod: string, path: string) => k.ok(['get', 'pod', pod, '-o', `jsonpath=${path}`]);
const running = (pod: string) => eventually(() => jsonpath(pod, '{.status.phase}') === 'Running' || undefined, 60_000, `${pod} Running`);

test('LogMonitor: IIS requests reach kubectl logs as File entries; plain IIS prints only ServiceMonitor\'s lines', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: iis-lm}
spec:
  nodeName: win
  containers: [{name: iis, image: docker.io/winkube/iis-logmonitor:ltsc2019}]
---
apiVersion: v1
kind: Pod
metadata: {name: iis-plain}
spec:
  nodeName: win
  containers: [{name: iis, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019}]
`);
  await running('iis-lm');
  await running('iis-plain');
  for (const p of ['iis-lm', 'iis-plain']) k.ok(['exec', p, '--', 'powershell', '-Command', '(Invoke-WebRequest -UseBasicParsing http://localhost/).StatusCode']);
  const logs = await eventually(() => {
    const l = k.ok(['logs', 'iis-lm']);
    return l.includes('"Source": "File"') ? l : undefined;
  }, 30_000, 'a File entry in kubectl logs');
  assert.match(logs, /\{"Source":"Process","LogEntry":\{"Logline":" Service 'w3svc' started"\},"SchemaVersion":"1\.0\.0"\}/);
  assert.match(logs, /"EventSource": "Service Control Manager".*"Message": "The World Wide Web Publishing Service service entered the running state\."/);
  assert.match(logs, /\{"Source": "File","LogEntry": \{"Logline": "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [\d.:]+ GET \/ - 80 - [\d.:]+ \S+ - 200 0 0 0","FileName": "LogFiles\\\\W3SVC1\\\\u_ex\d{6}\.log"\},"SchemaVersion":"1\.0\.0"\}/);
  const plain = k.ok(['logs', 'iis-plain']);
  assert.doesNotMatch(plain, /GET \//);
});

test('port-forward: works through a pause image with wincat, fails with "wincat not found" without it', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: pf-ok}
spec:
  nodeName: win
  containers: [{name: iis, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019}]
---
apiVersion: v1
kind: Pod
metadata: {name: pf-nowincat}
spec:
  nodeName: win-nowincat
  containers: [{name: iis, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019}]
`);
  await running('pf-ok');
  await running('pf-nowincat');
  const forward = async (pod: string) => {
    const proc = k.spawn(['port-forward', `pod/${pod}`, '0:80']);
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const port = await eventually(() => /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out)?.[1], 15_000, 'port-forward listening');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        return { status: res.status, out };
      } catch {
        await new Promise((r) => setTimeout(r, 500));
        return { status: 0, out };
      }
    } finally {
      proc.kill('SIGKILL');
    }
  };
  assert.equal((await forward('pf-ok')).status, 200);
  const bad = await forward('pf-nowincat');
  assert.equal(bad.status, 0);
  assert.match(bad.out, /unable to do port forwarding: wincat not found/);
});

test('HostProcess: Get-Service kubelet and sc.exe query kubelet on the node; a stopped kubelet renews no Lease and the node goes NotReady until it starts again', async () => {
  k.ok(['create', 'namespace', 'hpc']);
  k.ok(['label', 'namespace', 'hpc', 'pod-security.kubernetes.io/enforce=privileged']);
  k.ok(['apply', '-n', 'hpc', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: hpc}
spec:
  nodeName: win
  hostNetwork: true
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: "NT AUTHORITY\\\\SYSTEM"}}
  containers: [{name: shell, image: mcr.microsoft.com/windows/servercore:ltsc2019, command: [ping, -t, localhost]}]
`);
  await eventually(() => k.ok(['get', 'pod', 'hpc', '-n', 'hpc', '-o', 'jsonpath={.status.phase}']) === 'Running' || undefined, 60_000, 'hpc Running');
  const hpc = (cmd: string[]) => k.ok(['exec', '-n', 'hpc', 'hpc', '--', ...cmd]);
  assert.match(hpc(['powershell', '-Command', 'Get-Service kubelet']), /Status {3}Name {15}DisplayName\r?\n------ {3}---- {15}-----------\r?\nRunning {2}kubelet {12}kubelet/);
  assert.match(hpc(['sc.exe', 'query', 'kubelet']), /SERVICE_NAME: kubelet\r?\n {8}TYPE {15}: 10  WIN32_OWN_PROCESS\r?\n {8}STATE {14}: 4  RUNNING/);
  const renewTime = () => k.ok(['get', 'lease', 'win', '-n', 'kube-node-lease', '-o', 'jsonpath={.spec.renewTime}']);
  hpc(['powershell', '-Command', 'Stop-Service kubelet -Force']);
  assert.match(hpc(['sc.exe', 'query', 'kubelet']), /STATE {14}: 1  STOPPED/);
  const stoppedAt = renewTime();
  // Seed 000 "Node-level troubleshooting": with the kubelet stopped the node turns NotReady — the node lifecycle
  // controller finds neither Lease renewals nor status for the grace period and sets every kubelet condition Unknown.
  const nodeStatus = () => /^win\s+(\S+)/m.exec(k.ok(['get', 'node', 'win']))?.[1];
  const ready = () => k.ok(['get', 'node', 'win', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}|{.status.conditions[?(@.type=="Ready")].reason}|{.status.conditions[?(@.type=="Ready")].message}']);
  const taints = () => k.ok(['get', 'node', 'win', '-o', 'jsonpath={range .spec.taints[*]}{.key}:{.effect} {end}']).trim().split(/\s+/).filter((t) => t.startsWith('node.kubernetes.io/')).sort();
  const podReady = () => k.ok(['get', 'pod', 'hpc', '-n', 'hpc', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
  await eventually(() => nodeStatus() === 'NotReady' || undefined, 45_000, 'win NotReady');
  assert.equal(ready(), 'Unknown|NodeStatusUnknown|Kubelet stopped posting node status.');
  assert.equal(renewTime(), stoppedAt, 'no Lease renewal while the kubelet service is stopped');
  assert.match(k.ok(['get', 'node', 'linux']), /^linux\s+Ready\b/m, 'nodes whose kubelet runs stay Ready');
  // The next pass taints it unreachable (NoExecute; NoSchedule from the condition) and marks its pods not Ready.
  await eventually(() => taints().join(',') === 'node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/unreachable:NoSchedule' || undefined, 15_000, 'unreachable taints');
  await eventually(() => podReady() === 'False' || undefined, 15_000, 'hpc not Ready');
  hpc(['powershell', '-Command', 'Start-Service kube-proxy']);
  await eventually(() => renewTime() !== stoppedAt || undefined, 15_000, 'renewals resume');
  await eventually(() => nodeStatus() === 'Ready' || undefined, 15_000, 'win Ready again');
  assert.match(ready(), /^True\|KubeletReady\|/);
  await eventually(() => taints().length === 0 || undefined, 15_000, 'taints removed');
  await eventually(() => podReady() === 'True' || undefined, 15_000, 'hpc Ready again');
});

test('Linux: a container over its memory limit is OOMKilled (exit code 137)', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: oom, annotations: {winkube.io/memory: 512Mi}}
spec:
  nodeName: linux
  restartPolicy: Never
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"], resources: {limits: {memory: 64Mi}}}]
`);
  await eventually(() => jsonpath('oom', '{.status.phase}') === 'Failed' || undefined, 60_000, 'oom Failed');
  assert.equal(jsonpath('oom', '{.status.containerStatuses[0].state.terminated.reason}'), 'OOMKilled');
  assert.equal(jsonpath('oom', '{.status.containerStatuses[0].state.terminated.exitCode}'), '137');
});
