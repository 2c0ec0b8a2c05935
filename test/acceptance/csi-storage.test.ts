// Issue 10 acceptance, storage through the emulated CSI drivers with the real kubectl against `winkube up`: a
// StatefulSet with a claim per replica on Windows nodes through the `managed-csi` class (VolumeAttachments, files that
// survive a pod delete), a Windows node without csi-proxy failing the mount with the kubelet's event, FlexVolume SMB on
// a v1.18 node, and raw block volumes on Linux and their refusal on Windows.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const NEWEST = kubectlBinaries().slice(-1)[0];

let cluster: RunningCluster;
let k: Kubectl;
before(async () => {
  cluster = await startCluster({ fleet: join(ROOT, 'test', 'fixtures', 'csi-storage-fleet.yaml') });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const phase = (pod: string) => k.run(['get', 'pod', pod, '-o', 'jsonpath={.status.phase}']).stdout;
const eventsOf = (pod: string) => k.ok(['get', 'events', '--field-selector', `involvedObject.name=${pod}`, '-o', 'jsonpath={range .items[*]}{.reason}{"\\t"}{.message}{"\\n"}{end}']);

test('the drivers are installed: CSIDrivers, CSINodes and their tables', async () => {
  const drivers = k.ok(['get', 'csidrivers']);
  assert.match(drivers, /^NAME\s+ATTACHREQUIRED\s+PODINFOONMOUNT\s+STORAGECAPACITY\s+TOKENREQUESTS\s+REQUIRESREPUBLISH\s+MODES\s+AGE$/m);
  assert.match(drivers, /^disk\.csi\.azure\.com\s+true\s+false\s+false\s+<unset>\s+false\s+Persistent\s+/m);
  assert.match(drivers, /^smb\.csi\.k8s\.io\s+false\s+/m);
  await eventually(() => /^w2022-noproxy\s+0\s+/m.test(k.ok(['get', 'csinodes'])) || undefined, 30_000, 'CSINodes');
  const csinodes = k.ok(['get', 'csinodes']);
  assert.match(csinodes, /^NAME\s+DRIVERS\s+AGE$/m);
  assert.match(csinodes, /^w2022-1\s+3\s+/m);
  assert.match(csinodes, /^linux\s+4\s+/m);
  const ann = k.ok(['get', 'node', 'w2022-1', '-o', 'jsonpath={.metadata.annotations.csi\\.volume\\.kubernetes\\.io/nodeid}']);
  assert.deepEqual(JSON.parse(ann), { 'smb.csi.k8s.io': 'w2022-1', 'disk.csi.azure.com': 'w2022-1', 'file.csi.azure.com': 'w2022-1' });
  assert.match(k.ok(['api-resources', '--api-group=storage.k8s.io']), /^volumeattachments\s+storage\.k8s\.io\/v1\s+false\s+VolumeAttachment$/m);
});

test('a StatefulSet on Windows gets a CSI claim per replica; VolumeAttachments; files survive a pod delete', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: win-data }
spec:
  serviceName: win-data
  replicas: 2
  podManagementPolicy: Parallel
  selector: { matchLabels: { app: win-data } }
  template:
    metadata: { labels: { app: win-data } }
    spec:
      nodeSelector: { kubernetes.io/os: windows, storage: csi }
      containers:
      - name: app
        image: mcr.microsoft.com/windows/servercore:ltsc2022
        command: [powershell, -Command, 'Start-Sleep 3600']
        volumeMounts: [{ name: data, mountPath: 'C:\\data' }]
  volumeClaimTemplates:
  - metadata: { name: data }
    spec: { storageClassName: managed-csi, accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`);
  await eventually(() => (phase('win-data-0') === 'Running' && phase('win-data-1') === 'Running') || undefined, 120_000, 'two running replicas');
  const pv = k.ok(['get', 'pvc', 'data-win-data-0', '-o', 'jsonpath={.spec.volumeName}']);
  assert.match(k.ok(['get', 'pv', pv, '-o', 'jsonpath={.spec.csi.driver}']), /^disk\.csi\.azure\.com$/);
  // Events are recorded after the objects they tell of: wait for the last one.
  const claimEvents = await eventually(() => {
    const out = k.ok(['get', 'events', '--field-selector', 'involvedObject.name=data-win-data-0', '-o', 'jsonpath={range .items[*]}{.reason}{"\\n"}{end}']);
    return out.includes('ProvisioningSucceeded') ? out : undefined;
  }, 30_000, 'ProvisioningSucceeded');
  for (const r of ['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded']) assert.ok(claimEvents.includes(r), `${r} in ${claimEvents}`);
  const vas = await eventually(() => {
    const out = k.ok(['get', 'volumeattachment']);
    return out.split('\n').filter((l) => l.includes(pv) && /\strue\s/.test(l)).length === 1 ? out : undefined;
  }, 30_000, 'an attached VolumeAttachment');
  assert.match(vas, /^NAME\s+ATTACHER\s+PV\s+NODE\s+ATTACHED\s+AGE$/m);
  assert.match(vas, new RegExp(`^csi-[0-9a-f]{64}\\s+disk\\.csi\\.azure\\.com\\s+${pv}\\s+w2022-[12]\\s+true\\s+`, 'm'));
  assert.match(eventsOf('win-data-0'), new RegExp(`SuccessfulAttachVolume\\tAttachVolume.Attach succeeded for volume "${pv}"`));
  const node = k.ok(['get', 'pod', 'win-data-0', '-o', 'jsonpath={.spec.nodeName}']);
  await eventually(() => k.ok(['get', 'node', node, '-o', 'jsonpath={.status.volumesAttached[*].name}']).includes(`kubernetes.io/csi/disk.csi.azure.com^`) || undefined, 30_000, 'volumesAttached');

  k.ok(['exec', 'win-data-0', '--', 'cmd', '/c', 'echo kept> C:\\data\\note.txt']);
  const uid = k.ok(['get', 'pod', 'win-data-0', '-o', 'jsonpath={.metadata.uid}']);
  k.ok(['delete', 'pod', 'win-data-0', '--wait=false']);
  await eventually(() => (k.run(['get', 'pod', 'win-data-0', '-o', 'jsonpath={.metadata.uid}']).stdout !== uid && phase('win-data-0') === 'Running') || undefined, 120_000, 'the replacement pod');
  assert.match(k.ok(['exec', 'win-data-0', '--', 'cmd', '/c', 'type C:\\data\\note.txt']), /^kept\s*$/);
});

test('a Windows node without csi-proxy fails the CSI mount with the kubelet\'s event', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: noproxy }
spec: { storageClassName: smb, accessModes: [ReadWriteMany], resources: { requests: { storage: 1Gi } } }
---
apiVersion: v1
kind: Pod
metadata: { name: noproxy }
spec:
  nodeName: w2022-noproxy
  containers:
  - { name: app, image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: [powershell, -Command, 'Start-Sleep 3600'], volumeMounts: [{ name: d, mountPath: 'C:\\data' }] }
  volumes: [{ name: d, persistentVolumeClaim: { claimName: noproxy } }]
`);
  const pv = await eventually(() => k.ok(['get', 'pvc', 'noproxy', '-o', 'jsonpath={.spec.volumeName}']) || undefined, 30_000, 'bound claim');
  const ev = await eventually(() => eventsOf('noproxy').split('\n').find((l) => l.startsWith('FailedMount')), 30_000, 'FailedMount');
  assert.equal(ev, `FailedMount\tMountVolume.MountDevice failed for volume "${pv}" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name smb.csi.k8s.io not found in the list of registered CSI drivers`);
  assert.equal(phase('noproxy'), 'Pending');
});

test('FlexVolume SMB mounts on the v1.18 node that has the driver and fails where it is missing', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Secret
metadata: { name: smb-secret }
type: microsoft.com/smb
stringData: { username: user, password: pass }
---
apiVersion: v1
kind: Pod
metadata: { name: flex }
spec:
  nodeName: w2019-flex
  containers:
  - { name: smb, image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: [powershell, -Command, 'Start-Sleep 3600'], volumeMounts: [{ name: smb-volume, mountPath: /d }] }
  volumes:
  - name: smb-volume
    flexVolume: { driver: microsoft.com/smb.cmd, secretRef: { name: smb-secret }, options: { source: '\\\\\\\\Server\\\\Share' } }
---
apiVersion: v1
kind: Pod
metadata: { name: flex-missing }
spec:
  nodeName: w2022-1
  containers:
  - { name: smb, image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: [powershell, -Command, 'Start-Sleep 3600'], volumeMounts: [{ name: smb-volume, mountPath: /d }] }
  volumes:
  - name: smb-volume
    flexVolume: { driver: microsoft.com/smb.cmd, secretRef: { name: smb-secret }, options: { source: '\\\\\\\\Server\\\\Share' } }
`);
  await eventually(() => phase('flex') === 'Running' || undefined, 90_000, 'the flex pod running');
  // `echo 0> f` would redirect handle 0 in cmd (and print "ECHO is on."): the space keeps the 0 as text.
  k.ok(['exec', 'flex', '--', 'cmd', '/c', 'echo 0 > c:\\d\\smb_test.txt']);
  assert.match(k.ok(['exec', 'flex', '--', 'cmd', '/c', 'type c:\\d\\smb_test.txt']), /^0\s*$/);
  const ev = await eventually(() => eventsOf('flex-missing').split('\n').find((l) => l.startsWith('FailedMount')), 30_000, 'FailedMount');
  assert.equal(ev, 'FailedMount\tfailed to get Plugin from volumeSpec for volume "smb-volume" err=no volume plugin matched');
});

test('raw block volumes: a device on Linux; refused on Windows', async () => {
  const pod = (name: string, os: string, image: string, cmd: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: ${name} }
spec: { storageClassName: managed-csi, volumeMode: Block, accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
---
apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  nodeSelector: { kubernetes.io/os: ${os}${os === 'windows' ? ', storage: csi' : ''} }
  containers:
  - { name: app, image: '${image}', command: ${cmd}, volumeDevices: [{ name: raw, devicePath: /dev/xvda }] }
  volumes: [{ name: raw, persistentVolumeClaim: { claimName: ${name} } }]
`;
  k.ok(['apply', '-f', '-'], pod('block-linux', 'linux', 'busybox:1.36', '[sleep, "3600"]'));
  k.ok(['apply', '-f', '-'], pod('block-win', 'windows', 'mcr.microsoft.com/windows/servercore:ltsc2022', "[powershell, -Command, 'Start-Sleep 3600']"));
  await eventually(() => phase('block-linux') === 'Running' || undefined, 90_000, 'the Linux block pod running');
  assert.match(k.ok(['exec', 'block-linux', '--', 'ls', '/dev/xvda']), /\/dev\/xvda/);
  const pv = await eventually(() => k.ok(['get', 'pvc', 'block-win', '-o', 'jsonpath={.spec.volumeName}']) || undefined, 60_000, 'bound block claim');
  const ev = await eventually(() => eventsOf('block-win').split('\n').find((l) => l.startsWith('FailedMapVolume')), 60_000, 'FailedMapVolume');
  assert.equal(ev, `FailedMapVolume\tMapVolume.AttachFileDevice failed for volume "${pv}" : AttachFileDevice not supported for this build`);
});
