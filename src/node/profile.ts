// NodeProfile: everything that makes one emulated node what it is, and the allocatable arithmetic derived from it.

import type { Taint } from 'kubernetes-types/core/v1.js';
import { KUBERNETES_VERSION } from '../api/version.js';
import { formatQuantity, parseQuantity, subQuantity, type Quantity } from '../api/quantity.js';
import type { NodeNetworkProfile } from '../network/profile.js';

/**
 * The Kubernetes version every emulated kubelet reports by default. The API server's /version must say the same
 * (gitVersion), so kubectl does not warn about skew; import this constant rather than spelling the string again.
 */
export const DEFAULT_KUBELET_VERSION = KUBERNETES_VERSION;
export const DEFAULT_CONTAINERD_VERSION = '1.7.27';
export const DEFAULT_DOCKER_VERSION = '20.10.24';

export type NodeOS = 'linux' | 'windows';
export type NodeArch = 'amd64' | 'arm64';
export type ContainerRuntimeName = 'containerd' | 'docker';
export type Isolation = 'process' | 'hyperv';

/** A resource list as the API spells it: name → quantity string. */
export type ResourceStrings = Record<string, string>;

export interface NodeProfile {
  name: string;
  os: NodeOS;
  arch: NodeArch;
  /** `major.minor.build` for Windows nodes (10.0.17763 = WS2019, 10.0.20348 = WS2022); absent on Linux. */
  windowsBuild?: string;
  /** Update Build Revision: the fourth part of the Windows kernel version (10.0.17763.<UBR>). */
  windowsUBR?: number;
  osImage: string;
  kernelVersion: string;
  kubeletVersion: string;
  containerRuntime: ContainerRuntimeName;
  /** As nodeInfo spells it, e.g. `containerd://1.7.27`. */
  containerRuntimeVersion: string;
  isolation: Isolation;
  /** cpu, memory, pods, ephemeral-storage (and any extended resource). */
  capacity: ResourceStrings;
  kubeReserved: ResourceStrings;
  systemReserved: ResourceStrings;
  /** Hard eviction thresholds: `memory.available` and `nodefs.available`, absolute (`100Mi`) or percent (`10%`). */
  evictionHard: ResourceStrings;
  /** Labels added on top of the ones every kubelet sets. */
  labels: Record<string, string>;
  /** Registered with the node, like `--register-with-taints`. */
  taints: Taint[];
  podCIDR: string;
  internalIP: string;
  /** Dual stack: the node's IPv6 pod CIDR (spec.podCIDRs[1]) and IPv6 InternalIP. */
  podCIDRv6?: string;
  internalIPv6?: string;
  /** Shown by `kubectl get nodes` through node-role.kubernetes.io/<role> labels. */
  roles: string[];
  /** Images present before any pull (e.g. the sandbox image). */
  preloadedImages: string[];
  /** The pause image sandboxes run (containerd sandbox_image / kubelet --pod-infra-container-image). */
  sandboxImage?: string;
  /** kubelet --windows-priorityclass: the Win32 priority class of the kubelet process (NORMAL_PRIORITY_CLASS). */
  windowsPriorityClass?: string;
  /** kubelet --feature-gates: gate → on/off over the version's defaults (src/node/feature-gates.ts). */
  featureGates?: Record<string, boolean>;
  /** CNI plugin and kube-proxy of the node; absent: defaultNetworkProfile(os). */
  network?: NodeNetworkProfile;
  /**
   * Windows: the csi-proxy release installed as the `csiproxy` service (`v1.1.3`, `v0.2.2`…), or `none`; absent: the
   * default for kubelets from v1.18 (src/csi/csi-proxy.ts). CSI node plugins on Windows work only through it.
   */
  csiProxy?: string;
  /** FlexVolume drivers installed in the kubelet's plugin directory, e.g. `microsoft.com/smb.cmd` (src/node/volumes/flex-volume.ts). */
  flexVolumeDrivers?: string[];
}

/** The Win32 priority classes --windows-priorityclass accepts; anything else stops the kubelet (seed 001/002). */
export const WINDOWS_PRIORITY_CLASSES = ['IDLE_PRIORITY_CLASS', 'BELOW_NORMAL_PRIORITY_CLASS', 'NORMAL_PRIORITY_CLASS', 'ABOVE_NORMAL_PRIORITY_CLASS', 'HIGH_PRIORITY_CLASS', 'REALTIME_PRIORITY_CLASS'];

/** The sandbox image of a v1.33 node (kubeadm's default for the release). */
export const DEFAULT_SANDBOX_IMAGE = 'registry.k8s.io/pause:3.10';

/** Eviction signal → the capacity it protects (pkg/kubelet/eviction/helpers.go signalToResource). */
const SIGNAL_RESOURCE: Record<string, string> = {
  'memory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
};

/** Default hard eviction thresholds: pkg/kubelet/eviction/defaults_linux.go and defaults_windows.go (v1.31+). */
export function defaultEvictionHard(os: NodeOS): ResourceStrings {
  return os === 'windows'
    ? { 'memory.available': '500Mi', 'nodefs.available': '10%' }
    : { 'memory.available': '100Mi', 'nodefs.available': '10%' };
}

/** The amount an eviction threshold holds back: a percentage of capacity, truncated as the kubelet's float maths does. */
function thresholdAmount(threshold: string, capacity: Quantity): Quantity {
  if (threshold.endsWith('%')) {
    const pct = Number(threshold.slice(0, -1));
    if (!Number.isFinite(pct) || pct < 0 || pct > 100) throw new Error(`invalid eviction percentage "${threshold}"`);
    // pkg/kubelet/eviction/api GetThresholdQuantity: int64(float64(capacity.Value()) * float64(percentage)).
    const bytes = Math.trunc(Number(capacity.nano / 1_000_000_000n) * (pct / 100));
    return { nano: BigInt(bytes) * 1_000_000_000n, format: capacity.format };
  }
  return parseQuantity(threshold);
}

/**
 * allocatable = capacity − kubeReserved − systemReserved − hard eviction threshold, never below zero
 * (pkg/kubelet/cm/node_container_manager_linux.go GetNodeAllocatableReservation; pkg/kubelet/nodestatus/setters.go
 * MachineInfo; Windows asserted by test/e2e/windows/memory_limits.go). The result keeps capacity's format.
 */
export function computeAllocatable(p: Pick<NodeProfile, 'capacity' | 'kubeReserved' | 'systemReserved' | 'evictionHard'>): ResourceStrings {
  const out: ResourceStrings = {};
  for (const [name, capStr] of Object.entries(p.capacity)) {
    const cap = parseQuantity(capStr);
    let value = cap;
    for (const reserved of [p.kubeReserved[name], p.systemReserved[name]]) {
      if (reserved !== undefined) value = subQuantity(value, parseQuantity(reserved));
    }
    for (const [signal, threshold] of Object.entries(p.evictionHard)) {
      if (SIGNAL_RESOURCE[signal] === name) value = subQuantity(value, thresholdAmount(threshold, cap));
    }
    out[name] = formatQuantity(value.nano < 0n ? { nano: 0n, format: cap.format } : value);
  }
  return out;
}

/** Canonical capacity strings (what the node status shows), e.g. `4` stays `4`, `16Gi` stays `16Gi`. */
export function canonicalResources(list: ResourceStrings): ResourceStrings {
  const out: ResourceStrings = {};
  for (const [k, v] of Object.entries(list)) out[k] = formatQuantity(parseQuantity(v));
  return out;
}

/** `10.0.17763` + UBR → `10.0.17763.6893`, the Windows kernelVersion (winstats GetPatchVersion). */
export function windowsKernelVersion(build: string, ubr: number): string {
  return `${build}.${ubr}`;
}

/** The numeric build (17763) of a `major.minor.build` string, or undefined. */
export function buildNumber(windowsBuild: string | undefined): number | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(windowsBuild ?? '');
  return m ? Number(m[3]) : undefined;
}
