// kubectl port-forward to a Windows pod: the runtime runs wincat.exe in the pod's sandbox (pause) container to reach
// the port (dockershim docker_streaming_windows.go: `wincat.exe 127.0.0.1 <port>`), so it needs a v1.15+ kubelet and a
// pause image that ships wincat (seed 001 Q14 / 002 Q5: "implemented in Kubernetes 1.15 by including wincat.exe in
// the pause infrastructure container mcr.microsoft.com/oss/kubernetes/pause:1.4.1 … use these versions or newer").

import { kubeletAtLeast } from '../../kube-version.js';
import { parseImageRef } from '../../images/reference.js';
import { DEFAULT_SANDBOX_IMAGE, type NodeProfile } from '../../profile.js';

/** The text the seeds quote when the pause image has no wincat (seed 001 Q14, 002 Q5). */
export const WINCAT_NOT_FOUND = 'unable to do port forwarding: wincat not found';

/** Before v1.15 the Windows runtime had no port-forward (dockershim docker_streaming_others.go). */
export const PORT_FORWARD_NOT_IMPLEMENTED = 'not implemented';

const numeric = (tag: string) => tag.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
function tagAtLeast(tag: string, min: string): boolean {
  const a = numeric(tag), b = numeric(min);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * Whether a sandbox image's Windows build has wincat: Kubernetes' own multi-arch pause (registry.k8s.io / k8s.gcr.io,
 * 3.x, built from build/pause/windows with wincat) and Microsoft's from 1.4.1 (and its 3.x line); anything else — an
 * older tag or a pause image built by hand — has none.
 */
export function sandboxHasWincat(image: string): boolean {
  const ref = parseImageRef(image);
  if (!ref) return false;
  const tag = ref.tag ?? 'latest';
  switch (ref.repository) {
    case 'registry.k8s.io/pause':
    case 'k8s.gcr.io/pause':
      return tagAtLeast(tag, '3.0');
    case 'mcr.microsoft.com/oss/kubernetes/pause':
      return tagAtLeast(tag, '1.4.1');
    case 'mcr.microsoft.com/k8s/core/pause':
      // The v1.14-era docs name 1.2.0 as the first with wincat.
      return tagAtLeast(tag, '1.2.0');
    default:
      return false;
  }
}

/** Why the node cannot forward a port into its pods, or undefined when it can (Linux nodes always can). */
export function portForwardError(p: Pick<NodeProfile, 'os' | 'kubeletVersion' | 'sandboxImage'>): string | undefined {
  if (p.os !== 'windows') return undefined;
  if (!kubeletAtLeast(p.kubeletVersion, 15)) return PORT_FORWARD_NOT_IMPLEMENTED;
  if (!sandboxHasWincat(p.sandboxImage ?? DEFAULT_SANDBOX_IMAGE)) return WINCAT_NOT_FOUND;
  return undefined;
}
