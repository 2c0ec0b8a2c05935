// Builds the API PodStatus from the kubelet's runtime view (pkg/kubelet/kubelet_pods.go generateAPIPodStatus,
// getPhase, convertToAPIContainerStatuses; pkg/kubelet/status/generate.go for the conditions).

import type { ContainerStatus, PodCondition, PodStatus } from 'kubernetes-types/core/v1.js';
import { rfc3339 } from '../util/clock.js';
import type { NodeProfile } from './profile.js';
import { podQOSClass } from './qos.js';
import { containerSpec, initDone, type ContainerRuntime, type PodRuntime, type Terminated } from './runtime-state.js';
import {
  isRunning, isTerminated, keptStatus, priorLastState, shownLastTerminated, shownTerminated,
} from './container-view.js';

/** Conditions the kubelet owns; it keeps the others as it finds them (pkg/kubelet/types/pod_status.go PodConditionByKubelet). */
export const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'];

/** A failed init container fails the pod when it will not be retried: done for good, or shown failed under Never. */
function initFailed(c: ContainerRuntime, policy: string): boolean {
  if (c.state === 'done') return (c.terminated?.exitCode ?? 0) !== 0;
  if (policy !== 'Never' || isRunning(c)) return false;
  return ((shownTerminated(c) ?? shownLastTerminated(c))?.exitCode ?? 0) !== 0;
}

/**
 * getPhase (pkg/kubelet/kubelet_pods.go) over what the API shows: Pending while any container has never run,
 * Running while any runs or will restart, else terminal. A waiting container with a lastState counts as stopped.
 */
export function podPhase(rec: PodRuntime): PodStatus['phase'] {
  if (rec.state === 'rejected') return 'Failed';
  const policy = rec.pod.spec?.restartPolicy ?? 'Always';
  const regular = rec.containers.filter((c) => !c.init);
  const finishing = rec.state === 'terminating' || rec.state === 'finished';
  if (finishing && regular.every((c) => shownTerminated(c))) {
    return regular.every((c) => shownTerminated(c)?.exitCode === 0) ? 'Succeeded' : 'Failed';
  }
  const inits = rec.containers.filter((c) => c.init);
  if (inits.some((c) => initFailed(c, policy))) return 'Failed';
  if (!inits.every((c) => shownTerminated(c)?.exitCode === 0)) return 'Pending';
  let running = 0, waiting = 0, stopped = 0, succeeded = 0;
  for (const c of regular) {
    const t = shownTerminated(c);
    if (isRunning(c)) running++;
    else if (t) {
      stopped++;
      if (t.exitCode === 0) succeeded++;
    } else if (shownLastTerminated(c)) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === regular.length) {
    if (policy === 'Always') return 'Running';
    if (succeeded === stopped) return 'Succeeded';
    return policy === 'Never' ? 'Failed' : 'Running';
  }
  return 'Pending';
}

/** metav1.Time's zero value serialises as null. */
const apiTime = (ms: number | undefined) => (ms === undefined ? null as unknown as string : rfc3339(ms));

function terminatedState(t: Terminated) {
  return {
    terminated: {
      exitCode: t.exitCode, reason: t.reason, ...(t.message ? { message: t.message } : {}),
      startedAt: apiTime(t.startedAt), finishedAt: apiTime(t.finishedAt), ...(t.containerID ? { containerID: t.containerID } : {}),
    },
  };
}

function containerStatus(rec: PodRuntime, c: ContainerRuntime): ContainerStatus {
  const kept = keptStatus(c);
  if (kept) return { ...kept, ready: false, started: false };
  let state: ContainerStatus['state'];
  if (isRunning(c)) state = { running: { startedAt: rfc3339(c.startedAt ?? 0) } };
  else if (isTerminated(c) && c.terminated) state = terminatedState(c.terminated);
  else {
    // Containers the runtime has not touched: regular ones wait for init containers, init ones for their turn.
    const reason = !c.init && !initDone(rec) ? 'PodInitializing' : c.waiting?.reason ?? (c.init ? 'PodInitializing' : 'ContainerCreating');
    state = { waiting: c.waiting?.message && reason === c.waiting.reason ? { reason, message: c.waiting.message } : { reason } };
  }
  const spec = containerSpec(rec.pod, c);
  const status: ContainerStatus = {
    name: c.name,
    state,
    lastState: c.lastTerminated ? terminatedState(c.lastTerminated) : priorLastState(c) ?? {},
    ready: c.ready,
    restartCount: c.restartCount,
    // Before the runtime knows the image the kubelet echoes the spec's image string.
    image: c.containerID && c.imageName ? c.imageName : c.image,
    imageID: c.containerID && c.imageID ? c.imageID : '',
    started: isRunning(c) && c.started !== false,
  };
  if (c.containerID) status.containerID = c.containerID;
  if (c.containerID && spec?.volumeMounts?.length) {
    status.volumeMounts = spec.volumeMounts.map((m) => ({
      name: m.name, mountPath: m.mountPath, ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}),
    }));
  }
  return status;
}

function condition(rec: PodRuntime, type: string, ok: boolean, now: number, reason?: string, message?: string): PodCondition {
  const status = ok ? 'True' : 'False';
  const prev = rec.conditionTimes[type];
  if (!prev || prev.status !== status) rec.conditionTimes[type] = { status, at: now };
  const c: PodCondition = { type, status, lastProbeTime: null as unknown as string, lastTransitionTime: rfc3339(rec.conditionTimes[type].at) };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/** The full status to write; `previous` supplies conditions the kubelet does not own (PodScheduled, DisruptionTarget). */
export function buildPodStatus(rec: PodRuntime, profile: NodeProfile, now: number, previous: PodStatus | undefined): PodStatus {
  const phase = podPhase(rec);
  const foreign = (previous?.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.includes(c.type));
  const status: PodStatus = { phase, conditions: [] };
  if (rec.state === 'rejected') {
    status.conditions = foreign;
    status.reason = rec.reason;
    status.message = rec.message;
    if (rec.startTime) status.startTime = rfc3339(rec.startTime);
    return status;
  }
  const regular = rec.containers.filter((c) => !c.init);
  const incomplete = rec.containers.filter((c) => c.init && shownTerminated(c)?.exitCode !== 0).map((c) => c.name);
  const unready = regular.filter((c) => !c.ready).map((c) => c.name);
  const completed = phase === 'Succeeded';
  const readyReason = completed ? 'PodCompleted' : unready.length ? 'ContainersNotReady' : undefined;
  const readyMessage = !completed && unready.length ? `containers with unready status: [${unready.join(' ')}]` : undefined;
  status.conditions = [
    condition(rec, 'PodReadyToStartContainers', rec.sandboxReadyAt !== undefined && rec.state !== 'finished', now),
    condition(rec, 'Initialized', incomplete.length === 0, now, incomplete.length ? 'ContainersNotInitialized' : undefined,
      incomplete.length ? `containers with incomplete status: [${incomplete.join(' ')}]` : undefined),
    condition(rec, 'Ready', !completed && unready.length === 0, now, readyReason, readyMessage),
    condition(rec, 'ContainersReady', !completed && unready.length === 0, now, readyReason, readyMessage),
    ...foreign,
  ];
  status.hostIP = profile.internalIP;
  status.hostIPs = [{ ip: profile.internalIP }, ...(profile.internalIPv6 ? [{ ip: profile.internalIPv6 }] : [])];
  if (rec.podIP) {
    status.podIP = rec.podIP;
    status.podIPs = [{ ip: rec.podIP }, ...(rec.podIPv6 ? [{ ip: rec.podIPv6 }] : [])];
  }
  if (rec.startTime) status.startTime = rfc3339(rec.startTime);
  const inits = rec.containers.filter((c) => c.init);
  if (inits.length) status.initContainerStatuses = inits.map((c) => containerStatus(rec, c));
  status.containerStatuses = regular.map((c) => containerStatus(rec, c));
  status.qosClass = podQOSClass(rec.pod);
  return status;
}
