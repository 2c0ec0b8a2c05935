// Issue 10 acceptance, StatefulSets: ordered creation behind a headless Service on Linux, the pods' DNS names from a
// busybox pod, scale-down from the highest ordinal, a partitioned rolling update with `kubectl rollout
// status|history|undo`, and on Windows nodes one PersistentVolumeClaim per replica — the real kubectl against `winkube up`.

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

interface Pod { metadata: { name: string; creationTimestamp: string; labels: Record<string, string> }; spec: { hostname?: string; subdomain?: string; containers: { image: string }[] }; status: { phase?: string } }

const podsOf = (selector: string): Pod[] => JSON.parse(k.ok(['get', 'pods', '-l', selector, '-o', 'json'])).items as Pod[];
const runningNames = (selector: string) => podsOf(selector).filter((p) => p.status.phase === 'Running').map((p) => p.metadata.name).sort();

const WEB = (image: string, replicas = 3) => `apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  clusterIP: None
  selector: { app: web }
  ports: [{ name: http, port: 80 }]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: web }
spec:
  serviceName: web
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers: [{ name: nginx, image: ${image}, ports: [{ containerPort: 80, name: http }] }]
`;

test('a 3-replica StatefulSet with a headless Service comes up in order and resolves its pods', async () => {
  k.ok(['apply', '-f', '-'], WEB('nginx:1.27'));
  await eventually(() => runningNames('app=web').length === 3 || undefined, 60_000, 'three running web pods');
  const pods = podsOf('app=web').sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  assert.deepEqual(pods.map((p) => p.metadata.name), ['web-0', 'web-1', 'web-2']);
  // OrderedReady: each pod was created after the one before it was Running and Ready.
  const created = pods.map((p) => Date.parse(p.metadata.creationTimestamp));
  assert.ok(created[0] <= created[1] && created[1] <= created[2], `creation order ${created}`);
  const events = k.ok(['get', 'events', '--field-selector', 'involvedObject.kind=StatefulSet,involvedObject.name=web', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}']);
  const creates = events.split('\n').filter((l) => l.startsWith('create Pod'));
  assert.deepEqual(creates.slice(0, 3), ['create Pod web-0 in StatefulSet web successful', 'create Pod web-1 in StatefulSet web successful', 'create Pod web-2 in StatefulSet web successful']);
  for (const p of pods) {
    assert.equal(p.spec.hostname, p.metadata.name);
    assert.equal(p.spec.subdomain, 'web');
    assert.equal(p.metadata.labels['statefulset.kubernetes.io/pod-name'], p.metadata.name);
    assert.equal(p.metadata.labels['apps.kubernetes.io/pod-index'], p.metadata.name.slice(4));
    assert.match(p.metadata.labels['controller-revision-hash'], /^web-/);
  }
  const rs = k.run(['rollout', 'status', 'sts/web', '--timeout=60s'], undefined, 90_000);
  assert.equal(rs.code, 0, rs.stderr);
  assert.match(rs.stdout, /partitioned roll out complete: 3 new pods have been updated/);
  const get = k.ok(['get', 'sts', 'web']);
  assert.match(get, /^NAME\s+READY\s+AGE\n/);
  assert.match(get, /\nweb\s+3\/3\s+/);
  assert.match(k.ok(['get', 'sts', 'web', '-o', 'wide']), /^NAME\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\n.*nginx\s+nginx:1\.27/s);

  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: { name: dns-client }
spec:
  nodeSelector: { kubernetes.io/os: linux }
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600']}]
`);
  await eventually(() => runningNames('!app').includes('dns-client') || undefined, 30_000, 'dns-client running');
  const ip = JSON.parse(k.ok(['get', 'pod', 'web-1', '-o', 'json'])).status.podIP as string;
  const out = await eventually(() => {
    const r = k.run(['exec', 'dns-client', '--', 'nslookup', 'web-1.web.default.svc.cluster.local']);
    return r.code === 0 && r.stdout.includes(ip) ? r.stdout : undefined;
  }, 30_000, 'web-1.web resolves to its pod IP');
  assert.match(out, /web-1\.web\.default\.svc\.cluster\.local/);
});

test('kubectl scale sts removes the highest ordinal first', async () => {
  k.ok(['scale', 'sts/web', '--replicas=2']);
  await eventually(() => (podsOf('app=web').map((p) => p.metadata.name).sort().join() === 'web-0,web-1') || undefined, 60_000, 'web-2 gone');
  k.ok(['scale', 'sts/web', '--replicas=3']);
  await eventually(() => runningNames('app=web').length === 3 || undefined, 60_000, 'web-2 back');
});

test('a rolling update with a partition updates only the ordinals at or above it; history and undo work', async () => {
  k.ok(['patch', 'sts', 'web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":1}}}}']);
  k.ok(['set', 'image', 'sts/web', 'nginx=nginx:1.28']);
  const images = await eventually(() => {
    const pods = podsOf('app=web').filter((p) => p.status.phase === 'Running');
    const byName = Object.fromEntries(pods.map((p) => [p.metadata.name, p.spec.containers[0].image]));
    return byName['web-1'] === 'nginx:1.28' && byName['web-2'] === 'nginx:1.28' && Object.keys(byName).length === 3 ? byName : undefined;
  }, 90_000, 'web-1 and web-2 updated');
  assert.equal(images['web-0'], 'nginx:1.27');
  const rs = k.run(['rollout', 'status', 'sts/web', '--timeout=60s'], undefined, 90_000);
  assert.equal(rs.code, 0, rs.stderr);
  assert.match(rs.stdout, /partitioned roll out complete: 2 new pods have been updated/);
  const st = JSON.parse(k.ok(['get', 'sts', 'web', '-o', 'json'])).status;
  assert.notEqual(st.currentRevision, st.updateRevision);
  assert.equal(st.updatedReplicas, 2);

  const hist = k.ok(['rollout', 'history', 'sts/web']);
  assert.match(hist, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);

  k.ok(['patch', 'sts', 'web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}']);
  k.ok(['rollout', 'undo', 'sts/web']);
  await eventually(() => {
    const pods = podsOf('app=web').filter((p) => p.status.phase === 'Running');
    return pods.length === 3 && pods.every((p) => p.spec.containers[0].image === 'nginx:1.27') || undefined;
  }, 120_000, 'undo back to nginx:1.27 everywhere');
  const done = k.run(['rollout', 'status', 'sts/web', '--timeout=60s'], undefined, 90_000);
  assert.equal(done.code, 0, done.stderr);
});

test('StatefulSet update validation: only some fields may change', () => {
  const r = k.run(['patch', 'sts', 'web', '-p', '{"spec":{"serviceName":"other"}}']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden/);
});

test('a StatefulSet on Windows nodes gets one PersistentVolumeClaim per replica', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: iis }
spec:
  serviceName: iis
  replicas: 2
  podManagementPolicy: Parallel
  selector: { matchLabels: { app: iis } }
  template:
    metadata: { labels: { app: iis } }
    spec:
      nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.17763' }
      containers:
      - name: iis
        image: mcr.microsoft.com/windows/servercore:ltsc2019
        command: [powershell, -Command, 'Start-Sleep 3600']
        volumeMounts: [{ name: data, mountPath: 'C:\\data' }]
  volumeClaimTemplates:
  - metadata: { name: data }
    spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`);
  const claims = await eventually(() => {
    const items = JSON.parse(k.ok(['get', 'pvc', '-l', 'app=iis', '-o', 'json'])).items as { metadata: { name: string }; status: { phase?: string } }[];
    return items.length === 2 ? items : undefined;
  }, 90_000, 'two claims');
  assert.deepEqual(claims.map((c) => c.metadata.name).sort(), ['data-iis-0', 'data-iis-1']);
  // Bound once the storage binder and default StorageClass serve them; until then the claims exist (and stay Pending).
  const hasDefaultClass = (JSON.parse(k.ok(['get', 'storageclass', '-o', 'json'])).items as { metadata: { annotations?: Record<string, string> } }[])
    .some((s) => s.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true');
  if (hasDefaultClass) {
    await eventually(() => {
      const items = JSON.parse(k.ok(['get', 'pvc', '-l', 'app=iis', '-o', 'json'])).items as { status: { phase?: string } }[];
      return items.every((c) => c.status.phase === 'Bound') || undefined;
    }, 90_000, 'claims Bound');
    await eventually(() => runningNames('app=iis').length === 2 || undefined, 120_000, 'two running iis pods');
    const pod = JSON.parse(k.ok(['get', 'pod', 'iis-0', '-o', 'json']));
    assert.deepEqual(pod.spec.volumes.find((v: { name: string }) => v.name === 'data').persistentVolumeClaim, { claimName: 'data-iis-0' });
  }
});
