import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualFs, type Volume } from '../shell/index.js';
import { hostDirVolume, hostDirs, removeHostDir } from './host-dirs.js';

describe('hostPath mounts are views of one node disk', () => {
  // [os, parent path, child path as a pod names it, parent mount, child mount]
  const cases: ['linux' | 'windows', string, string, string, string][] = [
    ['linux', '/var/local-path-provisioner/', '/var/local-path-provisioner/pvc-1_default_data', '/var/local-path-provisioner', '/data'],
    ['windows', 'C:\\local-path-provisioner\\', 'c:/Local-Path-Provisioner/pvc-1_default_data', 'C:\\local-path-provisioner', 'C:\\data'],
  ];
  for (const [os, parent, child, atParent, atChild] of cases) {
    it(`${os}: a directory made under a mounted parent is what a later mount of the child shows, both ways`, () => {
      const table = new Map<string, Volume>();
      const helper = new VirtualFs(os, () => 0);
      helper.mount(atParent, hostDirVolume(table, os, parent, 0));
      const volDir = os === 'windows' ? `${atParent}\\pvc-1_default_data` : `${atParent}/pvc-1_default_data`;
      helper.mkdir(volDir, { mode: 0o777 });
      const consumer = new VirtualFs(os, () => 0);
      consumer.mount(atChild, hostDirVolume(table, os, child, 0));
      assert.equal(consumer.stat(atChild)!.mode, 0o777, 'the mode the setup script gave');
      consumer.writeFile(os === 'windows' ? 'C:\\data\\f.txt' : '/data/f.txt', 'hi');
      assert.equal(helper.readFile(os === 'windows' ? `${volDir}\\f.txt` : `${volDir}/f.txt`).toString(), 'hi');
      // The teardown's rm -rf through the parent: a new mount of the child starts empty.
      helper.removeTree(volDir);
      assert.equal(new VirtualFs(os, () => 0).mount(atChild, hostDirVolume(table, os, child, 0)).root.children.size, 0);
    });
  }
  it('removeHostDir takes the directory off the node disk', () => {
    const table = hostDirs('hd-node');
    const v = hostDirVolume(table, 'linux', '/srv/a/b', 0);
    const fs = new VirtualFs('linux', () => 0);
    fs.mount('/x', v);
    fs.writeFile('/x/f', '1');
    assert.equal(removeHostDir('hd-node', 'linux', '/srv/a'), true);
    assert.equal(hostDirVolume(table, 'linux', '/srv/a/b', 0).root.children.size, 0);
  });
});
