import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxMountRoot } from './sandbox-mount.js';
import { expandSandboxMountPoint } from './container-env.js';

// hcsshim internal/jobcontainers/storage.go (v0.10, containerd 1.7): the rootfs is bound at C:\hpc\ in the silo;
// before hcsshim #1344 (containerd 1.6) it was mounted for the whole host at C:\C\<container id>.
test('HostProcess sandbox mount point by the node\'s containerd', () => {
  for (const [version, want] of [
    ['containerd://1.7.27', 'C:\\hpc'],
    ['containerd://1.7.0', 'C:\\hpc'],
    ['containerd://2.0.4', 'C:\\hpc'],
    ['containerd://1.6.36', 'C:\\C\\0123abcd'],
    ['docker://20.10.24', 'C:\\C\\0123abcd'],
  ] as const) assert.equal(sandboxMountRoot({ containerRuntimeVersion: version }, '0123abcd'), want, version);
});

// jobcontainer.go replaceWithMountPoint: the variable in a command line becomes the mount point without its trailing
// backslash, so `$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1` is `C:\hpc/kube-proxy/start.ps1`.
test('the mount point variable in a HostProcess command line', () => {
  assert.deepEqual(
    expandSandboxMountPoint(['PowerShell', '/c', '$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1', '%CONTAINER_SANDBOX_MOUNT_POINT%\\x.exe'], { CONTAINER_SANDBOX_MOUNT_POINT: 'C:\\hpc\\' }),
    ['PowerShell', '/c', 'C:\\hpc/kube-proxy/start.ps1', 'C:\\hpc\\x.exe'],
  );
});
