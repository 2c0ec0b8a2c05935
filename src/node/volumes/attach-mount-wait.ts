// The kubelet's "Unable to attach or mount volumes" pod event (pkg/kubelet/kubelet.go SyncPod after
// pkg/kubelet/volumemanager/volume_manager.go WaitForAttachAndMount), worded as the node's kubelet release words it:
// - a volume the desired-state populator could not process (its claim missing or unbound) ends the wait at once with
//   that error, on every kubelet release;
// - otherwise the wait times out after podAttachAndMountTimeout (2m3s). Up to v1.27 that timeout is an event too;
//   from v1.28 (kubernetes#117412) the kubelet treats it as an interrupted wait and records nothing, leaving only the
//   volume plugins' own MountVolume.* events.
// From v1.26 (kubernetes#112719) `unattached volumes` lists only attachable volumes not yet attached and a
// `failed to process volumes` list follows; before, every expected volume the actual state did not hold was listed.

import { kubeletAtLeast } from '../kube-version.js';

/** volume_manager.go podAttachAndMountTimeout. */
export const ATTACH_AND_MOUNT_TIMEOUT_MS = 2 * 60_000 + 3_000;
/** wait.ErrWaitTimeout's text, what the timed-out wait returns on the kubelets that still report it. */
const WAIT_TIMEOUT = 'timed out waiting for the condition';

/** Where each volume the pod's containers use stands after one pass of the volume manager. */
export interface VolumeWaitState {
  /** Expected volumes (the names the containers mount or map) that are not set up yet. */
  unmounted: string[];
  /** Attachable volumes whose attachment the node has not got yet. */
  unattached: string[];
  /** Volumes the populator could not add to the desired state, with its errors (in volume order). */
  unprocessed: { name: string; error: string }[];
}

/** fmt's %v of a []string: `[a b]`. */
const goList = (xs: string[]) => `[${[...xs].sort().join(' ')}]`;

function lists(kubeletVersion: string, s: VolumeWaitState): string {
  if (!kubeletAtLeast(kubeletVersion, 26)) return `unmounted volumes=${goList(s.unmounted)}, unattached volumes=${goList(s.unmounted)}`;
  return `unmounted volumes=${goList(s.unmounted)}, unattached volumes=${goList(s.unattached)}, failed to process volumes=${goList(s.unprocessed.map((u) => u.name))}`;
}

/** The event of a wait the populator's errors ended (verifyVolumesMountedFunc: PopPodErrors joined by "; "). */
export function populatorErrorMessage(kubeletVersion: string, s: VolumeWaitState): string | undefined {
  if (!s.unprocessed.length) return undefined;
  return `Unable to attach or mount volumes: ${lists(kubeletVersion, s)}: ${s.unprocessed.map((u) => u.error).join('; ')}`;
}

/** The event of a wait that ran out of time, or none where the kubelet release records none. */
export function timeoutMessage(kubeletVersion: string, s: VolumeWaitState): string | undefined {
  if (kubeletAtLeast(kubeletVersion, 28) || !s.unmounted.length) return undefined;
  return `Unable to attach or mount volumes: ${lists(kubeletVersion, s)}: ${WAIT_TIMEOUT}`;
}
