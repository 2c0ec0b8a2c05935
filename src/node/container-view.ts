// What the API shows for one container: its runtime state, or — until the runtime creates the container again after
// a restart — the status carried over from before (pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses).

import type { ContainerState, ContainerStatus } from 'kubernetes-types/core/v1.js';
import type { ContainerRuntime } from './runtime-state.js';

export const isTerminated = (c: ContainerRuntime): boolean => c.state === 'exited' || c.state === 'done';
export const isRunning = (c: ContainerRuntime): boolean => c.state === 'running' || c.state === 'killing';

/** The kubelet's default waiting reasons, as opposed to a failed start remembered in its reason cache. */
const DEFAULT_WAITING = new Set(['ContainerCreating', 'PodInitializing']);

/**
 * A start attempt failed (pull, create): convertToAPIContainerStatuses then shows Waiting with that reason and moves
 * a terminated state into lastState ("Handle the containers failed to be started").
 */
export function failedStart(c: ContainerRuntime): boolean {
  return !!c.waiting && !DEFAULT_WAITING.has(c.waiting.reason) && !isRunning(c) && !isTerminated(c);
}

/** The old terminated status, reported whole while the runtime has no container for it. */
export function keptStatus(c: ContainerRuntime): ContainerStatus | undefined {
  return c.prior?.kept && !failedStart(c) ? c.prior.kept : undefined;
}

/** The lastState carried over from before a restart, as the API shows it. */
export function priorLastState(c: ContainerRuntime): ContainerState | undefined {
  const p = c.prior;
  if (!p) return undefined;
  if (p.kept) return failedStart(c) ? p.kept.state : p.kept.lastState;
  return p.lastState;
}

/** The exit the API shows as the container's current state, if it shows one. */
export function shownTerminated(c: ContainerRuntime): { exitCode: number } | undefined {
  if (isTerminated(c)) return c.terminated;
  return keptStatus(c)?.state?.terminated;
}

/** The exit the API shows in lastState, if any. */
export function shownLastTerminated(c: ContainerRuntime): { exitCode: number } | undefined {
  return c.lastTerminated ?? priorLastState(c)?.terminated;
}
