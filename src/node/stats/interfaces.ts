// The kubelet's stats shapes (k8s.io/kubelet/pkg/apis/stats/v1alpha1 types.go, fields in its JSON order) and the
// view of a kubelet that the stats code reads (StatsSource), so the model never reaches into the kubelet itself.

import type { NodeProfile } from '../profile.js';
import type { PodRuntime } from '../runtime-state.js';

/** What a kubelet hands its stats endpoints: its profile, its runtime's pods and images, and when it booted. */
export interface StatsSource {
  profile: NodeProfile;
  /** Clock ms of the node's boot: node.startTime in the summary. */
  bootTime: number;
  images: Iterable<string>;
  pods: readonly PodRuntime[];
}

export interface CPUStats {
  time: string;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

export interface MemoryStats {
  time: string;
  availableBytes?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface InterfaceStats {
  name: string;
  rxBytes?: number;
  rxErrors?: number;
  txBytes?: number;
  txErrors?: number;
}

export interface NetworkStats extends InterfaceStats {
  time: string;
  interfaces?: InterfaceStats[];
}

export interface FsStats {
  time: string;
  availableBytes?: number;
  capacityBytes?: number;
  usedBytes?: number;
  inodesFree?: number;
  inodes?: number;
  inodesUsed?: number;
}

export interface VolumeStats extends FsStats {
  name: string;
}

export interface ContainerStats {
  name: string;
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
  rootfs?: FsStats;
  logs?: FsStats;
}

export interface PodStats {
  podRef: { name: string; namespace: string; uid: string };
  startTime: string;
  containers: ContainerStats[];
  cpu?: CPUStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  volume?: VolumeStats[];
  'ephemeral-storage'?: FsStats;
  process_stats?: { process_count: number };
}

export interface NodeStats {
  nodeName: string;
  systemContainers?: ContainerStats[];
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  fs?: FsStats;
  runtime?: { imageFs?: FsStats };
  rlimit?: { time: string; maxpid?: number; curproc?: number };
}

export interface Summary {
  node: NodeStats;
  pods: PodStats[];
}
