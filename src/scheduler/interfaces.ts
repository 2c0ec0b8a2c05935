// The scheduler plugin interfaces: one per extension point of a scheduling attempt, after
// k8s.io/kube-scheduler/framework/interface.go. Everything but Bind is synchronous: a cycle reads the cache
// without yielding, so no informer event can change a NodeInfo half-way through it.

import type { ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { Namespace, PersistentVolume, PersistentVolumeClaim, ReplicationController, Service } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { Client } from '../client/interfaces.js';
import type { Nominator } from './queue/nominator.js';
import type { EventRecorder } from '../client/event-recorder.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { CycleState } from './framework/cycle-state.js';
import type { NodeInfo } from './framework/node-info.js';
import type { Status } from './framework/status.js';
import type { Pod } from './types.js';
import type { KubeVersion } from './util/version.js';

/** Highest score a Score plugin may give after normalisation (framework.MaxNodeScore). */
export const MAX_NODE_SCORE = 100;

export interface Plugin {
  readonly name: string;
}

/** Orders the active queue. */
export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPod, b: QueuedPod): boolean;
}

/** Runs once per attempt before filtering; a rejection fails the pod on every node; Skip disables its Filter. */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): Status;
}

/** Says whether the pod may run on one node. Called once per node, so it must be cheap. */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, node: NodeInfo): Status;
  /**
   * Optional promise: this filter's answer depends only on the Node object (name, labels, taints, spec) and on the
   * returned string, never on the pods placed on the node or on other plugins' cycle state. The framework then
   * remembers the answer per node and key until the Node object changes, so pods that ask the same thing (every
   * replica of a Deployment, every pod of a RuntimeClass) are not re-checked against thousands of unchanged nodes.
   */
  nodeStaticKey?(pod: Pod): string;
}

/** Runs when no node passed the filters, e.g. to preempt; the statuses say why each node failed. */
export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: Pod, nodeStatuses: ReadonlyMap<string, Status>): PostFilterResult;
}

export interface PostFilterResult {
  status: Status;
  nominatedNodeName?: string;
}

/** Runs once before scoring with the feasible nodes; Skip disables its Score for this pod. */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status;
}

export interface NodeScore {
  name: string;
  score: number;
}

/** Ranks one feasible node; raw scores are normalised to 0..MAX_NODE_SCORE then multiplied by the weight. */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, node: NodeInfo): number;
  normalizeScore?(state: CycleState, pod: Pod, scores: NodeScore[]): Status;
}

/** Claims resources when the pod is assumed onto a node; unreserve undoes it when binding fails. */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Prepares the pod's binding (e.g. binds its volumes) before Bind; a failure sends the pod back to the queue. */
export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status>;
}

/** Writes the decision to the API. Skip passes the pod to the next binder. */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status>;
}

/** A pod waiting in the scheduling queue. */
export interface QueuedPod {
  pod: Pod;
  key: string;
  /** When the pod last entered the queue (ms on the scheduler clock): the PrioritySort tie-breaker. */
  timestamp: number;
  /** When the pod was first queued, for latency figures. */
  initialAttemptTimestamp: number;
  /** Scheduling attempts so far; drives the backoff. */
  attempts: number;
  /** Plugins that rejected it last time. */
  unschedulablePlugins: Set<string>;
}

/** Read access to the cluster as the cache sees it. */
export interface NodeInfoLister {
  list(): readonly NodeInfo[];
  get(name: string): NodeInfo | undefined;
  /** How many nodes hold an image (normalized name), for ImageLocality's spread factor. */
  imageNodeCount(image: string): number;
  /**
   * Nodes holding pods with pod (anti-)affinity, and those holding pods with required anti-affinity
   * (HavePodsWithAffinityList / HavePodsWithRequiredAntiAffinityList); listers without it make InterPodAffinity scan
   * every node.
   */
  havePodsWithAffinity?(): { withAffinity: readonly NodeInfo[]; withRequiredAnti: readonly NodeInfo[] };
  /** Bumped whenever a node joins or leaves list(); lets plugins keep per-node sums between cycles. */
  membership?(): number;
}

/** What plugins may use besides their arguments (framework.Handle). */
export interface Handle {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly recorder: EventRecorder;
  readonly kubernetesVersion: KubeVersion;
  readonly nodeInfos: NodeInfoLister;
  /** Runs the profile's Filter plugins on one node, as preemption needs for its dry runs. */
  runFilterPlugins(state: CycleState, pod: Pod, node: NodeInfo): Status;
  /** Filter with the node's nominated pods of equal or higher priority counted as placed (RunFilterPluginsWithNominatedPods). */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, node: NodeInfo): Status;
  /** Pods nominated to nodes by earlier preemptions; absent in unit tests that do not need it. */
  readonly nominator?: Nominator;
  /** The cluster's PodDisruptionBudgets; absent (or empty) when the API serves no policy/v1 PodDisruptionBudget. */
  readonly podDisruptionBudgets?: () => readonly PodDisruptionBudget[];
  /** Other API objects plugins consult (Services, controllers, Namespaces); absent ones read as "none". */
  readonly listers?: ObjectListers;
}

/**
 * Read-only views of the API objects PodTopologySpread and InterPodAffinity consult besides nodes and pods (kube-scheduler
 * reads them from its SharedInformerFactory). Every member is optional: a missing lister reads as "no such objects".
 */
export interface ObjectListers {
  services?(namespace: string): readonly Service[];
  replicationController?(namespace: string, name: string): ReplicationController | undefined;
  replicaSet?(namespace: string, name: string): ReplicaSet | undefined;
  statefulSet?(namespace: string, name: string): StatefulSet | undefined;
  namespace?(name: string): Namespace | undefined;
  namespaces?(): readonly Namespace[];
  /** Storage objects VolumeBinding consults (volumebinding/listers.ts). */
  persistentVolumeClaim?(namespace: string, name: string): PersistentVolumeClaim | undefined;
  persistentVolume?(name: string): PersistentVolume | undefined;
  persistentVolumes?(): readonly PersistentVolume[];
  storageClass?(name: string): StorageClass | undefined;
}

/** Builds a plugin from its arguments (the profile's pluginConfig entry) and the handle. */
export type PluginFactory = (args: unknown, handle: Handle) => Plugin;
