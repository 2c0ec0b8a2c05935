// The cgroup OOM killer for Linux containers: a process whose working set (winkube.io/memory, the command's or the
// image's) goes past its memory limit is killed, and the runtime reports OOMKilled with exit code 137 (SIGKILL).
// Windows has no OOM killer: a job object over its limit pages instead (windows-facts §3.3), so it never applies there.

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import type { NodeOS } from '../profile.js';
import { declaredUsage } from '../stats/declared.js';
import { limitsOf } from '../stats/container-usage.js';
import { memoryOutcome } from '../stats/usage-model.js';

/** How long after start the process has touched its memory and the kernel kills it (the stats model has no ramp). */
export const OOM_KILL_AFTER_MS = 1000;

/** Exit code of a SIGKILLed process (128 + 9), as containerd reports an OOM kill. */
export const OOM_EXIT_CODE = 137;

/** The terminated reason the CRI gives an OOM-killed container (containerd: reason "OOMKilled"). */
export const OOM_REASON = 'OOMKilled';

/** Whether the container's process is OOM-killed on a node of `os`: only on Linux, only over its memory limit. */
export function oomKilled(pod: Pod, spec: Container, os: NodeOS): boolean {
  if (os !== 'linux') return false;
  return memoryOutcome(declaredUsage(pod, spec, os).memoryBytes, limitsOf(spec), os).overLimit;
}
