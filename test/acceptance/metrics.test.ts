// Node stats and the Metrics API with the real kubectl, every version on the machine: kubectl top nodes/pods, the
// kubelet's /stats/summary and /metrics/resource through nodes/proxy, and the Windows e2e expectations
// (test/e2e/windows/cpu_limits.go, kubelet_stats.go, metrics.go; windows-facts §7).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS[VERSIONS.length - 1];
const NS = 'metrics';

// cpu_limits.go: PowerShell starting 8 busy-loop jobs under a 500m limit on a Windows node.
const BUSY = 'foreach ($loopnumber in 1..8) { Start-Job -ScriptBlock { $result = 1; foreach ($number in 1..2147483647) { $result = $result * $number } } } ; get-job | wait-job';
const MANIFEST = `apiVersion: v1
kind: Pod
metadata: { name: cpulimit, namespace: ${NS}, labels: { app: cpulimit } }
spec:
  nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.17763 }
  containers:
  - name: busy
    image: registry.k8s.io/e2e-test-images/busybox:1.36.1-1
    command: ["powershell.exe", "-Command", ${JSON.stringify(BUSY)}]
    resources: { limits: { cpu: 500m, memory: 1Gi } }
---
apiVersion: v1
kind: Pod
metadata: { name: statspod, namespace: ${NS}, labels: { app: stats } }
spec:
  nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.17763 }
  initContainers:
  - { name: init, image: registry.k8s.io/e2e-test-images/busybox:1.36.1-1, command: ["powershell.exe", "-Command", "Start-Sleep -Seconds 1"] }
  containers:
  - { name: main, image: registry.k8s.io/e2e-test-images/busybox:1.36.1-1, command: ["powershell.exe", "-Command", "Start-Sleep -Seconds 600"] }
---
apiVersion: v1
kind: Pod
metadata:
  name: linuxhog
  namespace: ${NS}
  labels: { app: hog }
  annotations: { winkube.io/cpu: 750m, winkube.io/memory: 200Mi }
spec:
  nodeSelector: { kubernetes.io/os: linux }
  containers:
  - { name: web, image: nginx:1.27, resources: { limits: { memory: 256Mi } } }
`;

interface PodJson { metadata: { name: string }; spec: { nodeName?: string }; status: { phase?: string } }
interface SummaryJson {
  node: { nodeName: string; systemContainers: { name: string }[]; cpu: { usageNanoCores: number }; memory: Record<string, number | string>; fs: Record<string, number | string>; rlimit?: unknown };
  pods: { podRef: { name: string; namespace: string }; containers: { name: string; cpu: { usageNanoCores: number; usageCoreNanoSeconds: number }; memory: Record<string, number | string>; logs?: { availableBytes: number } }[]; cpu: { usageNanoCores: number; usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } }[];
}

let cluster: RunningCluster;
let k: Kubectl;
const nodeOf: Record<string, string> = {};

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  k.ok(['create', 'namespace', NS]);
  k.ok(['apply', '-f', '-'], MANIFEST);
  const pods = await eventually(() => {
    const list = JSON.parse(k.ok(['get', 'pods', '-n', NS, '-o', 'json'])).items as PodJson[];
    return list.length === 3 && list.every((p) => p.status.phase === 'Running') ? list : undefined;
  }, 30_000, 'the three pods Running');
  for (const p of pods) nodeOf[p.metadata.name] = p.spec.nodeName!;
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const summary = (node: string): SummaryJson => JSON.parse(k.ok(['get', '--raw', `/api/v1/nodes/${node}/proxy/stats/summary`]));

test('kubectl top nodes: every node with CPU and memory, on every kubectl', () => {
  for (const v of VERSIONS) {
    const kv = new Kubectl(v.path, cluster.kubeconfig);
    const out = kv.ok(['top', 'nodes']);
    const [header, ...rows] = out.trim().split('\n');
    // kubectl 1.32 renamed CPU% and MEMORY% to CPU(%) and MEMORY(%).
    assert.match(header, /^NAME\s+CPU\(cores\)\s+CPU\(?%\)?\s+MEMORY\(bytes\)\s+MEMORY\(?%\)?\s*$/, v.version);
    assert.equal(rows.length, 5, `${v.version}:\n${out}`);
    for (const r of rows) assert.match(r, /^\S+\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$/, `${v.version}: ${r}`);
    // Windows Server needs far more memory than Linux for itself (both run no test pod here).
    const mem = (name: RegExp) => Number(/\s(\d+)Mi\s/.exec(rows.find((r) => name.test(r))!)![1]);
    assert.ok(mem(/^winkube-win2022-1\s/) > 3 * mem(/^winkube-control-plane\s/), `${v.version}:\n${out}`);
    const sel = kv.ok(['top', 'nodes', '-l', 'kubernetes.io/os=windows']).trim().split('\n');
    assert.equal(sel.length, 4, v.version);
    kv.dispose();
  }
});

test('kubectl top pods, -A and --containers, on every kubectl', async () => {
  for (const v of VERSIONS) {
    const kv = new Kubectl(v.path, cluster.kubeconfig);
    const out = await eventually(() => {
      const r = kv.run(['top', 'pods', '-n', NS]);
      return r.code === 0 && r.stdout.trim().split('\n').length === 4 ? r.stdout : undefined;
    }, 20_000, `${v.version}: kubectl top pods to list the three pods`);
    const [header, ...rows] = out.trim().split('\n');
    assert.match(header, /^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/, v.version);
    assert.deepEqual(rows.map((r) => r.split(/\s+/)[0]).sort(), ['cpulimit', 'linuxhog', 'statspod'], v.version);
    for (const r of rows) assert.match(r, /^\S+\s+\d+m\s+\d+Mi\s*$/, `${v.version}: ${r}`);
    const hog = rows.find((r) => r.startsWith('linuxhog'))!;
    // 750m and 200Mi declared under a 256Mi limit (more than the limit would be OOMKilled on Linux).
    assert.ok(Number(/\s(\d+)m\s/.exec(hog)![1]) <= 750 && Number(/\s(\d+)Mi/.exec(hog)![1]) <= 256, `${v.version}: ${hog}`);

    const all = kv.ok(['top', 'pods', '-A', '--containers']);
    const [h2, ...r2] = all.trim().split('\n');
    assert.match(h2, /^NAMESPACE\s+POD\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/, v.version);
    assert.ok(r2.some((r) => /^metrics\s+statspod\s+main\s+\d+m\s+\d+Mi/.test(r)), `${v.version}:\n${all}`);
    assert.ok(!r2.some((r) => /\sstatspod\s+init\s/.test(r)), 'a finished init container is not measured');

    const one = kv.ok(['top', 'pod', 'cpulimit', '-n', NS]).trim().split('\n')[1];
    assert.ok(Number(/\s(\d+)m\s/.exec(one)![1]) <= 500, `${v.version}: ${one}`);
    const byLabel = kv.ok(['top', 'pods', '-n', NS, '-l', 'app=hog']).trim().split('\n');
    assert.equal(byLabel.length, 2, v.version);
    const missing = kv.run(['top', 'pod', 'nope', '-n', NS]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /NotFound|not found/, v.version);
    kv.dispose();
  }
});

test('cpu_limits e2e: a Windows pod with a 500m CPU limit never reports more than the limit', async () => {
  const node = nodeOf.cpulimit;
  for (let i = 0; i < 6; i++) {
    const pod = summary(node).pods.find((p) => p.podRef.name === 'cpulimit' && p.podRef.namespace === NS)!;
    const cores = pod.cpu.usageNanoCores * 1e-9;
    assert.ok(cores > 0 && cores <= 0.5, `usage ${cores} cores`);
    // Eight busy loops keep the job object at its CPU maximum: near the limit, not idling.
    assert.ok(cores > 0.45, `usage ${cores} cores`);
    await new Promise((r) => setTimeout(r, 700));
  }
  const metrics = JSON.parse(k.ok(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/namespaces/${NS}/pods/cpulimit`]));
  assert.equal(metrics.kind, 'PodMetrics');
  assert.match(metrics.containers[0].usage.cpu, /^\d+n$|^\d+m$/);
});

test('/stats/summary through nodes/proxy: the fields each OS reports (kubelet_stats and metrics e2e)', () => {
  const win = summary(nodeOf.statspod);
  assert.equal(win.node.nodeName, nodeOf.statspod);
  assert.deepEqual(win.node.systemContainers.map((c) => c.name), ['pods', 'windows-global-commit-memory']);
  assert.equal(win.node.rlimit, undefined);
  assert.ok(!('inodes' in win.node.fs));
  const stats = win.pods.find((p) => p.podRef.name === 'statspod')!;
  assert.deepEqual(stats.containers.map((c) => c.name), ['main'], 'the finished init container is not counted');
  for (const c of stats.containers) {
    assert.deepEqual(Object.keys(c.memory), ['time', 'workingSetBytes'], 'Windows containers report a working set only');
    assert.ok(c.cpu.usageCoreNanoSeconds > 0 && Number(c.memory.workingSetBytes) > 0);
    assert.ok(c.logs && c.logs.availableBytes > 0);
  }
  assert.ok(stats.cpu.usageCoreNanoSeconds > 0 && stats.memory.workingSetBytes > 0);

  const lin = summary(nodeOf.linuxhog);
  assert.deepEqual(lin.node.systemContainers.map((c) => c.name), ['kubelet', 'runtime', 'pods']);
  const hog = lin.pods.find((p) => p.podRef.name === 'linuxhog')!;
  assert.deepEqual(Object.keys(hog.containers[0].memory), ['time', 'availableBytes', 'usageBytes', 'workingSetBytes', 'rssBytes', 'pageFaults', 'majorPageFaults']);
  assert.ok(Number(hog.containers[0].memory.workingSetBytes) <= 256 * 1024 * 1024, 'never above the memory limit');
  assert.ok(hog.cpu.usageNanoCores <= 750e6 && hog.cpu.usageNanoCores > 700e6);
});

test('/metrics/resource and /metrics through nodes/proxy', () => {
  const text = k.ok(['get', '--raw', `/api/v1/nodes/${nodeOf.statspod}/proxy/metrics/resource`]);
  assert.match(text, /^# HELP node_cpu_usage_seconds_total \[STABLE\] Cumulative cpu time consumed by the node in core-seconds$/m);
  assert.match(text, /^# TYPE container_cpu_usage_seconds_total counter$/m);
  const ws = new RegExp(`^pod_memory_working_set_bytes\\{namespace="${NS}",pod="statspod"\\} (\\S+) \\d+$`, 'm').exec(text);
  assert.ok(ws && Number(ws[1]) > 0, 'pod_memory_working_set_bytes for the test pod');
  assert.match(text, new RegExp(`^container_start_time_seconds\\{container="main",namespace="${NS}",pod="statspod"\\} \\S+$`, 'm'));
  assert.match(text, /^resource_scrape_error 0$/m);
  const own = k.ok(['get', '--raw', `/api/v1/nodes/${nodeOf.statspod}/proxy/metrics`]);
  assert.match(own, new RegExp(`^kubelet_node_name\\{node="${nodeOf.statspod}"\\} 1$`, 'm'));
  assert.match(k.ok(['get', '--raw', `/api/v1/nodes/${nodeOf.linuxhog}/proxy/metrics/cadvisor`]), /^machine_cpu_cores 4$/m);
});

test('the Metrics API is discoverable and serves tables to kubectl get', () => {
  assert.match(k.ok(['api-resources', '--api-group=metrics.k8s.io']), /^pods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics$/m);
  const table = k.ok(['get', 'nodes.metrics.k8s.io']);
  assert.match(table.split('\n')[0], /^NAME\s+CPU\s+MEMORY\s+WINDOW\s*$/);
  assert.equal(table.trim().split('\n').length, 6);
  const list = JSON.parse(k.ok(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=kubernetes.io%2Fos%3Dlinux']));
  assert.deepEqual(list.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['winkube-control-plane', 'winkube-worker']);
  assert.match(list.items[0].usage.memory, /^\d+(Ki|Mi)?$/);
  assert.match(list.items[0].window, /^\d+(\.\d+)?s$/);
});
