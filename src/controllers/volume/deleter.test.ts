import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import { deleteDecision, externalShouldDelete, type DeleteDecision } from './deleter.js';
import { localPathTeardown, hostDirs, hostDirKey, removeHostDir } from '../../node/volumes/host-dirs.js';
import { Volume } from '../../node/shell/index.js';

const pv = (name: string, spec: PersistentVolume['spec'], provisionedBy?: string): PersistentVolume => ({
  metadata: { name, ...(provisionedBy ? { annotations: { 'pv.kubernetes.io/provisioned-by': provisionedBy } } : {}) },
  spec: { persistentVolumeReclaimPolicy: 'Delete', ...spec },
});

// pv_controller.go findDeletablePlugin; host_path.go hostPathDeleter.Delete.
describe('who deletes a released volume with reclaimPolicy Delete', () => {
  const cases: [string, PersistentVolume, DeleteDecision][] = [
    ['an NFS volume: no deleter', pv('nfs-pv', { nfs: { server: 's', path: '/e' } }),
      { error: 'error getting deleter volume plugin for volume "nfs-pv": no deletable volume plugin matched' }],
    ['a CSI volume nobody provisioned', pv('csi-pv', { csi: { driver: 'smb.csi.k8s.io', volumeHandle: 'h' } }),
      { error: 'error getting deleter volume plugin for volume "csi-pv": no deletable volume plugin matched' }],
    ['a local volume', pv('local-pv', { local: { path: '/mnt/disk' } }),
      { error: 'error getting deleter volume plugin for volume "local-pv": no deletable volume plugin matched' }],
    ['a hostPath outside /tmp', pv('hp', { hostPath: { path: '/data/pv' } }),
      { error: 'host_path deleter only supports /tmp/.+ but received provided /data/pv' }],
    ['a hostPath under /tmp', pv('hp-tmp', { hostPath: { path: '/tmp/pv1' } }), { hostPath: '/tmp/pv1' }],
    ['the deleter\'s regexp is unanchored', pv('hp-any', { hostPath: { path: '/var/tmp/x' } }), { hostPath: '/var/tmp/x' }],
    ['/tmp itself is not enough', pv('hp-root', { hostPath: { path: '/tmp/' } }),
      { error: 'host_path deleter only supports /tmp/.+ but received provided /tmp/' }],
    ['a CSI volume its driver provisioned: external', pv('p', { csi: { driver: 'smb.csi.k8s.io', volumeHandle: 'h' } }, 'smb.csi.k8s.io'), { external: 'smb.csi.k8s.io' }],
    ['local-path\'s volume: external', pv('lp', { hostPath: { path: '/var/local-path-provisioner/x' } }, 'rancher.io/local-path'), { external: 'rancher.io/local-path' }],
    ['an in-tree name that has no plugin', pv('gone', { nfs: { server: 's', path: '/' } }, 'kubernetes.io/aws-ebs'), { error: 'no volume plugin matched name: kubernetes.io/aws-ebs' }],
  ];
  for (const [title, volume, want] of cases) it(title, () => assert.deepEqual(deleteDecision(volume), want));

  it('an external provisioner deletes only released volumes it provisioned', () => {
    const mine = { ...pv('a', { csi: { driver: 'd', volumeHandle: 'h' } }, 'd'), status: { phase: 'Released' } };
    assert.equal(externalShouldDelete(mine, 'd'), true);
    assert.equal(externalShouldDelete(mine, 'other'), false);
    assert.equal(externalShouldDelete({ ...mine, status: { phase: 'Bound' } }, 'd'), false);
    assert.equal(externalShouldDelete({ ...mine, spec: { ...mine.spec, persistentVolumeReclaimPolicy: 'Retain' } }, 'd'), false);
  });
});

describe('local-path teardown removes the volume\'s directory on its node', () => {
  const lp = (policy: string): PersistentVolume => ({
    metadata: { name: 'pvc-1', annotations: { 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path', 'local.path.provisioner/selected-node': 'win-1' } },
    spec: { persistentVolumeReclaimPolicy: policy, hostPath: { path: 'C:\\local-path-provisioner\\pvc-1_default_data' } },
  });
  it('Delete tears the directory down, with what pods mounted below it', () => {
    const t = localPathTeardown(lp('Delete'))!;
    assert.deepEqual(t, { node: 'win-1', path: 'C:\\local-path-provisioner\\pvc-1_default_data' });
    const dirs = hostDirs('win-1');
    dirs.set(hostDirKey('windows', 'C:/local-path-provisioner/pvc-1_default_data'), new Volume('windows', 0));
    dirs.set(hostDirKey('windows', 'c:\\local-path-provisioner\\pvc-1_default_data\\sub'), new Volume('windows', 0));
    dirs.set(hostDirKey('windows', 'C:\\local-path-provisioner\\pvc-2_default_data'), new Volume('windows', 0));
    assert.equal(removeHostDir(t.node, 'windows', t.path), true);
    assert.deepEqual([...dirs.keys()], ['c:\\local-path-provisioner\\pvc-2_default_data']);
  });
  it('Retain keeps it; other provisioners\' volumes are not local-path\'s', () => {
    assert.equal(localPathTeardown(lp('Retain')), undefined);
    assert.equal(localPathTeardown({ ...lp('Delete'), metadata: { name: 'x' } }), undefined);
  });
});
