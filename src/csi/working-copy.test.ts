import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { VirtualFs } from '../node/shell/index.js';
import { DirStore, MemoryStore, type VolumeStore } from './volume-store.js';
import { WorkingCopy } from './working-copy.js';
import { storeLocation } from './backend.js';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
function tempStore(): DirStore {
  const d = mkdtempSync(join(tmpdir(), 'winkube-volstore-'));
  dirs.push(d);
  return new DirStore(d);
}

/** A container filesystem with the working copy mounted at /data (C:\data on Windows). */
function mounted(wc: WorkingCopy): { fs: VirtualFs; at: string } {
  const fs = new VirtualFs(wc.os, () => 1_700_000_000_000);
  const at = wc.os === 'windows' ? 'C:\\data' : '/data';
  wc.sync();
  fs.mount(at, wc.volume);
  return { fs, at };
}

const stores: [string, () => VolumeStore][] = [['memory', () => new MemoryStore()], ['a directory', tempStore]];
// Two working copies on one store are two node-agent processes mounting one share; a Windows one is a Windows pod's view.
describe('merging with the store', () => {
  for (const [title, make] of stores) {
    it(`${title}: writes, removals and renames travel both ways; owners and modes with them`, () => {
      const store = make();
      const wcA = new WorkingCopy(store, 'disk/h1', 'linux', 0);
      const wcB = new WorkingCopy(store, 'disk/h1', 'linux', 0);
      const wcW = new WorkingCopy(store, 'disk/h1', 'windows', 0);
      const A = mounted(wcA); const B = mounted(wcB); const W = mounted(wcW);
      A.fs.mkdir('/data/logs', { mode: 0o777 });
      A.fs.writeFile('/data/logs/Hello.txt', 'from A\n', { mode: 0o600, cred: { uid: 1000, gids: [1000], admin: false } });
      assert.equal(B.fs.exists('/data/logs/Hello.txt'), false, 'not before the merges');
      wcA.sync(); wcB.sync(); wcW.sync();
      assert.equal(B.fs.readFile('/data/logs/Hello.txt').toString(), 'from A\n');
      const n = B.fs.stat('/data/logs/Hello.txt')!;
      assert.deepEqual([n.mode, n.uid, n.gid], [0o600, 1000, 1000]);
      // The Windows view of the same data matches names without case.
      assert.equal(W.fs.readFile('C:\\data\\LOGS\\hello.TXT').toString(), 'from A\n');
      // Windows writes back; Linux sees the file under the name Windows gave it.
      W.fs.writeFile('C:\\data\\logs\\from-win.txt', 'win\r\n');
      W.fs.writeFile('C:\\data\\logs\\HELLO.txt', 'changed on Windows\r\n');
      wcW.sync(); wcA.sync();
      assert.equal(A.fs.readFile('/data/logs/from-win.txt').toString(), 'win\r\n');
      assert.equal(A.fs.readFile('/data/logs/Hello.txt').toString(), 'changed on Windows\r\n', 'the stored name keeps its case');
      // A removal on B reaches A; a rename is a removal and a write.
      wcB.sync();
      B.fs.unlink('/data/logs/from-win.txt');
      B.fs.rename('/data/logs/Hello.txt', '/data/logs/renamed.txt');
      wcB.sync(); wcA.sync();
      assert.deepEqual(A.fs.readdir('/data/logs').map((x) => x.name).sort(), ['renamed.txt']);
      // A merge with nothing changed keeps the same nodes (the inode of an unchanged file stays).
      const ino = A.fs.stat('/data/logs/renamed.txt')!.ino;
      wcA.sync();
      assert.equal(A.fs.stat('/data/logs/renamed.txt')!.ino, ino);
      // Removing a directory tree here removes it in the store.
      A.fs.removeTree('/data/logs');
      wcA.sync(); wcB.sync();
      assert.equal(B.fs.exists('/data/logs'), false);
    });
  }

  it('a directory store keeps the files as plain files an administrator can read', () => {
    const store = tempStore();
    const wc = new WorkingCopy(store, 'smb/server/share', 'windows', 0);
    const W = mounted(wc);
    W.fs.mkdir('C:\\data\\site');
    W.fs.writeFile('C:\\data\\site\\index.html', '<h1>hi</h1>');
    wc.sync();
    assert.equal(readFileSync(join(store.root, 'smb', 'server', 'share', 'site', 'index.html'), 'utf8'), '<h1>hi</h1>');
    // A file the administrator puts in the export shows up at the next merge.
    writeFileSync(join(store.root, 'smb', 'server', 'share', 'seeded.txt'), 'seed');
    wc.sync();
    assert.equal(W.fs.readFile('C:\\data\\seeded.txt').toString(), 'seed');
    store.drop('smb/server/share');
    assert.equal(existsSync(join(store.root, 'smb', 'server', 'share')), false);
  });

  it('a disk keeps its data across a detach on one agent and an attach on another', () => {
    const store = tempStore();
    const onA = new WorkingCopy(store, 'disk.csi.azure.com/d1', 'windows', 0);
    const A = mounted(onA);
    A.fs.writeFile('C:\\data\\state.txt', 'v1');
    onA.sync(); // unstage on A flushes
    const onB = new WorkingCopy(store, 'disk.csi.azure.com/d1', 'windows', 0);
    const B = mounted(onB); // stage on B loads
    assert.equal(B.fs.readFile('C:\\data\\state.txt').toString(), 'v1');
  });
});

describe('where a key\'s data lives in the store', () => {
  const cases: [string, string][] = [
    ['csi:smb.csi.k8s.io/srv/share#pvc-1##', 'smb.csi.k8s.io/srv%2Fshare%23pvc-1%23%23'],
    ['nfs:10.0.0.5:/exports/team', 'nfs/10.0.0.5/exports/team'],
    ['nfs:server:/exports/../../etc', 'nfs/server/exports/etc'],
    ['flex:smb:server/share', 'smb/server/share'],
    ['flex:iscsi:10.0.0.1:3260/iqn.x/0', 'iscsi/10.0.0.1%3A3260%2Fiqn.x%2F0'],
  ];
  for (const [key, loc] of cases) it(key, () => assert.equal(storeLocation(key).loc, loc));
});
