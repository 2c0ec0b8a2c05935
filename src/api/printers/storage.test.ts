// Table rows of the storage printers against kube's (pkg/printers/internalversion/printers.go printPersistentVolume,
// printPersistentVolumeClaim, printStorageClass, printVolumeAttachment, printCSIDriver, printCSINode): cell for cell,
// the wide (priority 1) columns included.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { PERSISTENT_VOLUME_CLAIM_TABLE, PERSISTENT_VOLUME_TABLE, STORAGE_CLASS_TABLE } from './storage.js';
import { CSI_DRIVER_TABLE, CSI_NODE_TABLE, VOLUME_ATTACHMENT_TABLE } from './storage-csi.js';

const NOW = Date.parse('2026-01-01T00:01:30Z');
const meta = (extra: object = {}) => ({ name: 'x', creationTimestamp: '2026-01-01T00:00:00Z', ...extra });
const header = (t: TableDef) => t.columns.map((c) => (c.priority ? `${c.name}*` : c.name)).join('|');

describe('storage table columns are kube\'s, in kube\'s order (* = -o wide)', () => {
  const cases: [string, TableDef, string][] = [
    ['pv', PERSISTENT_VOLUME_TABLE, 'Name|Capacity|Access Modes|Reclaim Policy|Status|Claim|StorageClass|VolumeAttributesClass|Reason|Age|VolumeMode*'],
    ['pvc', PERSISTENT_VOLUME_CLAIM_TABLE, 'Name|Status|Volume|Capacity|Access Modes|StorageClass|VolumeAttributesClass|Age|VolumeMode*'],
    ['storageclass', STORAGE_CLASS_TABLE, 'Name|Provisioner|ReclaimPolicy|VolumeBindingMode|AllowVolumeExpansion|Age'],
    ['volumeattachment', VOLUME_ATTACHMENT_TABLE, 'Name|Attacher|PV|Node|Attached|Age'],
    ['csidriver', CSI_DRIVER_TABLE, 'Name|AttachRequired|PodInfoOnMount|StorageCapacity|TokenRequests|RequiresRepublish|Modes|Age'],
    ['csinode', CSI_NODE_TABLE, 'Name|Drivers|Age'],
  ];
  for (const [name, table, want] of cases) it(name, () => assert.equal(header(table), want));

  it('the column types kube declares', () => {
    assert.deepEqual(VOLUME_ATTACHMENT_TABLE.columns.map((c) => `${c.type}${c.format ? `/${c.format}` : ''}`), ['string/name', 'string/name', 'string', 'string', 'boolean', 'string']);
    assert.deepEqual(CSI_NODE_TABLE.columns.map((c) => c.type), ['string', 'integer', 'string']);
    assert.deepEqual(STORAGE_CLASS_TABLE.columns.map((c) => c.type), ['string', 'string', 'string', 'string', 'string', 'string']);
  });
});

describe('storage table rows', () => {
  const cases: [string, TableDef, object, TableCell[]][] = [
    [
      'bound pv: canonical capacity, modes in kube\'s order, claim ns/name, <unset> attributes class and mode',
      PERSISTENT_VOLUME_TABLE,
      { metadata: meta(), spec: { capacity: { storage: '1024Mi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Delete', claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'managed-csi' }, status: { phase: 'Bound' } },
      ['x', '1Gi', 'RWO,RWX', 'Delete', 'Bound', 'default/data', 'managed-csi', '<unset>', '', '90s', '<unset>'],
    ],
    [
      'a pv being deleted is Terminating; its reason and volume mode show',
      PERSISTENT_VOLUME_TABLE,
      { metadata: meta({ deletionTimestamp: '2026-01-01T00:01:00Z' }), spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOncePod'], persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Block', volumeAttributesClassName: 'gold' }, status: { phase: 'Failed', reason: 'Recycle failed' } },
      ['x', '5Gi', 'RWOP', 'Retain', 'Terminating', '', '', 'gold', 'Recycle failed', '90s', 'Block'],
    ],
    [
      'the beta class annotation wins over storageClassName; no capacity prints as the zero quantity',
      PERSISTENT_VOLUME_TABLE,
      { metadata: meta({ annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } }), spec: { storageClassName: 'new' }, status: { phase: 'Available' } },
      ['x', '0', '', '', 'Available', '', 'old', '<unset>', '', '90s', '<unset>'],
    ],
    [
      'pending pvc: no volume, so no capacity or access modes',
      PERSISTENT_VOLUME_CLAIM_TABLE,
      { metadata: meta(), spec: { storageClassName: 'managed-csi', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } },
      ['x', 'Pending', '', '', '', 'managed-csi', '<unset>', '90s', '<unset>'],
    ],
    [
      'bound pvc shows status capacity (not the request) and status access modes',
      PERSISTENT_VOLUME_CLAIM_TABLE,
      { metadata: meta(), spec: { volumeName: 'pvc-1', storageClassName: 'managed-csi', volumeMode: 'Filesystem', resources: { requests: { storage: '2Gi' } } }, status: { phase: 'Bound', capacity: { storage: '1024Mi' }, accessModes: ['ReadWriteOnce'] } },
      ['x', 'Bound', 'pvc-1', '1Gi', 'RWO', 'managed-csi', '<unset>', '90s', 'Filesystem'],
    ],
    [
      'a pvc being deleted is Terminating',
      PERSISTENT_VOLUME_CLAIM_TABLE,
      { metadata: meta({ deletionTimestamp: '2026-01-01T00:01:00Z' }), spec: { volumeName: 'pvc-1', volumeAttributesClassName: 'gold' }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany'] } },
      ['x', 'Terminating', 'pvc-1', '1Gi', 'RWX', '', 'gold', '90s', '<unset>'],
    ],
    [
      'default storageclass (GA annotation) with its defaults',
      STORAGE_CLASS_TABLE,
      { metadata: meta({ annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'disk.csi.azure.com' },
      ['x (default)', 'disk.csi.azure.com', 'Delete', 'Immediate', false, '90s'],
    ],
    [
      'default storageclass (beta annotation), set fields',
      STORAGE_CLASS_TABLE,
      { metadata: meta({ annotations: { 'storageclass.beta.kubernetes.io/is-default-class': 'true' } }), provisioner: 'rancher.io/local-path', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true },
      ['x (default)', 'rancher.io/local-path', 'Retain', 'WaitForFirstConsumer', true, '90s'],
    ],
    [
      'a class whose annotation is not "true" is not the default',
      STORAGE_CLASS_TABLE,
      { metadata: meta({ annotations: { 'storageclass.kubernetes.io/is-default-class': 'false' } }), provisioner: 'smb.csi.k8s.io' },
      ['x', 'smb.csi.k8s.io', 'Delete', 'Immediate', false, '90s'],
    ],
    [
      'volumeattachment, attached',
      VOLUME_ATTACHMENT_TABLE,
      { metadata: meta(), spec: { attacher: 'disk.csi.azure.com', nodeName: 'w2022-1', source: { persistentVolumeName: 'pvc-1' } }, status: { attached: true } },
      ['x', 'disk.csi.azure.com', 'pvc-1', 'w2022-1', true, '90s'],
    ],
    [
      'volumeattachment of an inline volume, no status yet',
      VOLUME_ATTACHMENT_TABLE,
      { metadata: meta(), spec: { attacher: 'disk.csi.azure.com', nodeName: 'n', source: { inlineVolumeSpec: {} } } },
      ['x', 'disk.csi.azure.com', '', 'n', false, '90s'],
    ],
    [
      'csidriver defaults: attach required, <unset> token requests, <none> modes',
      CSI_DRIVER_TABLE,
      { metadata: meta(), spec: {} },
      ['x', true, false, false, '<unset>', false, '<none>', '90s'],
    ],
    [
      'csidriver with audiences and modes; an empty token list prints empty, not <unset>',
      CSI_DRIVER_TABLE,
      { metadata: meta(), spec: { attachRequired: false, podInfoOnMount: true, storageCapacity: true, tokenRequests: [{ audience: 'a' }, { audience: 'b' }], requiresRepublish: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'] } },
      ['x', false, true, true, 'a,b', true, 'Persistent,Ephemeral', '90s'],
    ],
    ['csidriver, empty token list', CSI_DRIVER_TABLE, { metadata: meta(), spec: { tokenRequests: [] } }, ['x', true, false, false, '', false, '<none>', '90s']],
    ['csinode counts its drivers', CSI_NODE_TABLE, { metadata: meta(), spec: { drivers: [{ name: 'a', nodeID: 'n' }, { name: 'b', nodeID: 'n' }] } }, ['x', 2, '90s']],
    ['csinode without drivers', CSI_NODE_TABLE, { metadata: meta(), spec: { drivers: null } }, ['x', 0, '90s']],
  ];
  for (const [name, table, obj, want] of cases) {
    it(name, () => assert.deepEqual(table.row(obj as unknown as KubeObject, NOW), want));
  }
});
