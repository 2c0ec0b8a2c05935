// Per-filesystem binds: a mount inside a directory that several filesystems share stays in the one that made it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FsError, Volume, VirtualFs } from './vfs.js';

const now = () => 0;
const files = (text: string) => new Map([['text.txt', text]]);

/** Two container filesystems sharing one host directory at C:\etc (a HostProcess container's view of the node). */
function twoContainers() {
  const host = new Volume('windows', 0);
  const a = new VirtualFs('windows', now);
  const b = new VirtualFs('windows', now);
  a.mount('C:\\etc', host, { source: 'hostPath' });
  b.mount('C:\\etc', host, { source: 'hostPath' });
  return { host, a, b };
}

// hcsshim internal/jobcontainers/mounts.go: the bind filter binds a mount for the container's silo only.
test('vfs bind: two filesystems mount different volumes at the same path inside a shared directory', () => {
  const { host, a, b } = twoContainers();
  a.mount('C:\\etc\\configmap', files('from a'), { readOnly: true });
  b.mount('C:\\etc\\configmap', files('from b'), { readOnly: true });
  assert.equal(a.readFile('C:\\etc\\configmap\\text.txt').toString(), 'from a');
  assert.equal(b.readFile('C:\\etc\\configmap\\text.txt').toString(), 'from b');
  assert.equal(host.root.children.size, 0, 'the shared directory itself is unchanged');
  const c = new VirtualFs('windows', now);
  c.mount('C:\\etc', host);
  assert.equal(c.exists('C:\\etc\\configmap'), false, 'a third filesystem sees no mount point');
});

test('vfs bind: what the shared directory holds and what one filesystem binds over it', () => {
  const { a, b } = twoContainers();
  a.writeFile('C:\\etc\\shared.conf', 'x');
  a.mount('C:\\etc\\deep\\cfg', files('t'), { readOnly: true, source: 'configmap' });
  for (const [name, fs, want] of [
    ['binder', a, ['deep', 'shared.conf']],
    ['other', b, ['shared.conf']],
  ] as const) {
    assert.deepEqual(fs.readdir('C:\\etc').map((n) => n.name).sort(), want, name);
  }
  assert.ok(a.mountTable().some((m) => m.path === 'C:\\etc\\deep\\cfg' && m.readOnly && m.source === 'configmap'));
});

test('vfs bind: one node at two paths with their own read-only flags; writes show through both', () => {
  const fs = new VirtualFs('windows', now);
  const vol = fs.mount('C:\\hpc\\etc\\cm', files('v1'));
  fs.bind('C:\\etc\\cm', vol.root, { readOnly: true });
  fs.writeFile('C:\\hpc\\etc\\cm\\extra.conf', 'written');
  assert.equal(fs.readFile('C:\\etc\\cm\\extra.conf').toString(), 'written');
  for (const [path, ro] of [['C:\\hpc\\etc\\cm\\text.txt', false], ['C:\\etc\\cm\\text.txt', true]] as const) {
    assert.equal(fs.isReadOnly(path), ro, path);
  }
  assert.throws(() => fs.writeFile('C:\\etc\\cm\\text.txt', 'no'), (e: unknown) => e instanceof FsError && e.code === 'EROFS');
  assert.throws(() => fs.rmdir('C:\\etc\\cm'), (e: unknown) => e instanceof FsError && e.code === 'EBUSY');
});
