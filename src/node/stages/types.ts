// Stage: one step of pod/container behaviour as data — a selector on the runtime state, a delay, and a named action
// (kwok's Stage: selector, delay, next). The engine (engine.ts) is the only code that runs them.

import type { Pod } from 'kubernetes-types/core/v1.js';
import type { Clock } from '../../util/clock.js';
import type { ContainerRuntime, ContainerState, PodRuntime, PodState } from '../runtime-state.js';
import type { NodeProfile } from '../profile.js';
import type { HostLocalAllocator } from '../../network/ipam/host-local.js';
import type { ConfigSource } from '../process/env-vars.js';
import type { NodeNetwork } from '../../network/cni/node-network.js';

/** Where a stage's delay comes from; all are measured from the moment the target entered its current state. */
export type DelaySource =
  | 'sandbox' | 'create' | 'start' | 'pullErrorResync'   // fixed emulation timings (StageTimings)
  | 'configErrorResync' // the pod worker's retry of a container whose config could not be made
  | 'pull'          // the container's pull duration
  | 'exitAfter'     // the container's behaviour: process ends by itself
  | 'readyAfter'    // readiness delay
  | 'stop'          // time to exit after the stop signal, capped by the grace period
  | 'pullBackoff'   // image pull back-off, counted from the failed pull
  | 'crashBackoff'; // crash loop back-off, counted from the container's finishedAt

export type Delay = { ms: number } | { from: DelaySource };

export interface Selector {
  pod?: PodState[];
  container?: ContainerState[];
  /** Match only pods with (true) or without (false) a deletionTimestamp. */
  deleting?: boolean;
  ready?: boolean;
  /** Match only init (true) or only regular (false) containers. */
  init?: boolean;
  /** Container's waiting reason is one of these. */
  waitingReason?: string[];
  /** Container readiness comes from probes. */
  probed?: boolean;
  /** A probe asked for the container to be killed. */
  killRequested?: boolean;
  /** Container behaviour has an exit time. */
  exits?: boolean;
  /** Every container is stopped (none running, created or being killed). */
  allStopped?: boolean;
}

export type ActionName =
  | 'admit' | 'createSandbox' | 'beginTermination' | 'finishTermination'
  | 'beginPull' | 'finishPull' | 'enterPullBackoff' | 'retryPull'
  | 'createContainer' | 'startContainer' | 'markReady' | 'exitContainer'
  | 'applyRestartPolicy' | 'restartContainer' | 'stopContainer' | 'retryCreate' | 'killContainer';

export interface Stage {
  name: string;
  target: 'pod' | 'container';
  selector: Selector;
  delay: Delay;
  action: ActionName;
}

/** Fixed durations of runtime operations (milliseconds). */
export interface StageTimings {
  sandbox: number;
  create: number;
  start: number;
  /** The pod worker's resync after an image pull error, when ErrImagePull turns into ImagePullBackOff. */
  pullErrorResync: number;
  /** The pod worker's retry of CreateContainerConfigError (a missing ConfigMap may appear meanwhile). */
  configErrorResync: number;
  /** Image download speed for the pull duration (bytes per second) and the shortest pull. */
  pullBytesPerSecond: number;
  minPullMs: number;
}

/**
 * Default emulation timings: short, so CI runs in seconds (a real Windows sandbox takes seconds to create). The
 * Pending → ContainerCreating → Running steps stay visible to `kubectl get pods -w`; `winkube.io/*` pod annotations
 * (behaviour.ts) and these timings make them as slow as a real node when a test needs that.
 */
export const DEFAULT_TIMINGS: StageTimings = {
  sandbox: 150, create: 50, start: 50, pullErrorResync: 1000, configErrorResync: 2000, pullBytesPerSecond: 200_000_000, minPullMs: 300,
};

export type EventType = 'Normal' | 'Warning';

/** Events about a pod, or about one of its containers (fieldPath spec.containers{name}). */
export interface PodEventSink {
  podEvent(pod: PodRuntime, container: ContainerRuntime | undefined, type: EventType, reason: string, message: string): void;
}

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

/** What actions may touch besides the runtime state. */
export interface StageContext {
  clock: Clock;
  profile: NodeProfile;
  /** Normalised names of the images on the node; pulls add to it. */
  images: Set<string>;
  ipam: HostLocalAllocator;
  /** The node's CNI plumbing; sandboxes get their address from its plugin (absent: host-local straight from ipam). */
  network?: Pick<NodeNetwork, 'setupSandbox'>;
  /** The pod's resolver settings, which containerd passes to CNI plugins that take `dns` (the HNS endpoint's DNS). */
  podDns?(pod: Pod): { servers: string[]; searches: string[] };
  events: PodEventSink;
  timings: StageTimings;
  /** ConfigMaps and Secrets that env and volumes refer to (the kubelet's watch-based managers). */
  config: ConfigSource;
  /** The node's allocatable resources: resourceFieldRef of a container without limits reads these. */
  allocatable: Record<string, string>;
  /** The container runtime's processes (the emulated shell); absent in tests of the lifecycle alone. */
  processes?: {
    /** Starts the container's process; false when none runs (the behaviour model's log lines stand in). */
    start(rec: PodRuntime, c: ContainerRuntime): boolean;
    stop(rec: PodRuntime, c: ContainerRuntime, reason: 'SIGTERM' | 'SIGKILL'): void;
    /** The container is being killed: its preStop hook runs first (the stop timer waits for it). */
    preStop?(rec: PodRuntime, c: ContainerRuntime): void;
  };
  admit(rec: PodRuntime): AdmitResult;
  /** Called once a terminating pod has stopped: write the final status, then delete the pod object. */
  finalize(rec: PodRuntime): void;
}

export type Action = (ctx: StageContext, rec: PodRuntime, c: ContainerRuntime | undefined) => void;
