import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindFilterRootfs, sandboxMountRoot } from './sandbox-mount.js';
import { expandSandboxMountPoint } from './container-env.js';

// hcsshim internal/jobcontainers/storage.go: v0.10 (containerd 1.7) binds the rootfs at C:\hpc\ in the silo when
// %SystemRoot%\system32\bindfltapi.dll exists (fileBindingSupported), else mounts it at C:\hpc\<container id>\
// (fallbackRootfsFormat); before hcsshim #1344 (v0.9, containerd 1.6) it was C:\C\<container id>. The DLL ships with
// WS2022 and reached WS2019 with the July 2022 update, KB5015811 = 17763.3165 (KEP-1981 "Compatibility").
const cases: [runtime: string, build: string, ubr: number | undefined, kernel: string, root: string, bind: boolean][] = [
  ['containerd://1.7.27', '10.0.20348', 2966, '10.0.20348.2966', 'C:\\hpc', true],
  ['containerd://1.7.0', '10.0.20348', 0, '10.0.20348.0', 'C:\\hpc', true],
  ['containerd://2.0.4', '10.0.26100', 3476, '10.0.26100.3476', 'C:\\hpc', true],
  ['containerd://1.7.27', '10.0.17763', 6893, '10.0.17763.6893', 'C:\\hpc', true],
  ['containerd://1.7.27', '10.0.17763', 3165, '10.0.17763.3165', 'C:\\hpc', true],
  ['containerd://1.7.27', '10.0.17763', 3164, '10.0.17763.3164', 'C:\\hpc\\0123abcd', false],
  ['containerd://1.7.27', '10.0.17763', undefined, '10.0.17763.2928', 'C:\\hpc\\0123abcd', false],
  ['containerd://1.7.27', '10.0.17763', undefined, '10.0.17763.4010', 'C:\\hpc', true],
  ['containerd://1.7.27', '10.0.19042', 2965, '10.0.19042.2965', 'C:\\hpc\\0123abcd', false],
  ['containerd://1.7.27', '10.0.20347', 1, '10.0.20347.1', 'C:\\hpc\\0123abcd', false],
  ['containerd://1.6.36', '10.0.20348', 2966, '10.0.20348.2966', 'C:\\C\\0123abcd', false],
  ['containerd://1.6.36', '10.0.17763', 6893, '10.0.17763.6893', 'C:\\C\\0123abcd', false],
  ['docker://20.10.24', '10.0.17763', 6893, '10.0.17763.6893', 'C:\\C\\0123abcd', false],
];
for (const [runtime, build, ubr, kernel, root, bind] of cases) {
  test(`HostProcess sandbox mount point: ${runtime} on ${kernel}${ubr === undefined ? ' (UBR from the kernel version)' : ''}`, () => {
    const profile = { containerRuntimeVersion: runtime, windowsBuild: build, windowsUBR: ubr, kernelVersion: kernel };
    assert.equal(sandboxMountRoot(profile, '0123abcd'), root);
    assert.equal(bindFilterRootfs(profile), bind);
  });
}

// jobcontainer.go replaceWithMountPoint: the variable in a command line becomes the mount point without its trailing
// backslash, so `$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1` is `C:\hpc/kube-proxy/start.ps1`.
test('the mount point variable in a HostProcess command line', () => {
  assert.deepEqual(
    expandSandboxMountPoint(['PowerShell', '/c', '$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1', '%CONTAINER_SANDBOX_MOUNT_POINT%\\x.exe'], { CONTAINER_SANDBOX_MOUNT_POINT: 'C:\\hpc\\' }),
    ['PowerShell', '/c', 'C:\\hpc/kube-proxy/start.ps1', 'C:\\hpc\\x.exe'],
  );
});
