// Issue 10 acceptance (storage): PersistentVolumeClaims of kind's default `standard` class through the real kubectl
// against `winkube up` — bound when a pod uses them, files written with `kubectl exec` surviving the pod (Linux and
// Windows) because the scheduler's VolumeBinding sends the recreated pod back to its volume's node, `kubectl get
// pv,pvc,sc` columns, the Delete policy removing the volume with its claim, and a claim in use staying Terminating.

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

const jp = (kind: string, name: string, path: string) => k.ok(['get', kind, name, '-o', `jsonpath={${path}}`]);

const claim = (name: string) => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

function linuxPod(name: string, claimName: string, node?: string): string {
  return `
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeSelector: {${node ? `kubernetes.io/hostname: ${node}` : 'kubernetes.io/os: linux'}}
  containers: [{name: c, image: busybox:1.36, command: [sleep, "3600"], volumeMounts: [{name: data, mountPath: /data}]}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: ${claimName}}}]
`;
}

function windowsPod(name: string, claimName: string, node?: string): string {
  return `
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeSelector: {${node ? `kubernetes.io/hostname: ${node}` : 'node.kubernetes.io/windows-build: "10.0.17763"'}}
  containers: [{name: c, image: mcr.microsoft.com/windows/servercore:ltsc2019, command: [ping, -t, localhost], volumeMounts: [{name: data, mountPath: 'C:\\data'}]}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: ${claimName}}}]
`;
}

const running = (pod: string) => eventually(() => jp('pod', pod, '.status.phase') === 'Running', 40_000, `${pod} Running`);

test('the default class is standard (local-path, WaitForFirstConsumer); a claim waits for its first consumer', async () => {
  const sc = k.ok(['get', 'sc']);
  assert.match(sc.split('\n')[0], /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/);
  assert.match(sc, /standard \(default\)\s+rancher\.io\/local-path\s+Delete\s+WaitForFirstConsumer\s+false\s+\S+/);
  k.ok(['apply', '-f', '-'], claim('waiting'));
  assert.equal(jp('pvc', 'waiting', '.spec.storageClassName'), 'standard');
  assert.equal(jp('pvc', 'waiting', '.spec.volumeMode'), 'Filesystem');
  await eventually(() => /WaitForFirstConsumer\s.*waiting for first consumer to be created before binding/.test(k.ok(['describe', 'pvc', 'waiting'])), 20_000, 'WaitForFirstConsumer event');
  assert.equal(jp('pvc', 'waiting', '.status.phase'), 'Pending');
  const bad = k.run(['apply', '-f', '-'], `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: bad}
spec: {resources: {requests: {storage: 1Gi}}}
`);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /spec\.accessModes: Required value: at least 1 access mode is required/);
});

test('Linux: the claim binds when a pod uses it; a file written with exec survives deleting and recreating the pod', async () => {
  k.ok(['apply', '-f', '-'], claim('lin-data'));
  k.ok(['apply', '-f', '-'], linuxPod('lin-writer', 'lin-data'));
  await running('lin-writer');
  await eventually(() => jp('pvc', 'lin-data', '.status.phase') === 'Bound', 20_000, 'claim Bound');
  const pv = jp('pvc', 'lin-data', '.spec.volumeName');
  assert.equal(pv, `pvc-${jp('pvc', 'lin-data', '.metadata.uid')}`);
  const node = jp('pod', 'lin-writer', '.spec.nodeName');
  assert.equal(jp('pv', pv, '.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]'), node);
  await eventually(() => new RegExp(`ProvisioningSucceeded\\s.*Successfully provisioned volume ${pv}`).test(k.ok(['describe', 'pvc', 'lin-data'])), 20_000, 'ProvisioningSucceeded event');
  k.ok(['exec', 'lin-writer', '--', 'sh', '-c', 'echo persisted > /data/x.txt']);
  k.ok(['delete', 'pod', 'lin-writer', '--wait=true']);
  // Not pinned: VolumeBinding keeps the pod to the nodes the local volume's node affinity admits.
  k.ok(['apply', '-f', '-'], linuxPod('lin-reader', 'lin-data'));
  await running('lin-reader');
  assert.equal(jp('pod', 'lin-reader', '.spec.nodeName'), node);
  assert.equal(k.ok(['exec', 'lin-reader', '--', 'cat', '/data/x.txt']), 'persisted\n');

  const out = k.ok(['get', 'pv,pvc']);
  assert.match(out, /NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE/);
  assert.match(out, new RegExp(`persistentvolume/${pv}\\s+1Gi\\s+RWO\\s+Delete\\s+Bound\\s+default/lin-data\\s+standard\\s+<unset>\\s+\\S+`));
  assert.match(out, /NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE/);
  assert.match(out, new RegExp(`persistentvolumeclaim/lin-data\\s+Bound\\s+${pv}\\s+1Gi\\s+RWO\\s+standard\\s+<unset>\\s+\\S+`));

  // Delete policy: the claim goes, the volume follows.
  k.ok(['delete', 'pod', 'lin-reader', '--wait=true']);
  k.ok(['delete', 'pvc', 'lin-data']);
  await eventually(() => k.run(['get', 'pv', pv]).code !== 0, 20_000, 'volume deleted');
});

test('Windows: a file written under C:\\data survives the pod', async () => {
  k.ok(['apply', '-f', '-'], claim('win-data'));
  k.ok(['apply', '-f', '-'], windowsPod('win-writer', 'win-data'));
  await running('win-writer');
  assert.equal(jp('pvc', 'win-data', '.status.phase'), 'Bound');
  const node = jp('pod', 'win-writer', '.spec.nodeName');
  k.ok(['exec', 'win-writer', '--', 'cmd', '/c', 'echo hello from windows> C:\\data\\x.txt']);
  k.ok(['delete', 'pod', 'win-writer', '--wait=true']);
  k.ok(['apply', '-f', '-'], windowsPod('win-reader', 'win-data'));
  await running('win-reader');
  assert.equal(jp('pod', 'win-reader', '.spec.nodeName'), node);
  assert.match(k.ok(['exec', 'win-reader', '--', 'cmd', '/c', 'type C:\\data\\x.txt']), /hello from windows/);
});

test('a pod whose claim does not exist stays Pending with the scheduler\'s reason', async () => {
  k.ok(['apply', '-f', '-'], linuxPod('no-claim', 'nope'));
  await eventually(() => /persistentvolumeclaim "nope" not found/.test(jp('pod', 'no-claim', '.status.conditions[?(@.type=="PodScheduled")].message')), 20_000, 'FailedScheduling');
  assert.match(jp('pod', 'no-claim', '.status.conditions[?(@.type=="PodScheduled")].message'), /^0\/\d+ nodes are available: persistentvolumeclaim "nope" not found\. preemption: /);
  assert.equal(jp('pod', 'no-claim', '.spec.nodeName'), '');
  k.ok(['delete', 'pod', 'no-claim', '--wait=false']);
});

test('a claim deleted while a pod uses it stays Terminating until the pod goes', async () => {
  k.ok(['apply', '-f', '-'], claim('held'));
  assert.equal(jp('pvc', 'held', '.metadata.finalizers[0]'), 'kubernetes.io/pvc-protection');
  k.ok(['apply', '-f', '-'], linuxPod('holder', 'held'));
  await running('holder');
  const pv = jp('pvc', 'held', '.spec.volumeName');
  assert.equal(jp('pv', pv, '.metadata.finalizers[0]'), 'kubernetes.io/pv-protection');
  k.ok(['delete', 'pvc', 'held', '--wait=false']);
  assert.notEqual(jp('pvc', 'held', '.metadata.deletionTimestamp'), '');
  await new Promise((r) => setTimeout(r, 1500));
  assert.match(k.ok(['get', 'pvc', 'held']), /held\s+Terminating\s/);
  assert.equal(jp('pv', pv, '.status.phase'), 'Bound');
  k.ok(['delete', 'pod', 'holder', '--wait=true']);
  await eventually(() => k.run(['get', 'pvc', 'held']).code !== 0, 20_000, 'claim gone with its pod');
  await eventually(() => k.run(['get', 'pv', pv]).code !== 0, 20_000, 'volume deleted');
});
