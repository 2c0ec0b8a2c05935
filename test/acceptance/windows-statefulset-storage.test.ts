// Issue 10 acceptance: a StatefulSet with a PersistentVolumeClaim per replica on Windows nodes through the default
// StorageClass, with the real kubectl against `winkube up`: each replica writes its own file under C:\data through
// `kubectl exec` (cmd in one, PowerShell in the other), a deleted replica comes back with the same claim and its
// file, and the claims outlive a scale-down (the default PVC retention policy, Retain/Retain).

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

const phase = (pod: string) => k.run(['get', 'pod', pod, '-o', 'jsonpath={.status.phase}']).stdout;

test('each Windows replica keeps its own file on its own claim across a pod delete', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: winsts }
spec:
  serviceName: winsts
  replicas: 2
  selector: { matchLabels: { app: winsts } }
  template:
    metadata: { labels: { app: winsts } }
    spec:
      nodeSelector: { kubernetes.io/os: windows }
      containers:
      - name: app
        image: mcr.microsoft.com/windows/servercore:ltsc2019
        command: [powershell, -Command, 'Start-Sleep 3600']
        volumeMounts: [{ name: data, mountPath: 'C:\\data' }]
  volumeClaimTemplates:
  - metadata: { name: data }
    spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`);
  await eventually(() => (phase('winsts-0') === 'Running' && phase('winsts-1') === 'Running') || undefined, 120_000, 'two running replicas');
  const claims = JSON.parse(k.ok(['get', 'pvc', '-l', 'app=winsts', '-o', 'json'])).items as { metadata: { name: string }; spec: { storageClassName: string; volumeName: string }; status: { phase: string } }[];
  assert.deepEqual(claims.map((c) => c.metadata.name).sort(), ['data-winsts-0', 'data-winsts-1']);
  for (const c of claims) {
    assert.equal(c.status.phase, 'Bound');
    assert.equal(c.spec.storageClassName, 'standard');
  }
  assert.notEqual(claims[0].spec.volumeName, claims[1].spec.volumeName);

  // One file per replica, through the two Windows shells.
  k.ok(['exec', 'winsts-0', '--', 'cmd', '/c', 'echo replica-0> C:\\data\\who.txt']);
  k.ok(['exec', 'winsts-1', '--', 'powershell', '-Command', 'Set-Content -Path C:\\data\\who.txt -Value replica-1']);
  assert.equal(k.ok(['exec', 'winsts-1', '--', 'cmd', '/c', 'type C:\\data\\who.txt']).trim(), 'replica-1');

  // winsts-1 is deleted; the controller recreates it with the same claim, and the file is there.
  const uid = k.ok(['get', 'pod', 'winsts-1', '-o', 'jsonpath={.metadata.uid}']);
  k.ok(['delete', 'pod', 'winsts-1', '--wait=false']);
  await eventually(() => (k.run(['get', 'pod', 'winsts-1', '-o', 'jsonpath={.metadata.uid}']).stdout !== uid && phase('winsts-1') === 'Running') || undefined, 120_000, 'the recreated winsts-1');
  const vol = JSON.parse(k.ok(['get', 'pod', 'winsts-1', '-o', 'json'])).spec.volumes.find((v: { name: string }) => v.name === 'data');
  assert.deepEqual(vol.persistentVolumeClaim, { claimName: 'data-winsts-1' });
  assert.equal(k.ok(['exec', 'winsts-1', '--', 'powershell', '-Command', 'Get-Content C:\\data\\who.txt']).trim(), 'replica-1');
  assert.equal(k.ok(['exec', 'winsts-0', '--', 'cmd', '/c', 'type C:\\data\\who.txt']).trim(), 'replica-0');

  // Scale to 1: the pod goes, its claim stays (whenScaled: Retain), and scaling back finds the file again.
  k.ok(['scale', 'sts', 'winsts', '--replicas=1']);
  await eventually(() => k.run(['get', 'pod', 'winsts-1']).code !== 0 || undefined, 60_000, 'winsts-1 gone');
  assert.equal(k.ok(['get', 'pvc', 'data-winsts-1', '-o', 'jsonpath={.status.phase}']), 'Bound');
  k.ok(['scale', 'sts', 'winsts', '--replicas=2']);
  await eventually(() => phase('winsts-1') === 'Running' || undefined, 120_000, 'winsts-1 back');
  assert.equal(k.ok(['exec', 'winsts-1', '--', 'cmd', '/c', 'type C:\\data\\who.txt']).trim(), 'replica-1');
});
