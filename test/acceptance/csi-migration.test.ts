// Issue 10 acceptance, CSI migration of the in-tree Azure plugins with the real kubectl (oldest and newest) against
// `winkube up`: a claim of a kubernetes.io/azure-disk StorageClass is provisioned by disk.csi.azure.com and stored as
// an in-tree azureDisk volume marked migrated, a Windows pod mounts it through a VolumeAttachment naming the CSI driver,
// an inline azureDisk volume is attached with its translated spec, and every CSINode lists the migrated plugins.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ENDS = kubectlEnds();
const NEWEST = ENDS[ENDS.length - 1];
const URI = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/disks/static-1';

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

const jp = (kind: string, name: string, path: string) => k.run(['get', kind, name, '-o', `jsonpath={${path}}`]).stdout;

test('every CSINode lists the plugins its v1.33 kubelet runs migrated', () => {
  const lines = k.ok(['get', 'csinodes', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\t"}{.metadata.annotations.storage\\.alpha\\.kubernetes\\.io/migrated-plugins}{"\\n"}{end}']).trim().split('\n');
  assert.ok(lines.length >= 5, lines.join('\n'));
  for (const l of lines) {
    assert.match(l, /\tkubernetes\.io\/aws-ebs,kubernetes\.io\/azure-disk,kubernetes\.io\/azure-file,kubernetes\.io\/cinder,kubernetes\.io\/gce-pd,kubernetes\.io\/portworx-volume,kubernetes\.io\/vsphere-volume$/);
  }
});

test('an azure-disk class claim: provisioned by disk.csi.azure.com, in-tree and migrated, mounted by a Windows pod', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: { name: azure-disk-intree }
provisioner: kubernetes.io/azure-disk
parameters: { skuName: StandardSSD_LRS, kind: Managed, cachingMode: ReadOnly, fsType: ntfs }
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: intree }
spec: { storageClassName: azure-disk-intree, accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
---
apiVersion: v1
kind: Pod
metadata: { name: intree }
spec:
  nodeSelector: { kubernetes.io/os: windows }
  tolerations: [{ operator: Exists }]
  containers:
  - name: app
    image: mcr.microsoft.com/windows/servercore:ltsc2019
    command: [powershell, -Command, 'Start-Sleep 3600']
    volumeMounts: [{ name: data, mountPath: 'C:\\data' }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: intree } }]
`);
  await eventually(() => jp('pod', 'intree', '.status.phase') === 'Running', 40_000, 'pod Running');
  const pv = jp('pvc', 'intree', '.spec.volumeName');
  const node = jp('pod', 'intree', '.spec.nodeName');
  assert.match(node, /^winkube-win20(19|22)-\d$/);
  assert.equal(jp('pvc', 'intree', ".metadata.annotations['volume\\.kubernetes\\.io/storage-provisioner']"), 'disk.csi.azure.com');
  assert.equal(jp('pvc', 'intree', ".metadata.annotations['volume\\.beta\\.kubernetes\\.io/storage-provisioner']"), 'disk.csi.azure.com');
  assert.equal(jp('pv', pv, ".metadata.annotations['pv\\.kubernetes\\.io/migrated-to']"), 'disk.csi.azure.com');
  assert.equal(jp('pv', pv, ".metadata.annotations['pv\\.kubernetes\\.io/provisioned-by']"), 'kubernetes.io/azure-disk');
  const diskURI = `/subscriptions/winkube/resourceGroups/winkube/providers/Microsoft.Compute/disks/${pv}`;
  assert.deepEqual(JSON.parse(jp('pv', pv, '.spec.azureDisk')), { cachingMode: 'ReadOnly', diskName: pv, diskURI, fsType: 'ntfs', kind: 'Managed', readOnly: false });
  assert.equal(jp('pv', pv, '.spec.csi'), '');
  const events = await eventually(() => {
    const out = k.ok(['get', 'events', '--field-selector', 'involvedObject.name=intree,involvedObject.kind=PersistentVolumeClaim', '-o', 'jsonpath={range .items[*]}{.reason}{"\\t"}{.message}{"\\n"}{end}']);
    return out.includes('ProvisioningSucceeded') ? out : undefined;
  }, 20_000, 'ProvisioningSucceeded');
  assert.ok(events.includes("ExternalProvisioning\tWaiting for a volume to be created either by the external provisioner 'disk.csi.azure.com' or manually by the system administrator."), events);
  for (const { version, path } of ENDS) {
    const kk = new Kubectl(path, cluster.kubeconfig);
    try {
      assert.match(kk.ok(['get', 'pvc', 'intree']), new RegExp(`^intree\\s+Bound\\s+${pv}\\s+1Gi\\s+RWO\\s+azure-disk-intree\\s`, 'm'), version);
      const va = kk.ok(['get', 'volumeattachment']);
      assert.match(va, new RegExp(`^csi-[0-9a-f]{64}\\s+disk\\.csi\\.azure\\.com\\s+${pv}\\s+${node}\\s+true\\s`, 'm'), `${version}\n${va}`);
      const described = kk.ok(['describe', 'pv', pv]);
      assert.match(described, /Type:\s+AzureDisk \(an Azure Data Disk mount on the host and bind mount to the pod\)/, version);
      assert.match(described, /pv\.kubernetes\.io\/migrated-to: disk\.csi\.azure\.com/, version);
    } finally {
      kk.dispose();
    }
  }
  await eventually(() => jp('node', node, '.status.volumesAttached[*].name').includes(`kubernetes.io/csi/disk.csi.azure.com^${diskURI}`) || undefined, 20_000, 'volumesAttached');
  k.ok(['exec', 'intree', '--', 'cmd', '/c', 'echo migrated> C:\\data\\note.txt']);
  assert.match(k.ok(['exec', 'intree', '--', 'cmd', '/c', 'type C:\\data\\note.txt']), /^migrated\s*$/);
});

test('an inline azureDisk volume on Windows is attached with the translated spec', async () => {
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: { name: inline }
spec:
  nodeName: winkube-win2022-1
  tolerations: [{ operator: Exists }]
  containers:
  - name: app
    image: mcr.microsoft.com/windows/servercore:ltsc2022
    command: [powershell, -Command, 'Start-Sleep 3600']
    volumeMounts: [{ name: d, mountPath: 'C:\\data' }]
  volumes: [{ name: d, azureDisk: { diskName: static-1, diskURI: '${URI}' } }]
`);
  await eventually(() => jp('pod', 'inline', '.status.phase') === 'Running', 40_000, 'inline pod Running');
  const vas = JSON.parse(k.ok(['get', 'volumeattachment', '-o', 'json'])).items as { spec: { attacher: string; nodeName: string; source: Record<string, unknown> } }[];
  const va = vas.find((v) => v.spec.nodeName === 'winkube-win2022-1' && v.spec.source.inlineVolumeSpec);
  assert.deepEqual(va?.spec, {
    attacher: 'disk.csi.azure.com', nodeName: 'winkube-win2022-1',
    source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'disk.csi.azure.com', volumeHandle: URI, volumeAttributes: { kind: 'Managed', 'csi-migration': 'true' } } } },
  });
  const ev = k.ok(['get', 'events', '--field-selector', 'involvedObject.name=inline', '-o', 'jsonpath={range .items[*]}{.reason}{"\\t"}{.message}{"\\n"}{end}']);
  assert.ok(ev.includes('SuccessfulAttachVolume\tAttachVolume.Attach succeeded for volume "disk.csi.azure.com-static-1"'), ev);
});
