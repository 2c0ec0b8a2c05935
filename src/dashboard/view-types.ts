// The dashboard's JSON view model: the compact shapes /api/snapshot and /api/stream send to the page.

/** One pod as a chip: identity, the kubectl STATUS text, and what a tooltip shows. */
export interface PodView {
  namespace: string;
  name: string;
  /** status.phase (Pending, Running, Succeeded, Failed, Unknown); drives the chip colour. */
  phase: string;
  /** The aggregate reason kubectl prints in STATUS (ContainerCreating, CrashLoopBackOff, Terminating, ...). */
  status: string;
  /** kubectl's READY column, e.g. "1/2". */
  ready: string;
  restarts: number;
  /** `Kind/name` of the controlling owner, if any (ReplicaSet/web-5d9c...). */
  owner?: string;
  node?: string;
  /** spec.nodeSelector's kubernetes.io/os, when the pod pins an OS. */
  os?: string;
  cpuMilli: number;
  memoryBytes: number;
  created?: string;
}

/** A pod the scheduler has not placed, with the reason it gave in the PodScheduled condition. */
export interface UnscheduledPodView extends PodView {
  /** PodScheduled condition reason (Unschedulable, SchedulingGated, ...); empty when the scheduler has not tried yet. */
  reason: string;
  message: string;
  since?: string;
}

export interface TaintView {
  key: string;
  value?: string;
  effect: string;
}

export interface WindowsView {
  /** major.minor.build, e.g. 10.0.17763 (the node.kubernetes.io/windows-build label's form). */
  build: string;
  /** The update revision after the build in kernelVersion (10.0.17763.6893 → "6893"), if reported. */
  ubr?: string;
  /** Product name from nodeInfo.osImage, e.g. "Windows Server 2019 Datacenter". */
  product: string;
  /** Short release name: WS2019, WS2022, WS2025, or the build when unknown. */
  release: string;
}

export interface NodeView {
  name: string;
  /** kubernetes.io/os label, falling back to nodeInfo.operatingSystem. */
  os: string;
  arch: string;
  osImage: string;
  kernelVersion: string;
  kubeletVersion: string;
  containerRuntime: string;
  windows?: WindowsView;
  roles: string[];
  taints: TaintView[];
  /** The Ready condition's status: True, False or Unknown (missing condition). */
  ready: string;
  readyMessage: string;
  /** spec.unschedulable (cordoned). */
  cordoned: boolean;
  /** Conditions other than Ready that are True (MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable). */
  pressure: string[];
  internalIP?: string;
  cpu: { allocatableMilli: number; requestedMilli: number };
  memory: { allocatableBytes: number; requestedBytes: number };
  podsAllocatable: number;
  /** Non-terminal pods bound to the node (they count against allocatable). */
  podsActive: number;
  pods: PodView[];
}

export interface DeploymentView {
  namespace: string;
  name: string;
  desired: number;
  ready: number;
  updated: number;
  available: number;
  /** kubernetes.io/os from the pod template's nodeSelector, if set. */
  os?: string;
  /** The Progressing or Available condition that is not True, as a short problem text. */
  problem?: string;
}

export interface EventView {
  type: string;
  reason: string;
  message: string;
  /** `Kind/name` of the involved object. */
  object: string;
  namespace: string;
  count: number;
  /** The most recent time the event happened (lastTimestamp, series or eventTime). */
  last?: string;
  source: string;
}

export interface Summary {
  nodes: number;
  linuxNodes: number;
  windowsNodes: number;
  readyNodes: number;
  /** Windows build → node count, so the page can show the build mix. */
  windowsBuilds: Record<string, number>;
  pods: number;
  running: number;
  pending: number;
  failed: number;
  succeeded: number;
  unscheduled: number;
  deployments: number;
  deploymentsReady: number;
  warnings: number;
}

export interface Snapshot {
  /** When the server computed this snapshot (RFC 3339). */
  generatedAt: string;
  summary: Summary;
  nodes: NodeView[];
  unscheduled: UnscheduledPodView[];
  deployments: DeploymentView[];
  events: EventView[];
}
