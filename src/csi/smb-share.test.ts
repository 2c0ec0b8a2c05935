import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flexVolume } from '../node/volumes/flex-volume.js';
import { csiPersistentVolume } from '../node/volumes/csi-node.js';
import { storeLocation } from './backend.js';
import { SMB_DRIVER } from './drivers.js';
import { smbCsiKey } from './smb-share.js';

const node = { name: 'win', os: 'windows' as const, kubeletVersion: 'v1.33.1' };
const flexKey = (source: string) => {
  const r = flexVolume({ driver: 'microsoft.com/smb.cmd', options: { source } }, 'v', 'default', ['microsoft.com/smb.cmd'], () => undefined);
  return 'key' in r ? r.key : r;
};
const csiKey = (volumeHandle: string, volumeAttributes?: Record<string, string>) => {
  const r = csiPersistentVolume('pv', { driver: SMB_DRIVER.name, volumeHandle, volumeAttributes }, node, {});
  return 'key' in r ? r.key : r;
};

describe('one SMB share through csi-driver-smb and through the SMB FlexVolume is one data directory', () => {
  // [title, CSI key, FlexVolume key]: both must name the same store location.
  const same: [string, string | object, string | object][] = [
    ['a static CSI volume on the share root and the FlexVolume on \\\\server\\share',
      csiKey('any-id', { source: '//smb-server.default.svc.cluster.local/share' }), flexKey('\\\\smb-server.default.svc.cluster.local\\share')],
    ['share names match without case', csiKey('id', { source: '//SMB-Server/Share' }), flexKey('smb://smb-server/share')],
    ['a CSI subDir attribute (any case) and a FlexVolume path below the share',
      csiKey('id', { source: '//srv/share', subDir: 'team' }), flexKey('\\\\srv\\share\\team')],
    ['a dynamically provisioned CSI volume: the handle names share and subDir',
      csiKey('srv/share#pvc-1##', { source: '//srv/share' }), flexKey('//srv/share/pvc-1')],
    ['a handle alone (no attributes)', csiKey('srv/share#pvc-2##'), flexKey('\\\\srv\\share\\pvc-2')],
  ];
  for (const [title, c, f] of same) {
    it(title, () => {
      assert.equal(typeof c, 'string');
      assert.equal(storeLocation(c as string).loc, storeLocation(f as string).loc);
    });
  }
  it('a subDir attribute wins over the handle\'s, and a handle without a share keeps its own data', () => {
    assert.equal(smbCsiKey('srv/share#a##', { source: '//srv/share', SUBDIR: 'b' }), 'smb:srv/share/b');
    assert.equal(smbCsiKey('plain-id', undefined), undefined);
    assert.equal(storeLocation(csiKey('plain-id') as string).loc, 'smb.csi.k8s.io/plain-id');
  });
});
