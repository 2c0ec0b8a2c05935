// Issue 10 acceptance, DaemonSets: per-node placement on the default fleet (2 Linux + 3 Windows nodes), a Windows
// HostProcess kube-proxy DaemonSet of the kind sig-windows-tools publishes, a rolling update followed by
// `kubectl rollout status|history|undo|restart`, `kubectl get ds` columns, validation texts and seed 004's
// extensions/v1beta1 DaemonSet refused as a 1.33 cluster refuses it — all with the real kubectl against `winkube up`.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().slice(-1)[0];

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

interface Pod { metadata: { name: string; labels: Record<string, string> }; spec: { nodeName?: string; containers: { image: string }[] }; status: { phase?: string } }

const nodesByOs = (os: string): string[] =>
  (JSON.parse(k.ok(['get', 'nodes', '-l', `kubernetes.io/os=${os}`, '-o', 'json'])).items as { metadata: { name: string } }[]).map((n) => n.metadata.name).sort();
const podsOf = (selector: string, ns = 'default'): Pod[] => JSON.parse(k.ok(['get', 'pods', '-n', ns, '-l', selector, '-o', 'json'])).items as Pod[];
const running = (pods: Pod[]) => pods.filter((p) => p.status.phase === 'Running' && p.spec.nodeName);

const LINUX_DS = (image: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: node-agent }
spec:
  selector: { matchLabels: { app: node-agent } }
  template:
    metadata: { labels: { app: node-agent } }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers: [{ name: agent, image: ${image} }]
`;

test('a Linux DaemonSet runs one pod per Linux node, control plane included only if tolerated', async () => {
  k.ok(['apply', '-f', '-'], LINUX_DS('nginx:1.27'));
  const linux = nodesByOs('linux');
  // The control-plane node's NoSchedule taint is not tolerated: no pod there.
  const schedulable = (JSON.parse(k.ok(['get', 'nodes', '-l', 'kubernetes.io/os=linux', '-o', 'json'])).items as { metadata: { name: string }; spec: { taints?: { effect: string }[] } }[])
    .filter((n) => !(n.spec.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')).map((n) => n.metadata.name).sort();
  assert.ok(linux.length >= 1);
  const pods = await eventually(() => {
    const p = running(podsOf('app=node-agent'));
    return p.length === schedulable.length ? p : undefined;
  }, 30_000, 'one running pod per schedulable Linux node');
  assert.deepEqual(pods.map((p) => p.spec.nodeName).sort(), schedulable);
  for (const p of pods) assert.ok(p.metadata.labels['controller-revision-hash'], 'revision hash label');
  const rs = k.run(['rollout', 'status', 'ds/node-agent', '--timeout=60s'], undefined, 90_000);
  assert.equal(rs.code, 0, rs.stderr);
  assert.match(rs.stdout, /daemon set "node-agent" successfully rolled out/);

  // kubectl get ds: the printer's columns, and -o wide's.
  const out = k.ok(['get', 'ds', 'node-agent']);
  const [header, row] = out.trimEnd().split('\n');
  assert.deepEqual(header.split(/\s{2,}/), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
  const n = String(schedulable.length);
  assert.deepEqual(row.split(/\s+/).slice(0, 7), ['node-agent', n, n, n, n, n, 'kubernetes.io/os=linux']);
  const wide = k.ok(['get', 'ds', 'node-agent', '-o', 'wide']).split('\n')[0];
  assert.match(wide, /CONTAINERS\s+IMAGES\s+SELECTOR/);
  assert.match(k.ok(['get', 'all']), /daemonset\.apps\/node-agent/);
  assert.match(k.ok(['explain', 'ds.spec.updateStrategy']), /KIND:\s+DaemonSet/);
  assert.match(k.ok(['api-resources', '--api-group=apps']), /daemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet/);
});

test('a rolling update completes, and rollout history, undo and restart work', async () => {
  k.ok(['set', 'image', 'ds/node-agent', 'agent=nginx:1.28']);
  const rs = k.run(['rollout', 'status', 'ds/node-agent', '--timeout=90s'], undefined, 120_000);
  assert.equal(rs.code, 0, rs.stderr + rs.stdout);
  assert.match(rs.stdout, /successfully rolled out/);
  await eventually(() => {
    const p = running(podsOf('app=node-agent'));
    return p.length > 0 && p.every((x) => x.spec.containers[0].image === 'nginx:1.28') ? p : undefined;
  }, 30_000, 'every pod on the new image');
  const history = k.ok(['rollout', 'history', 'ds/node-agent']);
  assert.match(history, /REVISION\s+CHANGE-CAUSE/);
  assert.match(history, /^1\s/m);
  assert.match(history, /^2\s/m);
  assert.match(k.ok(['rollout', 'history', 'ds/node-agent', '--revision=1']), /nginx:1\.27/);
  assert.match(k.ok(['get', 'controllerrevisions']), /node-agent-/);

  assert.match(k.ok(['rollout', 'undo', 'ds/node-agent']), /daemonset\.apps\/node-agent rolled back/);
  assert.equal(k.run(['rollout', 'status', 'ds/node-agent', '--timeout=90s'], undefined, 120_000).code, 0);
  await eventually(() => {
    const p = running(podsOf('app=node-agent'));
    return p.length > 0 && p.every((x) => x.spec.containers[0].image === 'nginx:1.27') ? p : undefined;
  }, 30_000, 'pods back on the old image');

  assert.match(k.ok(['rollout', 'restart', 'ds/node-agent']), /daemonset\.apps\/node-agent restarted/);
  assert.equal(k.run(['rollout', 'status', 'ds/node-agent', '--timeout=90s'], undefined, 120_000).code, 0);
  k.ok(['delete', 'ds', 'node-agent']);
});

test('a HostProcess kube-proxy DaemonSet like sig-windows-tools\' runs one pod per Windows node', async () => {
  k.ok(['create', 'namespace', 'kube-proxy-win']);
  k.ok(['apply', '-n', 'kube-proxy-win', '-f', '-'], `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-proxy-windows
  labels: { k8s-app: kube-proxy }
spec:
  selector: { matchLabels: { k8s-app: kube-proxy-windows } }
  template:
    metadata: { labels: { k8s-app: kube-proxy-windows } }
    spec:
      securityContext:
        windowsOptions: { hostProcess: true, runAsUserName: "NT AUTHORITY\\\\system" }
      hostNetwork: true
      containers:
      - name: kube-proxy
        image: sigwindowstools/kube-proxy:v1.33.1-flannel-hostprocess
        env:
        - name: NODE_NAME
          valueFrom: { fieldRef: { apiVersion: v1, fieldPath: spec.nodeName } }
      nodeSelector: { kubernetes.io/os: windows }
      tolerations: [{ key: CriticalAddonsOnly, operator: Exists }, { operator: Exists }]
  updateStrategy: { type: RollingUpdate }
`);
  const windows = nodesByOs('windows');
  const pods = await eventually(() => {
    const p = running(podsOf('k8s-app=kube-proxy-windows', 'kube-proxy-win'));
    return p.length === windows.length ? p : undefined;
  }, 40_000, 'one running kube-proxy pod per Windows node');
  assert.deepEqual(pods.map((p) => p.spec.nodeName).sort(), windows);
  const ds = JSON.parse(k.ok(['get', 'ds', '-n', 'kube-proxy-win', 'kube-proxy-windows', '-o', 'json']));
  assert.equal(ds.status.desiredNumberScheduled, windows.length);
  assert.equal(ds.spec.updateStrategy.rollingUpdate.maxUnavailable, 1);
  assert.equal(ds.metadata.annotations['deprecated.daemonset.template.generation'], '1');
  k.ok(['delete', 'namespace', 'kube-proxy-win', '--wait=false']);
});

test('invalid DaemonSets are refused with kube-apiserver\'s texts, and seed 004\'s extensions/v1beta1 one finds no kind', () => {
  const bad = k.run(['apply', '-f', '-'], `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: bad }
spec:
  selector: { matchLabels: { app: other } }
  template:
    metadata: { labels: { app: bad } }
    spec: { containers: [{ name: c, image: nginx }] }
`);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /The DaemonSet "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{"app":"bad"\}: `selector` does not match template `labels`/);

  // Seed 004's manifest (Kubernetes 1.9 era): the group/version is long gone from a 1.33 server.
  const seed = k.run(['apply', '-f', '-'], `apiVersion: extensions/v1beta1
kind: DaemonSet
metadata:
  name: my-DaemonSet
  labels:
    app: foo
spec:
  template:
    metadata:
      labels:
        app: foo
    spec:
      containers:
      - name: foo
        image: microsoft/windowsservercore:1709
      nodeSelector:
        beta.kubernetes.io/os: windows
`);
  assert.notEqual(seed.code, 0);
  assert.match(seed.stderr, /no matches for kind "DaemonSet" in version "extensions\/v1beta1"/);
});
