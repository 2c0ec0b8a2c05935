// Node → card view: OS and Windows build, roles, taints, Ready, and allocatable against the requests of its pods.

import type { Node } from 'kubernetes-types/core/v1.js';
import { nodeRoles } from '../api/printers/node.js';
import type { KubeObject } from '../api/types.js';
import { resourceFromList } from '../scheduler/framework/resource.js';
import { comparePods, isTerminal, OS_LABEL, podView, type PodObject } from './pod-view.js';
import type { NodeView, PodView, WindowsView } from './view-types.js';

export type NodeObject = Node & KubeObject;

/** The label kubelet sets on Windows nodes (k8s.io/api/core/v1 well_known_labels.go LabelWindowsBuild). */
const WINDOWS_BUILD_LABEL = 'node.kubernetes.io/windows-build';

/** LTSC builds by their build number (windows-facts §3.1: 17763 WS2019, 20348 WS2022, 26100 WS2025). */
const LTSC_RELEASES: Record<string, string> = { '17763': 'WS2019', '20348': 'WS2022', '26100': 'WS2025' };

/**
 * Windows build facts from what kubelet reports: kernelVersion is Major.Minor.Build.UBR and the windows-build label
 * Major.Minor.Build (pkg/kubelet/winstats/version.go GetPatchVersion / GetBuild).
 */
export function windowsView(node: NodeObject): WindowsView {
  const info = node.status?.nodeInfo;
  const kernel = /^(\d+\.\d+\.\d+)(?:\.(\d+))?/.exec(info?.kernelVersion ?? '');
  const build = node.metadata.labels?.[WINDOWS_BUILD_LABEL] ?? kernel?.[1] ?? '';
  const product = info?.osImage ?? '';
  const number = build.split('.')[2] ?? '';
  const year = /Windows Server (\d{4})/.exec(product)?.[1];
  const release = LTSC_RELEASES[number] ?? (year ? `WS${year}` : build ? `build ${number || build}` : 'unknown build');
  const view: WindowsView = { build, product, release };
  if (kernel?.[2] && kernel[1] === build) view.ubr = kernel[2];
  return view;
}

function readyCondition(node: NodeObject) {
  // printers.go printNode keeps the last condition of a type.
  return (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop();
}

/** Builds a node card; `pods` are the pods bound to this node (spec.nodeName). */
export function nodeView(node: NodeObject, pods: readonly PodObject[]): NodeView {
  const info = node.status?.nodeInfo;
  const os = node.metadata.labels?.[OS_LABEL] ?? info?.operatingSystem ?? 'unknown';
  const ready = readyCondition(node);
  const alloc = resourceFromList(node.status?.allocatable as Record<string, unknown> | undefined);
  const views: PodView[] = [];
  let requestedMilli = 0;
  let requestedBytes = 0;
  let active = 0;
  for (const pod of pods) {
    const v = podView(pod);
    views.push(v);
    if (isTerminal(pod)) continue;
    active++;
    requestedMilli += v.cpuMilli;
    requestedBytes += v.memoryBytes;
  }
  views.sort(comparePods);
  const roles = nodeRoles(node);
  const view: NodeView = {
    name: node.metadata.name ?? '',
    os,
    arch: info?.architecture ?? node.metadata.labels?.['kubernetes.io/arch'] ?? '',
    osImage: info?.osImage ?? '',
    kernelVersion: info?.kernelVersion ?? '',
    kubeletVersion: info?.kubeletVersion ?? '',
    containerRuntime: info?.containerRuntimeVersion ?? '',
    roles: roles === '<none>' ? [] : roles.split(','),
    taints: (node.spec?.taints ?? []).map((t) => (t.value ? { key: t.key, value: t.value, effect: t.effect } : { key: t.key, effect: t.effect })),
    ready: ready?.status ?? 'Unknown',
    readyMessage: ready?.message ?? 'no Ready condition reported',
    cordoned: node.spec?.unschedulable === true,
    pressure: (node.status?.conditions ?? []).filter((c) => c.type !== 'Ready' && c.status === 'True').map((c) => c.type),
    cpu: { allocatableMilli: alloc.milliCPU, requestedMilli },
    memory: { allocatableBytes: alloc.memory, requestedBytes },
    podsAllocatable: alloc.allowedPodNumber,
    podsActive: active,
    pods: views,
  };
  if (os === 'windows') view.windows = windowsView(node);
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  if (ip) view.internalIP = ip;
  return view;
}

/** Linux before Windows, control-plane nodes first within an OS, then by name: the order a fleet is read in. */
export function compareNodes(a: NodeView, b: NodeView): number {
  const rank = (n: NodeView) => (n.os === 'linux' ? 0 : n.os === 'windows' ? 1 : 2);
  const cp = (n: NodeView) => (n.roles.includes('control-plane') || n.roles.includes('master') ? 0 : 1);
  return rank(a) - rank(b) || cp(a) - cp(b) || a.name.localeCompare(b.name);
}
