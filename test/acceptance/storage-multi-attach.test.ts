// Issue 10 acceptance, the single-node rule of ReadWriteOnce disks with the real kubectl against `winkube up`: a pod
// on a second Windows node waits while the disk is attached to the first (`kubectl describe pod` shows the
// attach/detach controller's Multi-Attach warning), and runs with the first pod's files once that pod is deleted.
// A local-path claim whose pod bypasses the scheduler (spec.nodeName) stays Pending, as on kind.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster({ fleet: join(ROOT, 'test', 'fixtures', 'csi-storage-fleet.yaml') });
});
after(async () => {
  await cluster?.stop();
});

const pod = (name: string, node: string, claim: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  nodeSelector: { kubernetes.io/hostname: ${node} }
  containers:
  - name: app
    image: mcr.microsoft.com/windows/servercore:ltsc2022
    command: [powershell, -Command, 'Start-Sleep 3600']
    volumeMounts: [{ name: data, mountPath: 'C:\\data' }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: ${claim} } }]
`;

for (const { version, path } of kubectlEnds()) {
  const v = version.replace(/\D/g, '');
  test(`kubectl ${version}: a ReadWriteOnce disk in use on w2022-1 waits on w2022-2 with the Multi-Attach warning, then moves`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const claim = `rwo-${v}`;
      k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: ${claim} }
spec: { storageClassName: managed-csi, accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`);
      k.ok(['apply', '-f', '-'], pod(`first-${v}`, 'w2022-1', claim));
      await eventually(() => k.run(['get', 'pod', `first-${v}`, '-o', 'jsonpath={.status.phase}']).stdout === 'Running' || undefined, 90_000, 'first Running');
      k.ok(['exec', `first-${v}`, '--', 'cmd', '/c', 'echo from-w2022-1> C:\\data\\note.txt']);
      const pv = k.ok(['get', 'pvc', claim, '-o', 'jsonpath={.spec.volumeName}']);

      k.ok(['apply', '-f', '-'], pod(`second-${v}`, 'w2022-2', claim));
      const described = await eventually(() => {
        const out = k.ok(['describe', 'pod', `second-${v}`]);
        return out.includes('FailedAttachVolume') ? out : undefined;
      }, 30_000, 'FailedAttachVolume in describe');
      assert.match(described, new RegExp(`^\\s+Warning\\s+FailedAttachVolume\\s+\\S+\\s+attachdetach-controller\\s+Multi-Attach error for volume "${pv}" Volume is already used by pod\\(s\\) first-${v}$`, 'm'));
      assert.match(described, /^Status:\s+Pending$/m);

      k.ok(['delete', 'pod', `first-${v}`, '--grace-period=0', '--force']);
      await eventually(() => k.run(['get', 'pod', `second-${v}`, '-o', 'jsonpath={.status.phase}']).stdout === 'Running' || undefined, 90_000, 'second Running');
      assert.match(k.ok(['exec', `second-${v}`, '--', 'cmd', '/c', 'type C:\\data\\note.txt']), /^from-w2022-1\s*$/);
      const vas = k.ok(['get', 'volumeattachment', '-o', `jsonpath={range .items[?(@.spec.source.persistentVolumeName=="${pv}")]}{.spec.nodeName}{"\\n"}{end}`]);
      assert.equal(vas.trim(), 'w2022-2');
      assert.match(k.ok(['describe', 'pod', `second-${v}`]), new RegExp(`Normal\\s+SuccessfulAttachVolume\\s+\\S+\\s+attachdetach-controller\\s+AttachVolume.Attach succeeded for volume "${pv}"`));
      k.ok(['delete', 'pod', `second-${v}`, '--grace-period=0', '--force']);
    } finally {
      k.dispose();
    }
  });

  test(`kubectl ${version}: a local-path claim used by a pod with spec.nodeName stays Pending (kind's provisioner waits for the scheduler)`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: lp-${v} }
spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
---
apiVersion: v1
kind: Pod
metadata: { name: pinned-${v} }
spec:
  nodeName: linux
  containers: [{ name: app, image: busybox, command: [sleep, '3600'], volumeMounts: [{ name: d, mountPath: /data }] }]
  volumes: [{ name: d, persistentVolumeClaim: { claimName: lp-${v} } }]
`);
      const described = await eventually(() => {
        const out = k.ok(['describe', 'pvc', `lp-${v}`]);
        return out.includes('WaitForFirstConsumer') ? out : undefined;
      }, 30_000, 'WaitForFirstConsumer on the claim');
      assert.match(described, /^StorageClass:\s+standard$/m);
      assert.match(described, /^Status:\s+Pending$/m);
      assert.match(described, /Normal\s+WaitForFirstConsumer\s+\S+\s+persistentvolume-controller\s+waiting for first consumer to be created before binding/);
      // The pod's kubelet cannot mount an unbound claim: the populator's error, not a volume of its own.
      await eventually(() => k.ok(['describe', 'pod', `pinned-${v}`]).includes(`PVC default/lp-${v} has non-bound phase ("Pending")`) || undefined, 30_000, 'the kubelet\'s unbound-claim event');
      assert.equal(k.ok(['get', 'pvc', `lp-${v}`, '-o', 'jsonpath={.metadata.annotations.volume\\.kubernetes\\.io/selected-node}']), '');
      assert.equal(k.ok(['get', 'pvc', `lp-${v}`, '-o', 'jsonpath={.status.phase}']), 'Pending');
      k.ok(['delete', 'pod', `pinned-${v}`, '--grace-period=0', '--force']);
    } finally {
      k.dispose();
    }
  });
}
