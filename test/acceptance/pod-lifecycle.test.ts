// Issue 8 acceptance: what the emulated kubelet does with a pod, seen through kubectl against `winkube up` — probes
// (the docs' agnhost liveness example), readiness, the Windows security-context e2e checks, and config errors.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const events = (pod: string) => k.ok(['get', 'events', '--field-selector', `involvedObject.name=${pod}`, '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
const jsonpath = (pod: string, path: string) => k.ok(['get', 'pod', pod, '-o', `jsonpath={${path}}`]);

test('liveness HTTP probe (docs example, agnhost liveness): Unhealthy, Killing, then a restart', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: liveness-http}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers:
  - name: liveness
    image: registry.k8s.io/e2e-test-images/agnhost:2.40
    args: [liveness]
    livenessProbe: {httpGet: {path: /healthz, port: 8080}, initialDelaySeconds: 3, periodSeconds: 3}
`);
  await eventually(() => Number(jsonpath('liveness-http', '.status.containerStatuses[0].restartCount')) >= 1, 40_000, 'a liveness restart');
  const ev = events('liveness-http');
  assert.match(ev, /Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500/);
  assert.match(ev, /Killing: Container liveness failed liveness probe, will be restarted/);
});

test('readiness: a probe on a port nothing serves keeps the pod unready', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: half-ready}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers:
  - {name: web, image: nginx, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 1}}
  - {name: bad, image: nginx, readinessProbe: {tcpSocket: {port: 8081}, periodSeconds: 1}}
`);
  await eventually(() => jsonpath('half-ready', '.status.containerStatuses[?(@.name=="web")].ready') === 'true', 20_000, 'web ready');
  assert.equal(jsonpath('half-ready', '.status.containerStatuses[?(@.name=="bad")].ready'), 'false');
  assert.match(k.ok(['get', 'pod', 'half-ready']), /half-ready\s+1\/2\s+Running/);
  await eventually(() => /Readiness probe failed: dial tcp [\d.]+:8081: connect: connection refused/.test(events('half-ready')), 20_000, 'Unhealthy event');
});

test('Windows security context (e2e security_context.go): runAsNonRoot with ContainerAdministrator, an unknown user', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: win-nonroot}
spec:
  nodeSelector: {kubernetes.io/os: windows}
  securityContext: {runAsNonRoot: true, windowsOptions: {runAsUserName: ContainerAdministrator}}
  containers: [{name: c, image: registry.k8s.io/e2e-test-images/nonroot:1.4}]
---
apiVersion: v1
kind: Pod
metadata: {name: win-baduser}
spec:
  restartPolicy: Never
  nodeSelector: {kubernetes.io/os: windows}
  securityContext: {windowsOptions: {runAsUserName: ContainerUser}}
  containers: [{name: c, image: registry.k8s.io/e2e-test-images/nonroot:1.4, securityContext: {windowsOptions: {runAsUserName: FooLish}}}]
`);
  await eventually(() => jsonpath('win-nonroot', '.status.containerStatuses[0].state.waiting.reason') === 'CreateContainerConfigError', 20_000, 'config error');
  assert.match(events('win-nonroot'), /Failed: Error: container's runAsUserName \(ContainerAdministrator\) which will be regarded as root identity and will break non-root policy \(pod: "win-nonroot_default\([0-9a-f-]+\)", container: c\)/);
  await eventually(() => jsonpath('win-baduser', '.status.phase') === 'Failed', 20_000, 'pod failed');
  assert.equal(jsonpath('win-baduser', '.status.containerStatuses[0].state.terminated.reason'), 'StartError');
  assert.match(jsonpath('win-baduser', '.status.containerStatuses[0].state.terminated.message'), /The user name or password is incorrect\./);
});

test('a missing Secret key is CreateContainerConfigError until the Secret appears', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: needs-secret}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers: [{name: c, image: nginx, env: [{name: PASSWORD, valueFrom: {secretKeyRef: {name: mysecret, key: password}}}]}]
`);
  await eventually(() => jsonpath('needs-secret', '.status.containerStatuses[0].state.waiting.message') === 'secret "mysecret" not found', 20_000, 'config error');
  k.ok(['create', 'secret', 'generic', 'mysecret', '--from-literal=password=s3cret']);
  await eventually(() => jsonpath('needs-secret', '.status.phase') === 'Running', 20_000, 'running once the Secret exists');
});
