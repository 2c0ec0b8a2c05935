// Where a HostProcess container's image and volumes appear on the host, by the node's containerd (hcsshim
// internal/jobcontainers) and its Windows build: the value of $env:CONTAINER_SANDBOX_MOUNT_POINT, the root its mounts
// are placed under, and whether the bind filter also binds them per container.

import type { NodeProfile } from '../profile.js';
import { buildNumber } from '../profile.js';

type MountProfile = Pick<NodeProfile, 'containerRuntimeVersion' | 'windowsBuild' | 'windowsUBR' | 'kernelVersion'>;

/** Windows Server 2022's build: it ships bindfltapi.dll. */
const WS2022 = 20348;
/** Windows Server 2019's build and the UBR of its July 2022 cumulative update (KB5015811, 17763.3165) that added the API. */
const WS2019 = 17763;
const WS2019_BINDFLT_UBR = 3165;

/**
 * hcsshim v0.10 (containerd 1.7) with the bind filter binds the container's rootfs at `C:\hpc\` inside the job's silo
 * (storage.go defaultSiloRootfsLocation, hcsshim #1344); without it the rootfs is at `C:\hpc\<container id>\` for
 * every host process to see (fallbackRootfsFormat); hcsshim v0.9 (containerd 1.6) used `C:\C\<container id>\`.
 * Returned without the trailing backslash the environment variable has.
 */
export function sandboxMountRoot(profile: MountProfile, containerId: string): string {
  if (!hcsshimBindsFiles(profile)) return `C:\\C\\${containerId}`;
  return bindFilterRootfs(profile) ? 'C:\\hpc' : `C:\\hpc\\${containerId}`;
}

/** Whether HostProcess containers get the bind filter's per-silo rootfs and volume bindings on this node. */
export function bindFilterRootfs(profile: MountProfile): boolean {
  return hcsshimBindsFiles(profile) && hostHasBindFilter(profile);
}

/** containerd 1.7 and later ship the hcsshim that uses the bind filter when the host has it. */
function hcsshimBindsFiles(profile: Pick<NodeProfile, 'containerRuntimeVersion'>): boolean {
  const m = /^containerd:\/\/v?(\d+)\.(\d+)/.exec(profile.containerRuntimeVersion);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 1 || (major === 1 && minor >= 7);
}

/**
 * hcsshim checks for `%SystemRoot%\system32\bindfltapi.dll` (storage.go fileBindingSupported). WS2022 and later have
 * it; WS2019 from its July 2022 update (KEP-1981 "Compatibility": the APIs reach WS2019 with July 2022's patches). No
 * backport to the semi-annual builds between them is documented, so those fall back.
 */
export function hostHasBindFilter(profile: Pick<NodeProfile, 'windowsBuild' | 'windowsUBR' | 'kernelVersion'>): boolean {
  const build = buildNumber(profile.windowsBuild);
  if (build === undefined) return false;
  if (build >= WS2022) return true;
  if (build !== WS2019) return false;
  const ubr = profile.windowsUBR ?? Number(/^\d+\.\d+\.\d+\.(\d+)/.exec(profile.kernelVersion)?.[1] ?? 0);
  return ubr >= WS2019_BINDFLT_UBR;
}
