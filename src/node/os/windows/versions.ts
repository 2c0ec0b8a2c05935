// Which Windows container features a node honours, decided by its kubelet version, feature gates and Windows build:
// an older kubelet ignores a field it does not know, as the real one would (it never sees it in its API types).

import { featureEnabled, type GatedProfile } from '../../feature-gates.js';
import { kubeletAtLeast } from '../../kube-version.js';
import type { NodeProfile } from '../../profile.js';

type Versioned = GatedProfile & Pick<NodeProfile, 'os'>;

/** runAsUserName (windowsOptions): seed 000 "Using configurable Container usernames" — from v1.16 (WindowsRunAsUserName). */
export function honoursRunAsUserName(p: Versioned): boolean {
  return p.os !== 'windows' || featureEnabled(p, 'WindowsRunAsUserName');
}

/** gmsaCredentialSpec (windowsOptions): seed 000 "Managing Workload Identity with GMSA" — from v1.14 (WindowsGMSA). */
export function honoursGmsa(p: Versioned): boolean {
  return p.os !== 'windows' || featureEnabled(p, 'WindowsGMSA');
}

/** Container CPU and memory limits: seed 004 "Container Resources" — "could be set now for windows containers in v1.10". */
export function honoursContainerLimits(p: Versioned): boolean {
  return p.os !== 'windows' || kubeletAtLeast(p.kubeletVersion, 10);
}

/** The first Windows kernel with IPv6 for Kubernetes pods: seed 001 "IPv4/IPv6 dual-stack" note (10.0.19041.610). */
export const IPV6_MIN_WINDOWS_KERNEL = '10.0.19041.610';

/**
 * Whether the node's OS can give pods IPv6: every Linux node; a Windows node from Windows Server, version 2004 with
 * kernel 10.0.19041.610 on (seed 001 "IPv4/IPv6 dual-stack": "using IPv6 with Kubernetes require Windows Server,
 * version 2004 (kernel version 10.0.19041.610) or later"), compared as version numbers, so 20H2 (10.0.19042.x) and
 * later builds qualify whatever their UBR.
 */
export function supportsIPv6(p: Pick<NodeProfile, 'os' | 'windowsBuild' | 'windowsUBR'>): boolean {
  if (p.os !== 'windows') return true;
  const build = /^(\d+)\.(\d+)\.(\d+)$/.exec(p.windowsBuild ?? '');
  if (!build) return false;
  const have = [Number(build[1]), Number(build[2]), Number(build[3]), p.windowsUBR ?? 0];
  const need = IPV6_MIN_WINDOWS_KERNEL.split('.').map(Number);
  for (let i = 0; i < need.length; i++) if (have[i] !== need[i]) return have[i] > need[i];
  return true;
}
