import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import {
  kubeletMigratedPlugins, migratedDriver, translateCsiToInTree, translateInTreePV, translateInlineVolume, translateStorageClassParameters,
  updateMigrationAnnotations,
} from './migration.js';

const URI = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/disks/d1';

test('in-tree plugin names map to their CSI drivers; anything else is not migrated', () => {
  for (const [plugin, driver] of [
    ['kubernetes.io/azure-disk', 'disk.csi.azure.com'], ['kubernetes.io/azure-file', 'file.csi.azure.com'],
    ['rancher.io/local-path', undefined], ['disk.csi.azure.com', undefined], [undefined, undefined],
  ] as const) assert.equal(migratedDriver(plugin), driver, String(plugin));
});

test('the kubelet migrated-plugins list follows the version each gate came on (sorted as nodeinfomanager joins it)', () => {
  const all = ['kubernetes.io/aws-ebs', 'kubernetes.io/azure-disk', 'kubernetes.io/azure-file', 'kubernetes.io/cinder', 'kubernetes.io/gce-pd',
    'kubernetes.io/portworx-volume', 'kubernetes.io/vsphere-volume'];
  for (const [version, want] of [
    ['v1.33.1', all], ['v1.31.0', all],
    ['v1.27.3', all.filter((p) => p !== 'kubernetes.io/portworx-volume')],
    ['v1.23.0', ['kubernetes.io/aws-ebs', 'kubernetes.io/azure-disk', 'kubernetes.io/cinder', 'kubernetes.io/gce-pd']],
    ['v1.20.0', []],
  ] as const) assert.deepEqual(kubeletMigratedPlugins(version), want, version);
});

test('updateMigrationAnnotations: claims by storage-provisioner, volumes by provisioned-by; stale ones removed', () => {
  const cases: [Record<string, string>, boolean, boolean, Record<string, string>][] = [
    [{ 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/azure-disk' }, false, true,
      { 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/azure-disk', 'pv.kubernetes.io/migrated-to': 'disk.csi.azure.com' }],
    [{ 'pv.kubernetes.io/provisioned-by': 'disk.csi.azure.com', 'pv.kubernetes.io/migrated-to': 'x' }, false, true,
      { 'pv.kubernetes.io/provisioned-by': 'disk.csi.azure.com' }],
    // The PV controller names the CSI driver on a migrated claim: nothing more to add.
    [{ 'volume.kubernetes.io/storage-provisioner': 'disk.csi.azure.com' }, true, false, { 'volume.kubernetes.io/storage-provisioner': 'disk.csi.azure.com' }],
    [{ 'volume.beta.kubernetes.io/storage-provisioner': 'kubernetes.io/azure-file' }, true, true,
      { 'volume.beta.kubernetes.io/storage-provisioner': 'kubernetes.io/azure-file', 'pv.kubernetes.io/migrated-to': 'file.csi.azure.com' }],
    [{ other: 'x' }, false, false, { other: 'x' }],
  ];
  for (const [ann, claim, changed, want] of cases) {
    const a = { ...ann };
    assert.equal(updateMigrationAnnotations(a, claim), changed, JSON.stringify(ann));
    assert.deepEqual(a, want);
  }
});

test('StorageClass parameters: azure-disk drops zones and adds csi-migration; azure-file is unchanged', () => {
  assert.deepEqual(translateStorageClassParameters('kubernetes.io/azure-disk', { skuName: 'Premium_LRS', Zone: '1', zones: '1,2' }),
    { skuName: 'Premium_LRS', 'csi-migration': 'true' });
  assert.deepEqual(translateStorageClassParameters('kubernetes.io/azure-file', { skuName: 'Standard_LRS' }), { skuName: 'Standard_LRS' });
});

test('in-tree PersistentVolumes translate to the CSI source (handle, fsType, cachingMode, secret ref)', () => {
  const disk: PersistentVolume = { spec: { azureDisk: { diskName: 'd1', diskURI: URI, fsType: 'ntfs', cachingMode: 'ReadOnly', readOnly: true } } };
  assert.deepEqual(translateInTreePV(disk), {
    driver: 'disk.csi.azure.com', volumeHandle: URI, fsType: 'ntfs', readOnly: true,
    volumeAttributes: { kind: 'Managed', 'csi-migration': 'true', cachingMode: 'ReadOnly', fsType: 'ntfs' },
  });
  const file: PersistentVolume = {
    metadata: { annotations: { 'kubernetes.io/azure-file-resource-group': 'rg1' } },
    spec: { azureFile: { secretName: 'azure-storage-account-acct-secret', shareName: 'share', secretNamespace: 'team' } },
  };
  assert.deepEqual(translateInTreePV(file), {
    driver: 'file.csi.azure.com', volumeHandle: 'rg1#acct#share#', nodeStageSecretRef: { name: 'azure-storage-account-acct-secret', namespace: 'team' },
    volumeAttributes: { sharename: 'share' },
  });
  // A secret not named after an account stands for the account itself; the secret namespace defaults to `default`.
  assert.deepEqual(translateInTreePV({ spec: { azureFile: { secretName: 'creds', shareName: 's' } } })?.nodeStageSecretRef, { name: 'creds', namespace: 'default' });
  assert.equal(translateInTreePV({ spec: { azureFile: { secretName: 'creds', shareName: 's' } } })?.volumeHandle, '#creds#s#');
  assert.equal(translateInTreePV({ spec: { hostPath: { path: '/x' } } }), undefined);
});

test('inline volumes: named <driver>-<disk|share>, RWO disk, RWX share with the secret in the pod namespace', () => {
  assert.deepEqual(translateInlineVolume({ azureDisk: { diskName: 'd1', diskURI: URI } }, 'ns1'), {
    name: 'disk.csi.azure.com-d1', accessModes: ['ReadWriteOnce'],
    csi: { driver: 'disk.csi.azure.com', volumeHandle: URI, volumeAttributes: { kind: 'Managed', 'csi-migration': 'true' } },
  });
  assert.deepEqual(translateInlineVolume({ azureFile: { secretName: 'azure-storage-account-acct-secret', shareName: 'sh', readOnly: true } }, 'ns1'), {
    name: 'file.csi.azure.com-sh', accessModes: ['ReadWriteMany'],
    csi: { driver: 'file.csi.azure.com', volumeHandle: '#acct#sh#', readOnly: true, nodeStageSecretRef: { name: 'azure-storage-account-acct-secret', namespace: 'ns1' }, volumeAttributes: { sharename: 'sh' } },
  });
  assert.equal(translateInlineVolume({}, 'ns1'), undefined);
});

test('CSI volumes translate back to in-tree as the migrated external-provisioner stores them', () => {
  assert.deepEqual(translateCsiToInTree({ driver: 'disk.csi.azure.com', volumeHandle: URI, fsType: 'ext4', volumeAttributes: { cachingMode: 'None', skuName: 'x' } }), {
    azureDisk: { diskName: 'd1', diskURI: URI, fsType: 'ext4', readOnly: false, kind: 'Managed', cachingMode: 'None' }, annotations: {},
  });
  assert.deepEqual(translateCsiToInTree({ driver: 'disk.csi.azure.com', volumeHandle: 'nope' }),
    { error: 'could not get disk name from nope, correct format: .*/subscriptions/(?:.*)/resourceGroups/(?:.*)/providers/Microsoft.Compute/disks/(.+)' });
  assert.deepEqual(translateCsiToInTree({ driver: 'file.csi.azure.com', volumeHandle: 'rg#acct#pvc-1#', volumeAttributes: { secretNamespace: 'ops' } }), {
    azureFile: { shareName: 'pvc-1', secretName: 'azure-storage-account-acct-secret', secretNamespace: 'ops', readOnly: false },
    annotations: { 'kubernetes.io/azure-file-resource-group': 'rg' },
  });
  assert.deepEqual(translateCsiToInTree({ driver: 'file.csi.azure.com', volumeHandle: 'bad' }), { error: 'error parsing volume id: "bad", should at least contain two #' });
});
