// Rebuilds the kubelet's view of a pod it finds already bound when it starts after a node reboot that cost the
// runtime its sandboxes and containers (`winkube up` stopped and started again): nothing is running, but the API
// status remembers what ran before.

import type { ContainerStatus, ContainerStateTerminated, Pod } from 'kubernetes-types/core/v1.js';
import { keptStatus, isRunning, shownLastTerminated, shownTerminated } from './container-view.js';
import { KUBELET_CONDITIONS, podPhase } from './pod-status.js';
import { newPodRuntime } from './pod-runtime.js';
import { setState, type ContainerRuntime, type PodRuntime, type Terminated } from './runtime-state.js';

/** pkg/kubelet/container/runtime.go ContainerReasonStatusUnknown. */
export const CONTAINER_STATUS_UNKNOWN = 'ContainerStatusUnknown';
/** pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses: lastState of a running container the runtime lost. */
export const LOST_WHILE_RUNNING = 'The container could not be located when the pod was deleted.  The container used to be Running';
/** pkg/kubelet/status/status_manager.go TerminatePod: state of a container with no status when its pod ends. */
export const LOST_AT_TERMINATION = 'The container could not be located when the pod was terminated';
/** Both mark the unknown ending as a failure with 137 (128 + SIGKILL). */
export const UNKNOWN_EXIT_CODE = 137;

/** A pod an earlier kubelet run already admitted: its status lists container statuses. */
export function ranBefore(pod: Pod): boolean {
  return !!(pod.status?.containerStatuses?.length || pod.status?.initContainerStatuses?.length);
}

const parseTime = (t: string | null | undefined): number | undefined => {
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The runtime record for a pod that ran before the restart. It is not admitted again and keeps its startTime
 * (status_manager.go updateStatusInternal never changes a set startTime) and condition transition times
 * (updateLastTransitionTime). If its carried-over status already makes it Succeeded/Failed it stays that way:
 * SyncPod stops before creating a sandbox for a terminal phase (pkg/kubelet/kubelet.go "If the pod is terminal, we
 * don't need to continue to setup the pod"). Otherwise it goes back to sandbox creation with every container to be
 * started again, init containers first: computePodActions finds no sandbox, and with no containers in the runtime
 * starts them all (pkg/kubelet/kuberuntime/kuberuntime_manager.go). No SandboxChanged event follows: SyncPod records
 * "Pod sandbox changed, it will be killed and re-created." only when an old sandbox is still listed (SandboxID set),
 * and the emptied runtime lists none.
 */
export function restorePodRuntime(pod: Pod, now: number): PodRuntime {
  const rec = newPodRuntime(pod, now);
  const status = pod.status ?? {};
  rec.state = 'sandbox';
  rec.startTime = parseTime(status.startTime) ?? now;
  for (const cond of status.conditions ?? []) {
    if (KUBELET_CONDITIONS.includes(cond.type)) rec.conditionTimes[cond.type] = { status: cond.status, at: parseTime(cond.lastTransitionTime) ?? now };
  }
  const deleting = !!pod.metadata?.deletionTimestamp;
  for (const c of rec.containers) {
    const old = (c.init ? status.initContainerStatuses : status.containerStatuses)?.find((s) => s.name === c.name);
    if (old) carryOver(c, old, deleting);
  }
  const phase = podPhase(rec);
  if (phase === 'Succeeded' || phase === 'Failed') terminate(rec, pod, now);
  return rec;
}

/** convertToAPIContainerStatuses for a container the runtime no longer knows. */
function carryOver(c: ContainerRuntime, old: ContainerStatus, deleting: boolean): void {
  const restarts = old.restartCount ?? 0;
  c.restartCount = restarts;
  // A container ID means a container (and its <restartCount>.log) existed; the next one is numbered after it.
  const nextRestartCount = old.containerID ? restarts + 1 : restarts;
  if (old.state?.terminated) {
    // "if the old container status was terminated, the lasttermination status is correct": reported as it was.
    c.prior = { kept: old, nextRestartCount };
    return;
  }
  let lastState = old.lastState?.terminated ? old.lastState : undefined;
  if (old.state?.running && !lastState) {
    // It used to run and its end is unknown: a failed termination keeps the pod from looking Pending again.
    lastState = { terminated: unknownEnd(LOST_WHILE_RUNNING) };
    // "If the pod was not deleted, then it's been restarted. Increment restart count."
    if (!deleting) c.restartCount = restarts + 1;
  }
  c.prior = { lastState, nextRestartCount };
}

function unknownEnd(message: string): ContainerStateTerminated {
  return { exitCode: UNKNOWN_EXIT_CODE, reason: CONTAINER_STATUS_UNKNOWN, message, startedAt: null as unknown as string, finishedAt: null as unknown as string };
}

function toTerminated(t: ContainerStateTerminated): Terminated {
  return {
    exitCode: t.exitCode, reason: t.reason ?? '', ...(t.message ? { message: t.message } : {}),
    startedAt: parseTime(t.startedAt), finishedAt: parseTime(t.finishedAt), containerID: t.containerID,
  };
}

/**
 * The end of a pod that is terminal on arrival (status_manager.go TerminatePod): once the pod has initialized, every
 * regular container without a terminated state is reported terminated with an unknown ending; so is every init
 * container up to the last one with evidence of a start. Nothing in it runs again.
 */
function terminate(rec: PodRuntime, pod: Pod, now: number): void {
  rec.state = 'terminal';
  rec.since = now;
  const settle = (c: ContainerRuntime, markLost: boolean) => {
    const kept = keptStatus(c)?.state?.terminated;
    if (kept) c.terminated = toTerminated(kept);
    else if (markLost && !shownTerminated(c)) c.terminated = { exitCode: UNKNOWN_EXIT_CODE, reason: CONTAINER_STATUS_UNKNOWN, message: LOST_AT_TERMINATION };
    else return;
    setState(c, 'done', now);
  };
  const initialized = hasPodInitialized(pod);
  for (const c of rec.containers) if (!c.init) settle(c, initialized);
  const inits = rec.containers.filter((c) => c.init);
  const started = initializedCount(inits);
  inits.forEach((c, i) => settle(c, i < started));
}

/** status_manager.go hasPodInitialized, over the API status from before the restart. */
export function hasPodInitialized(pod: Pod): boolean {
  if (!pod.spec?.initContainers?.length) return true;
  if ((pod.status?.containerStatuses ?? []).some((s) => s.lastState?.terminated || !s.state?.waiting)) return true;
  const inits = pod.status?.initContainerStatuses ?? [];
  const last = inits[inits.length - 1];
  return !!last && (last.lastState?.terminated?.exitCode === 0 || last.state?.terminated?.exitCode === 0);
}

/**
 * status_manager.go initializedContainers: how many init containers, from the first, have attempted to start (all
 * but the suffix still waiting without a lastState); at least one.
 */
function initializedCount(inits: ContainerRuntime[]): number {
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    if (isRunning(c) || shownTerminated(c) || shownLastTerminated(c)) return i + 1;
  }
  return Math.min(1, inits.length);
}
