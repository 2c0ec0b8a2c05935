import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Volume } from 'kubernetes-types/core/v1.js';
import { csiAttachmentName } from '../../csi/drivers.js';
import { csiNodeObject, volumesInUse } from './csi-node.js';
import { volumeContent, type VolumeContext } from './volume-content.js';

const URI = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/disks/d1';
const win = { name: 'win', os: 'windows' as const, kubeletVersion: 'v1.33.1' };

test('the CSINode lists the plugins the kubelet runs migrated; a kubelet before any migration lists none', () => {
  assert.equal(csiNodeObject(win, 'u').metadata?.annotations?.['storage.alpha.kubernetes.io/migrated-plugins'],
    'kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/portworx-volume,kubernetes.io/vsphere-volume');
  assert.equal(csiNodeObject({ ...win, kubeletVersion: 'v1.20.4' }, 'u').metadata?.annotations, undefined);
});

const ctx = (node: VolumeContext['node'], pvSpec: object, attached: { pv?: boolean; names?: string[] } = {}): VolumeContext => ({
  pod: { metadata: { namespace: 'default', uid: 'u' } }, os: node!.os, hostIP: '', podIP: '', allocatable: {}, node,
  config: {
    configMap: () => undefined, secret: () => undefined,
    persistentVolumeClaim: () => ({ phase: 'Bound', volumeName: 'pv1' }),
    persistentVolume: (name) => ({ name, spec: pvSpec }),
    volumeAttached: () => attached.pv ?? false,
    attachmentAttached: (name) => (attached.names ?? []).includes(name),
  },
});

test('an in-tree azureDisk PersistentVolume mounts through disk.csi.azure.com once attached', () => {
  const claimVol: Volume = { name: 'data', persistentVolumeClaim: { claimName: 'c' } };
  const spec = { azureDisk: { diskName: 'd1', diskURI: URI } };
  assert.deepEqual(volumeContent(claimVol, ctx(win, spec, { pv: true })),
    { content: { kind: 'network', key: `csi:disk.csi.azure.com/${URI}`, readOnly: false, source: 'csi' } });
  assert.deepEqual(volumeContent(claimVol, ctx(win, spec, { pv: false })), {
    pending: `Volume not attached according to node status for volume "pv1" (UniqueName: "kubernetes.io/csi/disk.csi.azure.com^${URI}")`, unattached: true,
  });
  // No csi-proxy: the driver never registered, and the kubelet says so in MountDevice.
  assert.deepEqual(volumeContent(claimVol, ctx({ ...win, csiProxy: 'none' }, spec, { pv: true })), {
    error: 'MountVolume.MountDevice failed for volume "pv1" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name disk.csi.azure.com not found in the list of registered CSI drivers',
  });
  // A kubelet that predates the migration keeps the in-tree plugin, which the emulation does not model.
  assert.deepEqual(volumeContent(claimVol, ctx({ ...win, kubeletVersion: 'v1.20.4' }, spec, { pv: true })),
    { content: { kind: 'persistentVolume', volumeName: 'pv1', readOnly: false } });
});

test('inline azureDisk waits for its VolumeAttachment by name; inline azureFile needs none', () => {
  const disk: Volume = { name: 'd', azureDisk: { diskName: 'd1', diskURI: URI, readOnly: true } };
  const va = csiAttachmentName(URI, 'disk.csi.azure.com', 'win');
  assert.deepEqual(volumeContent(disk, ctx(win, {})), {
    pending: `Volume not attached according to node status for volume "disk.csi.azure.com-d1" (UniqueName: "kubernetes.io/csi/disk.csi.azure.com^${URI}")`, unattached: true,
  });
  assert.deepEqual(volumeContent(disk, ctx(win, {}, { names: [va] })), { content: { kind: 'network', key: `csi:disk.csi.azure.com/${URI}`, readOnly: true, source: 'csi' } });
  const ctxFile = ctx(win, {});
  ctxFile.config.attachRequired = (d) => (d === 'file.csi.azure.com' ? false : undefined);
  assert.deepEqual(volumeContent({ name: 'f', azureFile: { secretName: 'azure-storage-account-acct-secret', shareName: 'sh' } }, ctxFile),
    { content: { kind: 'network', key: 'csi:file.csi.azure.com/#acct#sh#', readOnly: false, source: 'csi' } });
});

test('volumesInUse names migrated volumes by their CSI driver (PV and inline), only on a migrating kubelet', () => {
  const rec = { sandboxID: 's', pod: { metadata: { namespace: 'default' }, spec: { volumes: [{ persistentVolumeClaim: { claimName: 'c' } }, { azureDisk: { diskName: 'd2', diskURI: `${URI}2` } }] } } };
  const look = { persistentVolumeClaim: () => ({ volumeName: 'pv1' }), persistentVolume: () => ({ spec: { azureDisk: { diskName: 'd1', diskURI: URI } } }) };
  assert.deepEqual(volumesInUse([rec], look, 'v1.33.1'), [`kubernetes.io/csi/disk.csi.azure.com^${URI}`, `kubernetes.io/csi/disk.csi.azure.com^${URI}2`]);
  assert.deepEqual(volumesInUse([rec], look, 'v1.20.4'), []);
});
