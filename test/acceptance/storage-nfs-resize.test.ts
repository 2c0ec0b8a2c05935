// Seed-coverage rows 63 (NFS volumes are not supported on Windows nodes) and 64 (a mounted volume cannot be expanded
// on Windows) with the real kubectl, oldest and newest, against `winkube up`: NFS on Linux and on Windows kubelets of
// both eras (src/node/volumes/network-volumes.ts), online expansion of a CSI claim through csi-proxy on a current
// Windows node and its refusal on a v1.22 one (src/node/volumes/online-expansion.ts), and a WaitForFirstConsumer claim
// whose pod sets spec.nodeName, which kube leaves Pending (the scheduler never selects a node for it).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const KUBECTLS = kubectlEnds();

let cluster: RunningCluster;
const clients = new Map<string, Kubectl>();
before(async () => {
  cluster = await startCluster({ fleet: join(ROOT, 'test', 'fixtures', 'storage-nfs-resize-fleet.yaml') });
  for (const b of KUBECTLS) clients.set(b.version, new Kubectl(b.path, cluster.kubeconfig));
});
after(async () => {
  for (const k of clients.values()) k.dispose();
  await cluster?.stop();
});

const tag = (version: string) => version.replace(/\D/g, '');
const phase = (k: Kubectl, pod: string) => k.run(['get', 'pod', pod, '-o', 'jsonpath={.status.phase}']).stdout;
const eventsOf = (k: Kubectl, name: string) => k.ok(['get', 'events', '--field-selector', `involvedObject.name=${name}`, '-o', 'jsonpath={range .items[*]}{.reason}{"\\t"}{.source.component}{"\\t"}{.message}{"\\n"}{end}']);
const WIN_CMD = "[powershell, -Command, 'Start-Sleep 3600']";
const pod = (name: string, node: string, image: string, cmd: string, mountPath: string, volume: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  nodeName: ${node}
  containers:
  - { name: app, image: '${image}', command: ${cmd}, volumeMounts: [{ name: d, mountPath: '${mountPath}' }] }
  volumes: [{ name: d, ${volume} }]
`;

for (const { version } of KUBECTLS) {
  const t = tag(version);
  const k = () => clients.get(version)!;

  test(`kubectl ${version}: NFS mounts on Linux, fails SetUp on a v1.33 Windows kubelet, is skipped by a v1.19 one`, async () => {
    const nfs = 'nfs: { server: nfs.example, path: /exports }';
    k().ok(['apply', '-f', '-'], [
      pod(`nfs-lin-${t}`, 'linux', 'busybox:1.36', '[sleep, "3600"]', '/data', nfs),
      pod(`nfs-win-${t}`, 'w2022', 'mcr.microsoft.com/windows/servercore:ltsc2022', WIN_CMD, 'C:\\data', nfs),
      pod(`nfs-v119-${t}`, 'w2019-v119', 'mcr.microsoft.com/windows/servercore:ltsc2019', WIN_CMD, 'C:\\data', nfs),
    ].join('---\n'));
    await eventually(() => (phase(k(), `nfs-lin-${t}`) === 'Running' && phase(k(), `nfs-v119-${t}`) === 'Running') || undefined, 60_000, 'the Linux and v1.19 pods running');
    // The export is shared storage: what one Linux pod writes, the next one reads.
    k().ok(['exec', `nfs-lin-${t}`, '--', 'sh', '-c', `echo from-${t} > /data/f-${t}`]);
    assert.match(k().ok(['exec', `nfs-lin-${t}`, '--', 'cat', `/data/f-${t}`]), new RegExp(`^from-${t}\\s*$`));
    const uid = k().ok(['get', 'pod', `nfs-win-${t}`, '-o', 'jsonpath={.metadata.uid}']);
    const ev = await eventually(() => eventsOf(k(), `nfs-win-${t}`).split('\n').find((l) => l.startsWith('FailedMount')), 30_000, 'FailedMount');
    // mount-utils mount_windows.go: the NFS mount's empty option list (kubelet v1.20+).
    assert.equal(ev, `FailedMount\tkubelet\tMountVolume.SetUp failed for volume "d" : mount options([]) should have at least 2 options, current number:0, source:"nfs.example:/exports", target:"c:\\\\var\\\\lib\\\\kubelet\\\\pods\\\\${uid}\\\\volumes\\\\kubernetes.io~nfs\\\\d"`);
    assert.match(k().ok(['get', 'pod', `nfs-win-${t}`]), new RegExp(`^nfs-win-${t}\\s+0/1\\s+ContainerCreating\\s+`, 'm'));
    // The v1.19 kubelet ran the pod without the export: an empty directory, nothing of what Linux wrote.
    const dir = k().run(['exec', `nfs-v119-${t}`, '--', 'cmd', '/c', `dir /b C:\\data`]);
    assert.doesNotMatch(dir.stdout, /f-/);
  });

  test(`kubectl ${version}: online expansion of a CSI claim on Windows through csi-proxy; a v1.22 Windows kubelet leaves it FileSystemResizePending`, async () => {
    const claim = (name: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: ${name} }
spec: { storageClassName: managed-csi, accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`;
    const user = (name: string, node: string, image: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  nodeSelector: { kubernetes.io/hostname: ${node} }
  containers:
  - { name: app, image: '${image}', command: ${WIN_CMD}, volumeMounts: [{ name: d, mountPath: 'C:\\data' }] }
  volumes: [{ name: d, persistentVolumeClaim: { claimName: ${name} } }]
`;
    k().ok(['apply', '-f', '-'], [claim(`grow-${t}`), user(`grow-${t}`, 'w2022', 'mcr.microsoft.com/windows/servercore:ltsc2022'),
      claim(`stuck-${t}`), user(`stuck-${t}`, 'w2019-v122', 'mcr.microsoft.com/windows/servercore:ltsc2019')].join('---\n'));
    await eventually(() => (phase(k(), `grow-${t}`) === 'Running' && phase(k(), `stuck-${t}`) === 'Running') || undefined, 60_000, 'both claim users running');
    const grow = k().ok(['get', 'pvc', `grow-${t}`, '-o', 'jsonpath={.spec.volumeName}']);
    assert.match(k().ok(['get', 'pvc', `grow-${t}`]), new RegExp(`^grow-${t}\\s+Bound\\s+${grow}\\s+1Gi\\s+RWO\\s+managed-csi\\s+<unset>\\s+\\S+$`, 'm'));
    for (const name of [`grow-${t}`, `stuck-${t}`]) {
      assert.match(k().ok(['patch', 'pvc', name, '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}']), /patched/);
    }
    // The current node's kubelet calls NodeExpandVolume: capacity follows, the condition goes.
    await eventually(() => k().ok(['get', 'pvc', `grow-${t}`, '-o', 'jsonpath={.status.capacity.storage}']) === '2Gi' || undefined, 30_000, 'grown capacity');
    assert.equal(k().ok(['get', 'pvc', `grow-${t}`, '-o', 'jsonpath={.status.conditions}']), '');
    assert.equal(k().ok(['get', 'pv', grow, '-o', 'jsonpath={.spec.capacity.storage}']), '2Gi');
    assert.match(k().ok(['get', 'pv', grow]), new RegExp(`^${grow}\\s+2Gi\\s+RWO\\s+Delete\\s+Bound\\s+default/grow-${t}\\s+managed-csi\\s+<unset>\\s+\\S+$`, 'm'));
    const claimEvents = await eventually(() => { const e = eventsOf(k(), `grow-${t}`); return e.includes('FileSystemResizeSuccessful') ? e : undefined; }, 30_000, 'FileSystemResizeSuccessful');
    assert.ok(claimEvents.includes(`Resizing\texternal-resizer disk.csi.azure.com\tExternal resizer is resizing volume ${grow}\n`), claimEvents);
    assert.ok(claimEvents.includes('FileSystemResizeRequired\texternal-resizer disk.csi.azure.com\tRequire file system resize of volume on node\n'), claimEvents);
    // The pod's event (same name as the claim here): operation_generator.go's GenerateMsg with the node as suffix.
    assert.ok(claimEvents.includes(`FileSystemResizeSuccessful\tkubelet\tMountVolume.NodeExpandVolume succeeded for volume "${grow}" w2022\n`), claimEvents);
    const described = k().ok(['describe', 'pvc', `grow-${t}`]);
    assert.match(described, /^Capacity:\s+2Gi$/m);
    assert.match(described, /Normal\s+FileSystemResizeRequired\s+\S+\s+external-resizer disk\.csi\.azure\.com\s+Require file system resize of volume on node/);

    // seeds 001 l.247 / 002 "Persistent storage": the v1.22 Windows kubelet does not grow the mounted filesystem.
    const stuck = k().ok(['get', 'pvc', `stuck-${t}`, '-o', 'jsonpath={.spec.volumeName}']);
    await eventually(() => k().ok(['get', 'pv', stuck, '-o', 'jsonpath={.spec.capacity.storage}']) === '2Gi' || undefined, 30_000, 'the volume grown by the resizer');
    const cond = JSON.parse(k().ok(['get', 'pvc', `stuck-${t}`, '-o', 'jsonpath={.status.conditions[0]}'])) as Record<string, unknown>;
    assert.equal(cond.type, 'FileSystemResizePending');
    assert.equal(cond.status, 'True');
    assert.equal(cond.message, 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.');
    assert.match(k().ok(['get', 'pvc', `stuck-${t}`]), new RegExp(`^stuck-${t}\\s+Bound\\s+${stuck}\\s+1Gi\\s+`, 'm'));
    const stuckDescribed = k().ok(['describe', 'pvc', `stuck-${t}`]);
    assert.match(stuckDescribed, /^Capacity:\s+1Gi$/m);
    assert.match(stuckDescribed, /^Conditions:\n\s+Type\s+Status\s+LastProbeTime\s+LastTransitionTime\s+Reason\s+Message\n\s+----.*\n\s+FileSystemResizePending\s+True\s+/m);
    assert.doesNotMatch(eventsOf(k(), `stuck-${t}`), /FileSystemResizeSuccessful/);
  });

  test(`kubectl ${version}: a WaitForFirstConsumer claim used by a pod with spec.nodeName stays Pending, as in kube`, async () => {
    k().ok(['apply', '-f', '-'], `apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: pinned-${t} }
spec: { storageClassName: managed-csi, accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
---
${pod(`pinned-${t}`, 'w2022', 'mcr.microsoft.com/windows/servercore:ltsc2022', WIN_CMD, 'C:\\data', `persistentVolumeClaim: { claimName: pinned-${t} }`)}`);
    // pv_controller.go: no selected-node without the scheduler, so nothing is provisioned; the pod is not
    // "unscheduled" (it has a node), so the event stays WaitForFirstConsumer (kubernetes#89953).
    await eventually(() => /WaitForFirstConsumer\tpersistentvolume-controller\twaiting for first consumer to be created before binding/.test(eventsOf(k(), `pinned-${t}`)) || undefined, 30_000, 'WaitForFirstConsumer');
    // The kubelet's populator cannot process the unbound claim: WaitForAttachAndMount ends with its error at once.
    const ev = await eventually(() => eventsOf(k(), `pinned-${t}`).split('\n').find((l) => l.startsWith('FailedMount')), 30_000, 'FailedMount');
    assert.equal(ev, `FailedMount\tkubelet\tUnable to attach or mount volumes: unmounted volumes=[d], unattached volumes=[], failed to process volumes=[d]: error processing PVC default/pinned-${t}: PVC default/pinned-${t} has non-bound phase ("Pending") or empty pvc.Spec.VolumeName ("")`);
    assert.match(k().ok(['get', 'pvc', `pinned-${t}`]), new RegExp(`^pinned-${t}\\s+Pending\\s+managed-csi\\s+<unset>\\s+\\S+$`, 'm'));
    assert.equal(k().ok(['get', 'pvc', `pinned-${t}`, '-o', 'jsonpath={.metadata.annotations.volume\\.kubernetes\\.io/selected-node}']), '');
    assert.equal(phase(k(), `pinned-${t}`), 'Pending');
  });
}
