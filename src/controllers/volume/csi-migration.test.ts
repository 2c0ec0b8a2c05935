import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { DISK_DRIVER, FILE_DRIVER } from '../../csi/drivers.js';
import { csiDriverObject } from '../../cluster/csi-drivers.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { AttachDetachController, attachmentName, type VolumeAttachmentObj } from './attach-detach.js';
import { PersistentVolumeBinder, type PVCObj, type PVObj } from './binder.js';
import { CsiAttacher } from './csi-attacher.js';
import { CsiProvisioner } from './csi-provisioner.js';

const obj = (o: unknown) => o as KubeObject;
const URI = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/disks/static-1';
const inTreeClass = (name: string, provisioner: string, parameters: Record<string, string>) => obj({
  apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner, parameters, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate',
});
const pvc = (name: string, sc: string, modes = ['ReadWriteOnce']): PVCObj => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS, uid: `uid-${name}` },
  spec: { accessModes: modes, resources: { requests: { storage: '1Gi' } }, storageClassName: sc, volumeMode: 'Filesystem' },
  status: { phase: 'Pending' },
});
const csiNode = (name: string, migrated?: string) => obj({
  apiVersion: 'storage.k8s.io/v1', kind: 'CSINode',
  metadata: { name, ...(migrated ? { annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': migrated } } : {}) }, spec: { drivers: [] },
});
const pod = (name: string, volume: Record<string, unknown>) => obj({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, uid: `pod-${name}` },
  spec: { nodeName: 'win-1', containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', ...volume }] },
  status: { phase: 'Running' },
});

async function setup(seed: (h: ReturnType<typeof newHarness>) => void, migrated = 'kubernetes.io/azure-disk,kubernetes.io/azure-file') {
  const h = newHarness();
  for (const d of [DISK_DRIVER, FILE_DRIVER]) h.client.seed(R.csidrivers, obj(csiDriverObject(d)));
  h.client.seed(R.storageclasses, inTreeClass('azure-disk', 'kubernetes.io/azure-disk', { skuName: 'StandardSSD_LRS', cachingMode: 'ReadOnly', fsType: 'ntfs', zone: '1' }));
  h.client.seed(R.storageclasses, inTreeClass('azure-file', 'kubernetes.io/azure-file', { skuName: 'Standard_LRS' }));
  h.client.seed(R.nodes, obj({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'win-1' }, status: {} }));
  h.client.seed(R.csinodes, csiNode('win-1', migrated));
  seed(h);
  const cs = [
    new PersistentVolumeBinder({ ...h, recorder: h.recorder }), new CsiProvisioner({ ...h, recorder: h.recorder }),
    new AttachDetachController({ ...h, recorder: h.recorder }), new CsiAttacher(h),
  ];
  await h.sync();
  const settle = async () => { for (let i = 0; i < 6; i++) await drain(cs); };
  await settle();
  return { h, settle };
}

describe('CSI migration of the in-tree Azure plugins (kube-controller-manager 1.33)', () => {
  it('an azure-disk class: the claim names disk.csi.azure.com, the volume is stored in-tree and marked migrated', async () => {
    const { h } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('data', 'azure-disk')));
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!;
    assert.equal(c.status?.phase, 'Bound');
    assert.equal(c.metadata.annotations?.['volume.kubernetes.io/storage-provisioner'], 'disk.csi.azure.com');
    assert.equal(c.metadata.annotations?.['volume.beta.kubernetes.io/storage-provisioner'], 'disk.csi.azure.com');
    assert.equal(c.metadata.annotations?.['pv.kubernetes.io/migrated-to'], undefined);
    assert.ok(h.recorder.events.some((e) => e.startsWith("Normal ExternalProvisioning Waiting for a volume to be created either by the external provisioner 'disk.csi.azure.com'")));
    const v = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data')!;
    assert.equal(v.spec?.csi, undefined);
    assert.deepEqual(v.spec?.azureDisk, {
      diskName: 'pvc-uid-data', diskURI: '/subscriptions/winkube/resourceGroups/winkube/providers/Microsoft.Compute/disks/pvc-uid-data',
      fsType: 'ntfs', readOnly: false, kind: 'Managed', cachingMode: 'ReadOnly',
    });
    assert.equal(v.metadata.annotations?.['pv.kubernetes.io/provisioned-by'], 'kubernetes.io/azure-disk');
    assert.equal(v.metadata.annotations?.['pv.kubernetes.io/migrated-to'], 'disk.csi.azure.com');
  });

  it('a pod of a migrated in-tree volume gets a VolumeAttachment naming the CSI driver and the PV', async () => {
    const { h, settle } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('data', 'azure-disk')));
    await h.client.create(R.pods, NS, pod('p', { persistentVolumeClaim: { claimName: 'data' } }));
    await settle();
    const uri = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data')!.spec!.azureDisk!.diskURI;
    const va = h.client.peek<VolumeAttachmentObj>(R.volumeattachments, undefined, attachmentName(uri, 'disk.csi.azure.com', 'win-1'))!;
    assert.deepEqual(va.spec, { attacher: 'disk.csi.azure.com', nodeName: 'win-1', source: { persistentVolumeName: 'pvc-uid-data' } });
    assert.equal(va.status?.attached, true);
    const n = h.client.peek<KubeObject & { status?: { volumesAttached?: unknown } }>(R.nodes, undefined, 'win-1')!;
    assert.deepEqual(n.status?.volumesAttached, [{ name: `kubernetes.io/csi/disk.csi.azure.com^${uri}`, devicePath: '' }]);
  });

  it('an inline azureDisk volume is attached with the translated spec; detached when the pod goes', async () => {
    const { h, settle } = await setup(() => undefined);
    await h.client.create(R.pods, NS, pod('inline', { azureDisk: { diskName: 'static-1', diskURI: URI, cachingMode: 'None' } }));
    await settle();
    const name = attachmentName(URI, 'disk.csi.azure.com', 'win-1');
    const va = h.client.peek<VolumeAttachmentObj>(R.volumeattachments, undefined, name)!;
    assert.deepEqual(va.spec, {
      attacher: 'disk.csi.azure.com', nodeName: 'win-1',
      source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'disk.csi.azure.com', volumeHandle: URI, volumeAttributes: { kind: 'Managed', 'csi-migration': 'true', cachingMode: 'None' } } } },
    });
    assert.equal(va.status?.attached, true);
    assert.ok(h.recorder.events.includes('Normal SuccessfulAttachVolume AttachVolume.Attach succeeded for volume "disk.csi.azure.com-static-1" '));
    await h.client.delete(R.pods, NS, 'inline');
    await settle();
    assert.equal(h.client.peek(R.volumeattachments, undefined, name), undefined);
  });

  it('a node whose CSINode does not list the plugin gets no CSI attachment for it', async () => {
    const { h, settle } = await setup(() => undefined, 'kubernetes.io/gce-pd');
    await h.client.create(R.pods, NS, pod('inline', { azureDisk: { diskName: 'static-1', diskURI: URI } }));
    await settle();
    assert.equal((await h.client.list(R.volumeattachments, undefined)).items.length, 0);
  });

  it('an azure-file class: an in-tree azureFile volume with the account secret; no attach', async () => {
    const { h, settle } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('share', 'azure-file', ['ReadWriteMany'])));
    const v = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-share')!;
    assert.deepEqual(v.spec?.azureFile, { shareName: 'pvc-uid-share', secretName: 'azure-storage-account-winkubestorage-secret', secretNamespace: 'default', readOnly: false });
    assert.equal(v.metadata.annotations?.['kubernetes.io/azure-file-resource-group'], 'winkube');
    assert.equal(v.metadata.annotations?.['pv.kubernetes.io/migrated-to'], 'file.csi.azure.com');
    await h.client.create(R.pods, NS, pod('p', { persistentVolumeClaim: { claimName: 'share' } }));
    await settle();
    assert.equal((await h.client.list(R.volumeattachments, undefined)).items.length, 0);
  });

  it('a released migrated volume is the external provisioner\'s to delete, not marked Failed by the PV controller', async () => {
    const { h, settle } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('data', 'azure-disk')));
    assert.ok(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data'));
    await h.client.delete(R.persistentvolumeclaims, NS, 'data');
    await settle();
    assert.equal(h.client.peek(R.persistentvolumes, undefined, 'pvc-uid-data'), undefined);
    assert.ok(!h.recorder.events.some((e) => e.includes('VolumeFailedDelete')));
  });
});
