// The kubelet's in-memory view of one pod and its containers (what the CRI runtime would tell it). Stages read and
// change this state; the API status is derived from it by pod-status.ts.

import type { Container, ContainerState as ApiContainerState, ContainerStatus, Pod, PodStatus } from 'kubernetes-types/core/v1.js';
import { Backoff } from './backoff.js';
import type { ContainerBehaviour } from './behaviour.js';
import type { ContainerLog } from './logs/container-log.js';
import type { LinuxUser } from './os/linux/identity.js';
import type { Isolation } from './profile.js';

export type PodState =
  | 'admit'        // seen, not yet admitted
  | 'rejected'     // admission failed: phase Failed with reason/message
  | 'sandbox'      // admitted, sandbox (pause container + network) being created
  | 'active'       // sandbox ready; containers progress on their own
  | 'terminating'  // deletionTimestamp seen; containers being stopped
  | 'finished'     // everything stopped; final status written, pod being deleted
  | 'terminal';    // found after a restart already Succeeded/Failed by its carried-over status: only deletion remains

export type ContainerState =
  | 'new'           // needs its image (first start or restart)
  | 'pulling'       // Pulling event sent; waiting for the pull to finish
  | 'pull-error'    // pull failed: waiting ErrImagePull (or InvalidImageName / ErrImageNeverPull)
  | 'pull-backoff'  // waiting ImagePullBackOff until the back-off ends
  | 'creating'      // image present; container being created
  | 'create-error'  // CreateContainerError
  | 'config-error'  // CreateContainerConfigError: retried on the pod worker's next sync
  | 'created'       // Created event sent; about to start
  | 'running'
  | 'exited'        // process ended; restart policy not yet applied
  | 'crash-backoff' // waiting CrashLoopBackOff
  | 'done'          // terminated for good (restart policy says no more)
  | 'killing';      // stop signal sent during termination

export interface Terminated {
  exitCode: number;
  reason: string;
  message?: string;
  /** Absent when nobody saw the container end (ContainerStatusUnknown): the API shows null. */
  startedAt?: number;
  finishedAt?: number;
  containerID?: string;
}

/**
 * A container's API status from before a restart whose runtime lost the container, shown until the runtime creates
 * it again (pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses keeps or carries over the old status).
 */
export interface PriorStatus {
  /** The old status when it was terminated: the kubelet reports it whole. */
  kept?: ContainerStatus;
  /** The lastState carried over: the old one, or ContainerStatusUnknown when the container used to be running. */
  lastState?: ApiContainerState;
  /**
   * restartCount of the next container: the log directory survived, so it is numbered after the last one that
   * existed (pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer, calcRestartCountByLogDir).
   */
  nextRestartCount: number;
}

export interface ContainerRuntime {
  name: string;
  image: string;
  init: boolean;
  state: ContainerState;
  /** When the container entered `state` (clock ms); stage delays count from here. */
  since: number;
  behaviour: ContainerBehaviour;
  /** Normalised image name and repo digest once the image is on the node. */
  imageName?: string;
  imageID?: string;
  containerID?: string;
  startedAt?: number;
  ready: boolean;
  /** Readiness comes from probes (a readiness or startup probe), not from the container having started. */
  probed: boolean;
  /** false until the startup probe succeeds; undefined when there is none (started = running). */
  started?: boolean;
  /** The container's command runs in the emulated shell, which decides when it ends (not the behaviour's timer). */
  interpreted?: boolean;
  /** How the interpreted main process ended, and when. */
  processExit?: { code: number; at: number; reason?: string };
  /** How long the preStop hook took (or will take); undefined while an exec/httpGet hook still runs. */
  preStopMs?: number;
  /** A liveness or startup probe failed: the container is to be killed and restarted per policy. */
  killRequested?: boolean;
  terminated?: Terminated;
  lastTerminated?: Terminated;
  restartCount: number;
  /** Set for a pod found after a restart, until the runtime has created this container again. */
  prior?: PriorStatus;
  waiting?: { reason: string; message?: string };
  pullDurationMs?: number;
  pullBackoff: Backoff;
  crashBackoff: Backoff;
  /** The environment and identity the runtime created the container with (set at create). */
  env?: Record<string, string>;
  identity?: { windowsUser?: string; linux?: LinuxUser };
  /** What the running (or last) instance printed, and the instance before it (`kubectl logs --previous`). */
  log?: ContainerLog;
  previousLog?: ContainerLog;
}

export interface PodRuntime {
  key: string;
  uid: string;
  pod: Pod;
  state: PodState;
  since: number;
  startTime?: number;
  podIP?: string;
  /** Dual stack: the pod's IPv6 address (status.podIPs[1]). */
  podIPv6?: string;
  sandboxID?: string;
  sandboxReadyAt?: number;
  /** The isolation the pod's sandbox got from its RuntimeClass handler (Windows: process or hyperv). */
  isolation?: Isolation;
  /** After a failed attempt (volumes that cannot be set up, no pod IP), the sandbox is not tried again before this. */
  sandboxRetryAt?: number;
  /** When the kubelet's current WaitForAttachAndMount began (its 2m3s timeout: src/node/volumes/attach-mount-wait.ts). */
  volumeWaitSince?: number;
  /** Set for rejected pods (status.reason / status.message). */
  reason?: string;
  message?: string;
  containers: ContainerRuntime[];
  /** lastTransitionTime of each condition type, kept stable while its status does not change. */
  conditionTimes: Record<string, { status: string; at: number }>;
  /** The last status handed to the status writer (the status manager's cache), checked before the next one. */
  reported?: PodStatus;
}

export function newContainerRuntime(name: string, image: string, init: boolean, behaviour: ContainerBehaviour, now: number, probed = false): ContainerRuntime {
  return { name, image, init, state: 'new', since: now, behaviour, ready: false, probed, restartCount: 0, pullBackoff: new Backoff(), crashBackoff: new Backoff() };
}

export function setState(c: ContainerRuntime, state: ContainerState, now: number): void {
  c.state = state;
  c.since = now;
}

/** True once every init container has completed successfully. */
export function initDone(rec: PodRuntime): boolean {
  return rec.containers.every((c) => !c.init || (c.state === 'done' && c.terminated?.exitCode === 0));
}

/**
 * Whether a container may make progress now: init containers run one at a time in order, regular containers
 * only after all init containers succeeded (pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions).
 */
export function eligible(rec: PodRuntime, c: ContainerRuntime): boolean {
  if (!c.init) return initDone(rec);
  for (const other of rec.containers) {
    if (other === c) return true;
    if (other.init && !(other.state === 'done' && other.terminated?.exitCode === 0)) return false;
  }
  return true;
}

/** The spec of a container the runtime tracks: among the pod's init containers or its regular ones. */
export function containerSpec(pod: Pod, c: Pick<ContainerRuntime, 'name' | 'init'>): Container | undefined {
  return (c.init ? pod.spec?.initContainers : pod.spec?.containers)?.find((s) => s.name === c.name);
}

/** `<name>_<namespace>(<uid>)`: how the kubelet names a pod in messages (kubecontainer.GetPodFullName + uid). */
export function podFullName(pod: Pod): string {
  return `${pod.metadata?.name}_${pod.metadata?.namespace}(${pod.metadata?.uid})`;
}
