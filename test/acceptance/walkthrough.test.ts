// Issue 2 acceptance: the seed walkthrough ("Getting Started: Deploying a Windows container", seed 000) with the real
// kubectl, every version on the machine, against a cluster started the way the README starts it.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const MANIFEST = new URL('../../../test/fixtures/win-webserver.yaml', import.meta.url).pathname;
const VERSIONS = kubectlBinaries();
const NEWEST = VERSIONS[VERSIONS.length - 1];

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

interface PodJson { metadata: { name: string }; spec: { nodeName?: string }; status: { phase?: string; podIP?: string; containerStatuses?: { ready: boolean; imageID?: string; containerID?: string; started?: boolean }[] } }

function ipInCidr(ip: string, cidr: string): boolean {
  const toInt = (s: string) => s.split('.').reduce((n, p) => n * 256 + Number(p), 0);
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toInt(ip) / size) === Math.floor(toInt(base) / size);
}

test('kubectl get nodes -o wide lists the default fleet, all Ready, with kube-apiserver columns', () => {
  for (const v of VERSIONS) {
    const k = new Kubectl(v.path, cluster.kubeconfig);
    const out = k.ok(['get', 'nodes', '-o', 'wide']);
    const [header, ...rows] = out.trim().split('\n');
    assert.match(header, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME$/, v.version);
    assert.equal(rows.length, 5, v.version);
    for (const r of rows) assert.match(r, /\sReady\s/, `${v.version}: ${r}`);
    assert.match(rows.find((r) => r.includes('control-plane'))!, /^\S+\s+Ready\s+control-plane\s/);
    const ws2019 = rows.filter((r) => r.includes('Windows Server 2019 Datacenter'));
    assert.equal(ws2019.length, 2, v.version);
    for (const r of ws2019) assert.match(r, /\s10\.0\.17763\.\d+\s+containerd:\/\/1\.7\.\d+$/);
    assert.match(rows.find((r) => r.includes('Windows Server 2022 Datacenter'))!, /\s10\.0\.20348\.\d+\s+containerd:\/\/1\.7\.\d+$/);
    k.dispose();
  }
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const nodes = JSON.parse(k.ok(['get', 'nodes', '-o', 'json'])).items as { metadata: { name: string; labels: Record<string, string> }; spec: { taints?: { key: string; effect: string }[] } }[];
  for (const n of nodes) {
    const l = n.metadata.labels;
    assert.equal(l['kubernetes.io/hostname'], n.metadata.name);
    assert.equal(l['kubernetes.io/arch'], 'amd64');
    assert.equal(l['beta.kubernetes.io/arch'], 'amd64');
    assert.equal(l['beta.kubernetes.io/os'], l['kubernetes.io/os']);
    if (l['kubernetes.io/os'] === 'windows') assert.match(l['node.kubernetes.io/windows-build'], /^10\.0\.(17763|20348)$/);
  }
  const cp = nodes.find((n) => 'node-role.kubernetes.io/control-plane' in n.metadata.labels)!;
  assert.deepEqual(cp.spec.taints?.map((t) => `${t.key}:${t.effect}`), ['node-role.kubernetes.io/control-plane:NoSchedule']);
  k.dispose();
});

test('seed walkthrough: apply, watch pods to Running on Windows nodes, service, endpoints, apply again unchanged', async () => {
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const watch = k.spawn(['get', 'pods', '-o', 'wide', '-w']);
  let watched = '';
  watch.stdout!.on('data', (d: Buffer) => (watched += d.toString()));
  try {
    await new Promise((r) => setTimeout(r, 500));
    const applied = k.ok(['apply', '-f', MANIFEST]);
    assert.match(applied, /service\/win-webserver created/);
    assert.match(applied, /deployment\.apps\/win-webserver created/);
    const pods = await eventually(() => {
      const list = JSON.parse(k.ok(['get', 'pods', '-l', 'app=win-webserver', '-o', 'json'])).items as PodJson[];
      return list.length === 2 && list.every((p) => p.status.phase === 'Running' && p.status.containerStatuses?.[0]?.ready) ? list : undefined;
    }, 20_000, 'both win-webserver pods Running and Ready');
    const nodes = JSON.parse(k.ok(['get', 'nodes', '-o', 'json'])).items as { metadata: { name: string; labels: Record<string, string> }; spec: { podCIDR: string } }[];
    for (const p of pods) {
      const node = nodes.find((n) => n.metadata.name === p.spec.nodeName)!;
      assert.equal(node.metadata.labels['kubernetes.io/os'], 'windows');
      assert.ok(ipInCidr(p.status.podIP!, node.spec.podCIDR), `${p.status.podIP} in ${node.spec.podCIDR}`);
      const cs = p.status.containerStatuses![0];
      assert.match(cs.imageID!, /^mcr\.microsoft\.com\/windows\/servercore@sha256:[0-9a-f]{64}$/);
      assert.match(cs.containerID!, /^containerd:\/\/[0-9a-f]{64}$/);
    }
    // The watch streamed the pods through their phases to Running 1/1.
    await eventually(() => (watched.match(/\s1\/1\s+Running\s/g) ?? []).length >= 2, 10_000, 'watch to show both pods Running');
    assert.match(watched, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/m);
    assert.match(watched, /\s0\/1\s+(Pending|ContainerCreating)\s/);

    const svc = JSON.parse(k.ok(['get', 'svc', 'win-webserver', '-o', 'json']));
    assert.ok(ipInCidr(svc.spec.clusterIP, '10.96.0.0/12'), svc.spec.clusterIP);
    const nodePort = svc.spec.ports[0].nodePort as number;
    assert.ok(nodePort >= 30000 && nodePort <= 32767, String(nodePort));
    assert.match(k.ok(['get', 'svc', 'win-webserver']), new RegExp(`win-webserver\\s+NodePort\\s+${svc.spec.clusterIP.replace(/\./g, '\\.')}\\s+<none>\\s+80:${nodePort}/TCP\\s`));
    const ips = pods.map((p) => p.status.podIP!).sort();
    await eventually(() => {
      const ep = JSON.parse(k.ok(['get', 'endpoints', 'win-webserver', '-o', 'json']));
      const got = (ep.subsets?.[0]?.addresses ?? []).map((a: { ip: string }) => a.ip).sort();
      return JSON.stringify(got) === JSON.stringify(ips);
    }, 10_000, 'endpoints to list both pod IPs');
    const slices = JSON.parse(k.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=win-webserver', '-o', 'json'])).items;
    const sliceIps = slices.flatMap((s: { endpoints: { addresses: string[] }[] }) => s.endpoints.flatMap((e) => e.addresses)).sort();
    assert.deepEqual(sliceIps, ips);
    const again = k.ok(['apply', '-f', MANIFEST]);
    assert.match(again, /service\/win-webserver unchanged/);
    assert.match(again, /deployment\.apps\/win-webserver unchanged/);
  } finally {
    watch.kill();
    k.dispose();
  }
});

test('scaling the ltsc2019 seed Deployment past two replicas puts one on the WS2022 node, whose pull fails as on a real cluster', async () => {
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  try {
    // Default topology spreading (hostname, ScheduleAnyway) outweighs ImageLocality once both 2019 nodes hold a replica.
    k.ok(['scale', 'deployment', 'win-webserver', '--replicas=3']);
    const failing = await eventually(() => {
      const pods = JSON.parse(k.ok(['get', 'pods', '-l', 'app=win-webserver', '-o', 'json'])).items as (PodJson & { status: { containerStatuses?: { state?: { waiting?: { reason?: string } } }[] } })[];
      return pods.find((p) => ['ErrImagePull', 'ImagePullBackOff'].includes(p.status.containerStatuses?.[0]?.state?.waiting?.reason ?? ''));
    }, 20_000, 'a replica failing its image pull');
    assert.equal(failing.spec.nodeName, 'winkube-win2022-1');
    const events = k.ok(['get', 'events', '--field-selector', `involvedObject.name=${failing.metadata.name},reason=Failed`, '-o', 'jsonpath={.items[*].message}']);
    // containerd's platform matcher (windows-facts §3.5): a 10.0.17763-only image has no match on a 10.0.20348 host.
    assert.match(events, /Failed to pull image "mcr\.microsoft\.com\/windows\/servercore:ltsc2019": .*no match for platform in manifest: not found/);
    k.ok(['scale', 'deployment', 'win-webserver', '--replicas=2']);
  } finally {
    k.dispose();
  }
});

test('server-side apply conflicts with a field another manager changed, and --force-conflicts takes it over', () => {
  const k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const manifest = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ssa-web }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: ssa-web } }
  template:
    metadata: { labels: { app: ssa-web } }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers: [{ name: web, image: nginx:1.27 }]
`;
  try {
    assert.match(k.ok(['apply', '--server-side', '-f', '-'], manifest(1)), /deployment.apps\/ssa-web serverside-applied/);
    k.ok(['scale', 'deployment', 'ssa-web', '--replicas=3']);
    const conflict = k.run(['apply', '--server-side', '-f', '-'], manifest(2));
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "[^"]+" with subresource "scale" using apps\/v1: \.spec\.replicas/);
    k.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], manifest(2));
    assert.equal(JSON.parse(k.ok(['get', 'deployment', 'ssa-web', '-o', 'json'])).spec.replicas, 2);
    k.ok(['delete', 'deployment', 'ssa-web']);
  } finally {
    k.dispose();
  }
});

test('every kubectl version: apply, describe, scale, rollout status, label, annotate, edit, events, explain, delete', () => {
  const editorDir = mkdtempSync(join(tmpdir(), 'winkube-editor-'));
  const editor = join(editorDir, 'editor.sh');
  // kubectl edit runs $KUBE_EDITOR <file>; this "user" bumps the replica count.
  writeFileSync(editor, '#!/bin/sh\nsed -i -e "s/^  replicas: [0-9]*/  replicas: 3/" "$1"\n');
  chmodSync(editor, 0o755);
  for (const v of VERSIONS) {
    const ns = `kubectl-${v.version.replace('.', '-')}`;
    const k = new Kubectl(v.path, cluster.kubeconfig);
    const at = (args: string[]) => k.ok([...args, '-n', ns]);
    k.ok(['create', 'namespace', ns]);
    assert.match(at(['apply', '-f', MANIFEST]), /deployment\.apps\/win-webserver created/, v.version);
    assert.match(at(['rollout', 'status', 'deployment/win-webserver', '--timeout=30s']), /deployment "win-webserver" successfully rolled out/, v.version);
    const pod = at(['get', 'pods', '-l', 'app=win-webserver', '-o', 'name']).trim().split('\n')[0];
    const described = at(['describe', pod]);
    assert.match(described, /Status:\s+Running/, v.version);
    assert.match(described, /Node-Selectors:\s+kubernetes.io\/os=windows/, v.version);
    assert.match(described, /Successfully assigned/, v.version);
    // Pin the Deployment to Windows Server 2019 nodes, as seed 000 "Handling multiple Windows versions" advises for
    // build-specific images: a rolling update, then four replicas that can only land on 10.0.17763 nodes.
    assert.match(at(['patch', 'deployment', 'win-webserver', '-p', '{"spec":{"template":{"spec":{"nodeSelector":{"node.kubernetes.io/windows-build":"10.0.17763"}}}}}']), /patched/, v.version);
    assert.match(at(['rollout', 'status', 'deployment/win-webserver', '--timeout=30s']), /successfully rolled out/, v.version);
    assert.match(at(['scale', 'deployment', 'win-webserver', '--replicas=4']), /deployment.apps\/win-webserver scaled/, v.version);
    assert.match(at(['rollout', 'status', 'deployment/win-webserver', '--timeout=30s']), /successfully rolled out/, v.version);
    assert.match(at(['get', 'deployment', 'win-webserver']), /win-webserver\s+4\/4\s+4\s+4\s/, v.version);
    assert.match(at(['label', 'deployment', 'win-webserver', 'tier=web']), /labeled/, v.version);
    assert.match(at(['annotate', 'deployment', 'win-webserver', 'owner=team-windows']), /annotated?\n/, v.version);
    const r = k.run(['edit', 'deployment', 'win-webserver', '-n', ns], undefined, 30_000, { KUBE_EDITOR: editor });
    assert.equal(r.code, 0, `${v.version} edit: ${r.stderr}`);
    assert.match(r.stdout, /deployment.apps\/win-webserver edited/, v.version);
    const dep = JSON.parse(at(['get', 'deployment', 'win-webserver', '-o', 'json']));
    assert.equal(dep.spec.replicas, 3, v.version);
    assert.equal(dep.metadata.labels.tier, 'web');
    assert.equal(dep.metadata.annotations.owner, 'team-windows');
    assert.match(at(['get', 'events']), /ScalingReplicaSet/, v.version);
    assert.match(k.ok(['explain', 'pod.spec.os']), /FIELD:\s+os <PodOS>|RESOURCE:\s+os <Object>/, v.version);
    assert.match(at(['delete', '-f', MANIFEST]), /deployment.apps "win-webserver" deleted/, v.version);
    k.ok(['delete', 'namespace', ns, '--wait=false']);
    k.dispose();
  }
});
