// The Node object a kubelet registers and the status it reports (pkg/kubelet/kubelet_node_status.go initialNode,
// pkg/kubelet/nodestatus/setters.go; Windows nodeInfo per windows-facts §3.1).

import { createHash } from 'node:crypto';
import type { Node, NodeCondition, NodeStatus } from 'kubernetes-types/core/v1.js';
import { rfc3339 } from '../util/clock.js';
import { canonicalResources, computeAllocatable, type NodeProfile } from './profile.js';
import { lookupImage } from './images/catalogue.js';
import { KUBELET_SERVER_ANNOTATION } from '../api/well-known.js';
import { parseKubeVersion } from './kube-version.js';

/** Kubelet port, reported in status.daemonEndpoints. */
export const KUBELET_PORT = 10250;


const hex = (s: string, n: number) => createHash('sha256').update(s).digest('hex').slice(0, n);
const uuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

/**
 * The labels the profile's kubelet sets at registration, plus roles and the profile's own (kubelet_node_status.go
 * initialNode, getOSSpecificLabels), by kubelet version:
 * - `beta.kubernetes.io/os|arch` from the start; kubernetes/kubernetes#91046 dropped them in v1.19 and #96810
 *   restored them (v1.20, and v1.19.5 through the release-1.19 pick), so only v1.19.0–v1.19.4 register without them.
 * - `kubernetes.io/os|arch` from v1.14 (kubernetes/kubernetes#73333, the GA labels).
 * - `node.kubernetes.io/windows-build` from v1.17 (seed 000 "Handling multiple Windows versions": "Kubernetes 1.17
 *   automatically adds" it; before that the operator adds it, i.e. through the profile's labels).
 */
export function nodeLabels(p: NodeProfile): Record<string, string> {
  const labels: Record<string, string> = {};
  const v = parseKubeVersion(p.kubeletVersion) ?? { minor: Number.MAX_SAFE_INTEGER, patch: 0 };
  if (!(v.minor === 19 && v.patch < 5)) {
    labels['beta.kubernetes.io/arch'] = p.arch;
    labels['beta.kubernetes.io/os'] = p.os;
  }
  if (v.minor >= 14) {
    labels['kubernetes.io/arch'] = p.arch;
  }
  labels['kubernetes.io/hostname'] = p.name;
  if (v.minor >= 14) labels['kubernetes.io/os'] = p.os;
  if (p.os === 'windows' && p.windowsBuild && v.minor >= 17) labels['node.kubernetes.io/windows-build'] = p.windowsBuild;
  for (const role of p.roles) labels[`node-role.kubernetes.io/${role}`] = '';
  return { ...labels, ...p.labels };
}

/** The boot ID of a node's n-th boot: the boot count itself on Windows, a UUID derived from name and count on Linux. */
export function bootIdFor(p: NodeProfile, bootCount: number): string {
  return p.os === 'windows' ? String(bootCount) : uuid(hex(`${p.name}:boot:${bootCount}`, 32));
}

/** nodeInfo: machineID/systemUUID/bootID derived from the name so they are stable across agent restarts. */
export function nodeInfo(p: NodeProfile, bootCount: number): NodeStatus['nodeInfo'] {
  const h = hex(`winkube-node:${p.name}`, 64);
  const windows = p.os === 'windows';
  // kubeProxyVersion is left empty from v1.33 (DisableNodeKubeProxyVersion on by default, pkg/features/kube_features.go).
  const minor = Number(/^v1\.(\d+)/.exec(p.kubeletVersion)?.[1] ?? 33);
  return {
    architecture: p.arch,
    bootID: bootIdFor(p, bootCount),
    containerRuntimeVersion: p.containerRuntimeVersion,
    kernelVersion: p.kernelVersion,
    kubeProxyVersion: minor >= 33 ? '' : p.kubeletVersion,
    kubeletVersion: p.kubeletVersion,
    // Windows: machineID is the hostname and systemUUID an upper-case GUID (winstats); Linux: /etc/machine-id + DMI uuid.
    machineID: windows ? p.name.toUpperCase() : h.slice(0, 32),
    operatingSystem: p.os,
    osImage: p.osImage,
    systemUUID: windows ? uuid(h.slice(32)).toUpperCase() : uuid(h.slice(32)),
  };
}

function cond(type: string, status: string, reason: string, message: string, heartbeat: number, transition: number): NodeCondition {
  return { type, status, lastHeartbeatTime: rfc3339(heartbeat), lastTransitionTime: rfc3339(transition), reason, message };
}

/** Node conditions as kubelet setters report them on a healthy node. */
export function nodeConditions(now: number, since: number): NodeCondition[] {
  return [
    cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', now, since),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', now, since),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', now, since),
    cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', now, since),
  ];
}

/** status.images: most recent first would need pull times; list by size like the kubelet's sort (largest first). */
export function nodeImages(images: Iterable<string>): NodeStatus['images'] {
  const out = [...images].map((name) => {
    const img = lookupImage(name);
    const repo = img?.ref.repository ?? name;
    return { names: [`${repo}@${digestFor(name)}`, name], sizeBytes: img?.sizeBytes ?? 0 };
  });
  return out.sort((a, b) => b.sizeBytes - a.sizeBytes || a.names[1].localeCompare(b.names[1]));
}

/** Image digests by name, worked out once per process rather than for every node's status. */
const digests = new Map<string, string>();

function digestFor(name: string): string {
  let digest = digests.get(name);
  if (digest === undefined) {
    const img = lookupImage(name);
    digests.set(name, (digest = img?.ref.digest ?? `sha256:${createHash('sha256').update(`winkube-image:${img?.name ?? name}`).digest('hex')}`));
  }
  return digest;
}

export function nodeStatus(p: NodeProfile, images: Iterable<string>, now: number, since: number, bootCount: number): NodeStatus {
  return withConditions(steadyNodeStatus(p, images, bootCount), nodeConditions(now, since));
}

/** The parts of a node's status that change only with its images or a reboot (a kubelet builds them once per change). */
export type SteadyNodeStatus = Omit<NodeStatus, 'conditions'>;

export function steadyNodeStatus(p: NodeProfile, images: Iterable<string>, bootCount: number): SteadyNodeStatus {
  return {
    // A dual-stack node reports an InternalIP of each family (kubelet --node-ip=<v4>,<v6>).
    addresses: [{ type: 'InternalIP', address: p.internalIP }, ...(p.internalIPv6 ? [{ type: 'InternalIP', address: p.internalIPv6 }] : []), { type: 'Hostname', address: p.name }],
    allocatable: computeAllocatable(p),
    capacity: canonicalResources(p.capacity),
    daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
    images: nodeImages(images),
    nodeInfo: nodeInfo(p, bootCount),
  };
}

/** The whole status, its fields in the order kube's NodeStatus declares them. */
export function withConditions(s: SteadyNodeStatus, conditions: NodeCondition[]): NodeStatus {
  return { addresses: s.addresses, allocatable: s.allocatable, capacity: s.capacity, conditions, daemonEndpoints: s.daemonEndpoints, images: s.images, nodeInfo: s.nodeInfo };
}

/** The object POSTed at registration. */
export function initialNode(p: NodeProfile, kubeletServer?: string): Node {
  const annotations: Record<string, string> = { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' };
  if (kubeletServer) annotations[KUBELET_SERVER_ANNOTATION] = kubeletServer;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: p.name, labels: nodeLabels(p), annotations },
    spec: { podCIDR: p.podCIDR, podCIDRs: p.podCIDRv6 ? [p.podCIDR, p.podCIDRv6] : [p.podCIDR], ...(p.taints.length ? { taints: p.taints } : {}) },
  };
}
