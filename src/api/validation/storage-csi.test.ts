import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CSIDriver, CSINode, VolumeAttachment } from 'kubernetes-types/storage/v1.js';
import { defaultCSIDriver } from '../strategies/storage-csi.js';
import { CSI_DRIVER_TABLE, CSI_NODE_TABLE, VOLUME_ATTACHMENT_TABLE } from '../printers/storage-csi.js';
import type { KubeObject } from '../types.js';
import { validateCSIDriver, validateCSIDriverUpdate, validateCSINode, validateCSINodeUpdate, validateVolumeAttachment, validateVolumeAttachmentUpdate } from './storage-csi.js';

const msgs = (errs: { field: string; type?: string; detail?: string }[]) => errs.map((e) => `${e.field}`);
const driver = (name: string, spec: CSIDriver['spec'] = {}): CSIDriver => {
  const d: CSIDriver = { metadata: { name }, spec: { ...spec } };
  defaultCSIDriver(d);
  return d;
};

test('CSIDriver defaults (SetDefaults_CSIDriver) and name rules (ValidateCSIDriverName on `name`)', () => {
  const d = driver('smb.csi.k8s.io');
  assert.deepEqual(d.spec, { attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false });
  assert.deepEqual(validateCSIDriver(d), []);
  assert.deepEqual(msgs(validateCSIDriver(driver('Bad_Name!'))), ['name']);
  assert.deepEqual(msgs(validateCSIDriver(driver(`${'a'.repeat(64)}`))), ['name']);
  assert.deepEqual(msgs(validateCSIDriver(driver('x', { volumeLifecycleModes: ['Forever'] }))), ['spec.volumeLifecycleModes']);
  assert.deepEqual(msgs(validateCSIDriver(driver('x', { tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }] }))), ['spec.tokenRequests[0].expirationSeconds', 'spec.tokenRequests[1].audience']);
});

test('CSIDriver update: attachRequired (path `spec.attachedRequired`, as kube spells it) and modes are immutable', () => {
  const old = driver('d');
  const errs = validateCSIDriverUpdate(driver('d', { attachRequired: false, volumeLifecycleModes: ['Ephemeral'] }), old);
  assert.deepEqual(errs.map((e) => `${e.field}: ${e.detail}`), ['spec.attachedRequired: field is immutable', 'spec.volumeLifecycleModes: field is immutable']);
});

test('CSINode: driver names, node IDs, duplicates; node IDs immutable', () => {
  const n = (drivers: CSINode['spec']['drivers']): CSINode => ({ metadata: { name: 'node-1' }, spec: { drivers } });
  assert.deepEqual(validateCSINode(n([{ name: 'a.b', nodeID: 'node-1' }])), []);
  assert.deepEqual(msgs(validateCSINode(n([{ name: 'a.b', nodeID: '' }, { name: 'a.b', nodeID: 'x'.repeat(193) }]))), ['spec.drivers[0].nodeID', 'spec.drivers[1].nodeID', 'spec.drivers[1].name']);
  const errs = validateCSINodeUpdate(n([{ name: 'a.b', nodeID: 'other' }]), n([{ name: 'a.b', nodeID: 'node-1' }]));
  assert.deepEqual(errs.map((e) => `${e.field}: ${e.detail}`), ['spec.drivers[0].nodeID: field is immutable']);
});

test('VolumeAttachment: one source, a node name, an attacher; spec read-only', () => {
  const va = (spec: Partial<VolumeAttachment['spec']>): VolumeAttachment => ({ metadata: { name: 'csi-1' }, spec: { attacher: 'disk.csi.azure.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' }, ...spec } });
  assert.deepEqual(validateVolumeAttachment(va({})), []);
  assert.deepEqual(validateVolumeAttachment(va({ source: {} })).map((e) => `${e.field}: ${e.detail}`), ['spec.source: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
  assert.deepEqual(msgs(validateVolumeAttachment(va({ attacher: '', nodeName: '' }))), ['spec.attacher', 'spec.nodeName']);
  assert.deepEqual(validateVolumeAttachmentUpdate(va({ nodeName: 'n2' }), va({})).map((e) => `${e.field}: ${e.detail}`), ['spec: field is immutable']);
});

test('Table rows as printers.go prints them', () => {
  const now = Date.parse('2025-01-01T00:10:00Z');
  const meta = { name: 'x', creationTimestamp: '2025-01-01T00:00:00Z' };
  const d = { ...driver('hostpath.csi.k8s.io', { volumeLifecycleModes: ['Persistent', 'Ephemeral'] }), metadata: { ...meta, name: 'hostpath.csi.k8s.io' } };
  assert.deepEqual(CSI_DRIVER_TABLE.columns.map((c) => c.name), ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
  assert.deepEqual(CSI_DRIVER_TABLE.row(d as unknown as KubeObject, now), ['hostpath.csi.k8s.io', true, false, false, '<unset>', false, 'Persistent,Ephemeral', '10m']);
  assert.deepEqual(CSI_NODE_TABLE.row({ metadata: meta, spec: { drivers: [{ name: 'a', nodeID: 'x' }] } } as unknown as KubeObject, now), ['x', 1, '10m']);
  assert.deepEqual(VOLUME_ATTACHMENT_TABLE.columns.map((c) => c.name), ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
  assert.deepEqual(VOLUME_ATTACHMENT_TABLE.row({ metadata: meta, spec: { attacher: 'a', nodeName: 'n', source: { persistentVolumeName: 'pv' } }, status: { attached: true } } as unknown as KubeObject, now), ['x', 'a', 'pv', 'n', true, '10m']);
});
