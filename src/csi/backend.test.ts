import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume } from 'kubernetes-types/core/v1.js';
import { csiPersistentVolume } from '../node/volumes/csi-node.js';
import { backendVolume, csiBackendKey, csiDataKey, hasBackendVolume, persistentVolumeDeleted } from './backend.js';
import { DISK_DRIVER, SMB_DRIVER } from './drivers.js';

const pv = (driver: string, handle: string, reclaim?: string, provisionedBy: string | null = driver): PersistentVolume => ({
  metadata: { name: 'pv', ...(provisionedBy ? { annotations: { 'pv.kubernetes.io/provisioned-by': provisionedBy } } : {}) },
  spec: { csi: { driver, volumeHandle: handle }, ...(reclaim ? { persistentVolumeReclaimPolicy: reclaim } : {}) },
});

describe('the emulated storage system: DeleteVolume drops a volume\'s data', () => {
  it('the node mounts a CSI volume under the key the storage system drops', () => {
    const r = csiPersistentVolume('pv', { driver: SMB_DRIVER.name, volumeHandle: 'h' }, { name: 'n', os: 'linux', kubeletVersion: 'v1.33.0' }, {});
    assert.deepEqual(r, { key: csiBackendKey(SMB_DRIVER.name, 'h') });
  });

  // [title, volume, data dropped]
  const cases: [string, PersistentVolume, boolean][] = [
    ['Delete on an emulated disk', pv(DISK_DRIVER.name, 'disk-a', 'Delete'), true],
    ['Delete on an emulated share', pv(SMB_DRIVER.name, 'srv/share#pvc-1##', 'Delete'), true],
    ['Retain keeps the data', pv(DISK_DRIVER.name, 'disk-b', 'Retain'), false],
    ['no policy on a PV object means Retain', pv(DISK_DRIVER.name, 'disk-c'), false],
    ['another vendor\'s driver is not ours to delete', pv('ebs.csi.aws.com', 'vol-1', 'Delete'), false],
    // external-provisioner deletes only what it provisioned (pv.kubernetes.io/provisioned-by names its driver).
    ['a statically made volume stays on the storage system', pv(DISK_DRIVER.name, 'disk-d', 'Delete', null), false],
    ['a volume another provisioner made stays', pv(SMB_DRIVER.name, 'srv/share#x##', 'Delete', 'other.example.com'), false],
  ];
  for (const [title, volume, dropped] of cases) {
    it(title, () => {
      const key = csiDataKey(volume.spec!.csi!);
      const before = backendVolume(key, 'windows', 0);
      before.root.children.set('old.txt', { kind: 'file', name: 'old.txt', mode: 0o644, uid: 0, gid: 0, mtimeMs: 0, ino: 1, data: Buffer.from('old') });
      backendVolume(key, 'windows', 0); // the next merge sends it to the storage system
      assert.equal(persistentVolumeDeleted(volume), dropped);
      assert.equal(hasBackendVolume(key), !dropped);
      // A volume created later with the same handle sees the old files only if the old ones were kept.
      assert.equal(backendVolume(key, 'windows', 1).root.children.has('old.txt'), !dropped);
    });
  }
});

describe('a container\'s own processes keep mounted volumes in step (no exec needed)', () => {
  it('a write by one container reaches another OS view at the next revalidation; a stopped container is no longer merged', async () => {
    const { VirtualFs } = await import('../node/shell/index.js');
    const { mountBackendVolume, syncLiveVolumes, unmountBackendVolumes } = await import('./backend.js');
    const key = csiBackendKey(DISK_DRIVER.name, 'live-1');
    const lin = new VirtualFs('linux', () => 0);
    const win = new VirtualFs('windows', () => 0);
    mountBackendVolume(lin, '/data', key, 0, { readOnly: false, source: 'csi' });
    mountBackendVolume(win, 'C:\\data', key, 0, { readOnly: false, source: 'csi' });
    lin.writeFile('/data/from-main.txt', 'written by the command\n'); // the main process, not an exec session
    assert.equal(win.exists('C:\\data\\from-main.txt'), false, 'not before a merge');
    syncLiveVolumes();
    assert.equal(win.readFile('C:\\data\\FROM-MAIN.txt').toString(), 'written by the command\n');
    unmountBackendVolumes(lin);
    win.writeFile('C:\\data\\later.txt', 'x');
    syncLiveVolumes();
    assert.equal(lin.exists('/data/later.txt'), false, 'the stopped container\'s copy is not merged any more');
    unmountBackendVolumes(win);
  });
});
