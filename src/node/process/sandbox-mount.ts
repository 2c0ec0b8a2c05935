// Where a HostProcess container's image and volumes appear on the host, by the node's containerd (hcsshim
// internal/jobcontainers): the value of $env:CONTAINER_SANDBOX_MOUNT_POINT and the root its mounts are placed under.

import type { NodeProfile } from '../profile.js';

/**
 * hcsshim v0.10 (containerd 1.7) binds the container's rootfs at `C:\hpc\` inside the job's silo
 * (storage.go defaultSiloRootfsLocation, hcsshim #1344); hcsshim v0.9 (containerd 1.6) mounted it for every host
 * process to see at `C:\C\<container id>\`. Returned without the trailing backslash the environment variable has.
 */
export function sandboxMountRoot(profile: Pick<NodeProfile, 'containerRuntimeVersion'>, containerId: string): string {
  return bindFilterRootfs(profile) ? 'C:\\hpc' : `C:\\C\\${containerId}`;
}

/** containerd 1.7 and later ship the hcsshim that binds the rootfs at a fixed path per silo. */
export function bindFilterRootfs(profile: Pick<NodeProfile, 'containerRuntimeVersion'>): boolean {
  const m = /^containerd:\/\/v?(\d+)\.(\d+)/.exec(profile.containerRuntimeVersion);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 1 || (major === 1 && minor >= 7);
}
