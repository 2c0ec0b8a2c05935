import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { DISK_DRIVER, HOSTPATH_DRIVER, SMB_DRIVER } from '../../csi/drivers.js';
import { csiDriverObject, csiStorageClassObject } from '../../cluster/csi-drivers.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import { AttachDetachController, attachmentName, type VolumeAttachmentObj } from './attach-detach.js';
import { PersistentVolumeBinder, SELECTED_NODE_ANNOTATION, type PVCObj, type PVObj } from './binder.js';
import { attacherFinalizer, CsiAttacher } from './csi-attacher.js';
import { CsiProvisioner } from './csi-provisioner.js';
import { CsiResizer, FS_RESIZE_PENDING_MESSAGE } from './csi-resizer.js';

const obj = (o: unknown) => o as KubeObject;
const pvc = (name: string, sc: string, extra: Partial<PVCObj['spec']> = {}, ann: Record<string, string> = {}): PVCObj => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS, uid: `uid-${name}`, annotations: ann },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: sc, volumeMode: 'Filesystem', ...extra },
  status: { phase: 'Pending' },
});
const node = (name: string) => obj({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: {} });
const pod = (name: string, nodeName: string, claim: string) => obj({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, uid: `pod-${name}` },
  spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: claim } }] },
  status: { phase: 'Running' },
});

async function setup(seed: (h: ReturnType<typeof newHarness>) => void) {
  const h = newHarness();
  for (const d of [HOSTPATH_DRIVER, SMB_DRIVER, DISK_DRIVER]) {
    h.client.seed(R.csidrivers, obj(csiDriverObject(d)));
    h.client.seed(R.storageclasses, obj(csiStorageClassObject(d)));
  }
  h.client.seed(R.nodes, node('win-1'));
  seed(h);
  const cs = [
    new PersistentVolumeBinder({ ...h, recorder: h.recorder }), new CsiProvisioner({ ...h, recorder: h.recorder }),
    new AttachDetachController({ ...h, recorder: h.recorder }), new CsiAttacher(h), new CsiResizer({ ...h, recorder: h.recorder }),
  ];
  await h.sync();
  const settle = async () => { for (let i = 0; i < 6; i++) await drain(cs); };
  await settle();
  return { h, settle };
}

describe('emulated CSI controllers (external-provisioner, attach/detach, external-attacher, external-resizer)', () => {
  it('an Immediate SMB claim is provisioned with a csi source and kube\'s events', async () => {
    const { h } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('share', 'smb', { accessModes: ['ReadWriteMany'] })));
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'share')!;
    assert.equal(c.status?.phase, 'Bound');
    const v = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-share')!;
    assert.equal(v.spec?.csi?.driver, 'smb.csi.k8s.io');
    assert.equal(v.spec?.csi?.volumeHandle, 'smb-server.default.svc.cluster.local/share#pvc-uid-share##');
    assert.equal(v.metadata.annotations?.['pv.kubernetes.io/provisioned-by'], 'smb.csi.k8s.io');
    assert.ok(h.recorder.events.includes(`Normal Provisioning External provisioner is provisioning volume for claim "${NS}/share"`));
    assert.ok(h.recorder.events.includes('Normal ProvisioningSucceeded Successfully provisioned volume pvc-uid-share'));
    assert.ok(h.recorder.events.some((e) => e.startsWith("Normal ExternalProvisioning Waiting for a volume to be created either by the external provisioner 'smb.csi.k8s.io'")));
  });

  it('a Block claim of a driver without block support fails to provision', async () => {
    const { h } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('blk', 'smb', { volumeMode: 'Block' })));
    assert.equal(h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'blk')!.spec?.volumeName, undefined);
    assert.ok(h.recorder.events.includes('Warning ProvisioningFailed failed to provision volume with StorageClass "smb": rpc error: code = InvalidArgument desc = Block volume capability not supported'));
  });

  it('a pod on a node gets a VolumeAttachment for its attachable volume, attached, listed on the node; it goes with the pod', async () => {
    const { h, settle } = await setup((h) => {
      h.client.seed(R.persistentvolumeclaims, pvc('data', 'managed-csi', {}, { [SELECTED_NODE_ANNOTATION]: 'win-1' }));
    });
    assert.equal(h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!.status?.phase, 'Bound');
    await h.client.create(R.pods, NS, pod('p', 'win-1', 'data'));
    await settle();
    const v = h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data')!;
    const name = attachmentName(v.spec!.csi!.volumeHandle, 'disk.csi.azure.com', 'win-1');
    const va = h.client.peek<VolumeAttachmentObj>(R.volumeattachments, undefined, name)!;
    assert.deepEqual(va.spec, { attacher: 'disk.csi.azure.com', nodeName: 'win-1', source: { persistentVolumeName: 'pvc-uid-data' } });
    assert.equal(va.status?.attached, true);
    assert.deepEqual(va.metadata.finalizers, [attacherFinalizer('disk.csi.azure.com')]);
    assert.equal(attacherFinalizer('disk.csi.azure.com'), 'external-attacher/disk-csi-azure-com');
    const n = h.client.peek<KubeObject & { status?: { volumesAttached?: unknown } }>(R.nodes, undefined, 'win-1')!;
    assert.deepEqual(n.status?.volumesAttached, [{ name: `kubernetes.io/csi/disk.csi.azure.com^${v.spec!.csi!.volumeHandle}`, devicePath: '' }]);
    assert.ok(h.recorder.events.includes('Normal SuccessfulAttachVolume AttachVolume.Attach succeeded for volume "pvc-uid-data" '));
    await h.client.delete(R.pods, NS, 'p');
    await settle();
    assert.equal(h.client.peek(R.volumeattachments, undefined, name), undefined);
  });

  it('SMB volumes need no attach: no VolumeAttachment', async () => {
    const { h, settle } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('share', 'smb')));
    await h.client.create(R.pods, NS, pod('p', 'win-1', 'share'));
    await settle();
    assert.equal((await h.client.list(R.volumeattachments, undefined)).items.length, 0);
  });

  it('expansion: the volume grows, then waits for the node with FileSystemResizePending', async () => {
    const { h, settle } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('data', 'managed-csi', {}, { [SELECTED_NODE_ANNOTATION]: 'win-1' })));
    await h.client.patch(R.persistentvolumeclaims, NS, 'data', 'merge', { spec: { resources: { requests: { storage: '2Gi' } } } });
    await settle();
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'data')!;
    assert.equal(h.client.peek<PVObj>(R.persistentvolumes, undefined, 'pvc-uid-data')!.spec?.capacity?.storage, '2Gi');
    assert.equal(c.status?.capacity?.storage, '1Gi');
    assert.equal(c.status?.conditions?.[0].type, 'FileSystemResizePending');
    assert.equal(c.status?.conditions?.[0].message, FS_RESIZE_PENDING_MESSAGE);
    assert.ok(h.recorder.events.includes('Normal Resizing External resizer is resizing volume pvc-uid-data'));
    assert.ok(h.recorder.events.includes('Normal FileSystemResizeRequired Require file system resize of volume on node'));
  });

  it('expansion of a share finishes in the controller (no node step)', async () => {
    const { h, settle } = await setup((h) => h.client.seed(R.persistentvolumeclaims, pvc('share', 'smb')));
    await h.client.patch(R.persistentvolumeclaims, NS, 'share', 'merge', { spec: { resources: { requests: { storage: '5Gi' } } } });
    await settle();
    const c = h.client.peek<PVCObj>(R.persistentvolumeclaims, NS, 'share')!;
    assert.equal(c.status?.capacity?.storage, '5Gi');
    assert.ok(h.recorder.events.includes('Normal VolumeResizeSuccessful Resize volume succeeded'));
  });
});
