// NodeInfo: one node plus what is placed on it, kept up to date incrementally so a scheduling cycle only reads
// (framework/types.go NodeInfo).

import type { Node, Pod, Taint } from '../types.js';
import { podKey } from '../types.js';
import type { Status } from './status.js';
import { HostPortInfo, podHostPorts, type HostPort } from './host-ports.js';
import { HOT, ROW } from './node-rows.js';
import { addTo, emptyResource, podRequests, resourceFromList, type Resource } from './resource.js';

/** A pod with the figures the plugins need, computed once when it enters the cache. */
export interface PodInfo {
  pod: Pod;
  key: string;
  requests: Resource;
  nonZeroRequests: Resource;
  hostPorts: HostPort[];
}

export function newPodInfo(pod: Pod): PodInfo {
  return { pod, key: podKey(pod), requests: podRequests(pod), nonZeroRequests: podRequests(pod, true), hostPorts: podHostPorts(pod) };
}

// Generations come from one counter, as kube's nextGeneration does: a node whose generation is above a number read
// earlier has changed since then, whichever node it is.
let generationCounter = 0;
const nextGeneration = (): number => ++generationCounter;
/** The newest generation any NodeInfo has been given. */
export const lastNodeGeneration = (): number => generationCounter;

export class NodeInfo {
  node?: Node;
  readonly pods = new Map<string, PodInfo>();
  allocatable: Resource = emptyResource();
  readonly requested: Resource = emptyResource();
  /** Requests with kube's scoring defaults for containers that ask for no cpu/memory. */
  readonly nonZeroRequested: Resource = emptyResource();
  readonly usedPorts = new HostPortInfo();
  /** Taints with effect NoSchedule or NoExecute: the only ones the filter looks at. */
  hardTaints: Taint[] = [];
  taints: Taint[] = [];
  /** How many taints have effect PreferNoSchedule (TaintToleration scores only those). */
  softTaintCount = 0;
  /** How many pods here have pod (anti-)affinity, and required anti-affinity (see podsWithAffinity). */
  affinityPodCount = 0;
  requiredAntiAffinityPodCount = 0;
  private affinityList?: { generation: number; withAffinity: PodInfo[]; withRequiredAnti: PodInfo[] };
  /**
   * This node's row (see node-rows.ts) is `hot[hotBase .. hotBase+ROW)`, kept current by setNode, addPod and
   * removePod. A NodeInfo in the cache's list has its row in the cache's shared array; others own a private one.
   */
  hot: Float64Array = new Float64Array(ROW);
  hotBase = 0;
  /** Normalized image names present on the node, with their sizes (for ImageLocality). */
  images = new Map<string, number>();
  /** Set from a global counter on every change; lets callers notice a NodeInfo moved under them. */
  generation = 0;
  /**
   * Remembered answers of the node-static filters (FilterPlugin.nodeStaticKey), by interned key. Emptied whenever
   * the Node object changes; bounded, since keys that name one node (DaemonSet pods) would otherwise pile up.
   */
  readonly staticFilterMemo = new Map<number, Status>();
  /** Counts of matching pods (PodTopologySpread) by `<namespace>\n<selector>`, valid while `generation` holds. */
  private countMemo?: { generation: number; counts: Map<string, number> };

  constructor(readonly name: string) {}

  setNode(node: Node): void {
    this.node = node;
    this.staticFilterMemo.clear();
    this.allocatable = resourceFromList(node.status?.allocatable as Record<string, unknown> | undefined);
    this.taints = node.spec?.taints ?? [];
    this.hardTaints = this.taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
    this.softTaintCount = 0;
    for (const t of this.taints) if (t.effect === 'PreferNoSchedule') this.softTaintCount++;
    this.refreshHot();
    this.generation = nextGeneration();
  }

  /** Moves the row to `rows` at `base` (the cache's shared array), or to a private array when `rows` is omitted. */
  moveRow(rows: Float64Array = new Float64Array(ROW), base = 0): void {
    this.hot = rows;
    this.hotBase = base;
    this.refreshHot();
  }

  /** Recomputes the row from the authoritative figures (as differences, exactly as the plugins compute them). */
  private refreshHot(): void {
    const h = this.hot, b = this.hotBase, a = this.allocatable, r = this.requested, nz = this.nonZeroRequested;
    h[b + HOT.ALLOC_CPU] = a.milliCPU;
    h[b + HOT.ALLOC_MEMORY] = a.memory;
    h[b + HOT.FREE_CPU] = a.milliCPU - r.milliCPU;
    h[b + HOT.FREE_MEMORY] = a.memory - r.memory;
    h[b + HOT.FREE_EPHEMERAL] = a.ephemeralStorage - r.ephemeralStorage;
    h[b + HOT.FREE_PODS] = a.allowedPodNumber - this.pods.size;
    h[b + HOT.NONZERO_CPU] = nz.milliCPU;
    h[b + HOT.NONZERO_MEMORY] = nz.memory;
  }

  get labels(): Readonly<Record<string, string>> {
    return this.node?.metadata.labels ?? {};
  }

  /**
   * The pods here with pod affinity or anti-affinity, and those with required anti-affinity (kube's
   * NodeInfo.PodsWithAffinity / PodsWithRequiredAntiAffinity), built on demand once per change.
   */
  podsWithAffinity(): { withAffinity: readonly PodInfo[]; withRequiredAnti: readonly PodInfo[] } {
    let l = this.affinityList;
    if (l?.generation === this.generation) return l;
    l = { generation: this.generation, withAffinity: [], withRequiredAnti: [] };
    if (this.affinityPodCount > 0) {
      for (const pi of this.pods.values()) {
        if (hasPodAffinity(pi.pod)) l.withAffinity.push(pi);
        if (hasRequiredAntiAffinity(pi.pod)) l.withRequiredAnti.push(pi);
      }
    }
    return (this.affinityList = l);
  }

  private countAffinity(pod: Pod, sign: number): void {
    if (hasPodAffinity(pod)) this.affinityPodCount += sign;
    if (hasRequiredAntiAffinity(pod)) this.requiredAntiAffinityPodCount += sign;
  }

  /** The remembered pod count under `key` at this generation, if any. */
  rememberedCount(key: string): number | undefined {
    const m = this.countMemo;
    return m && m.generation === this.generation ? m.counts.get(key) : undefined;
  }

  /** Remembers a pod count until the next change; a few keys per node (one per owner being spread) are enough. */
  rememberCount(key: string, n: number): void {
    let m = this.countMemo;
    if (!m || m.generation !== this.generation) m = this.countMemo = { generation: this.generation, counts: new Map() };
    if (m.counts.size >= 16) m.counts.clear();
    m.counts.set(key, n);
  }

  addPod(pi: PodInfo): void {
    if (this.pods.has(pi.key)) this.removePod(pi.key);
    this.pods.set(pi.key, pi);
    this.countAffinity(pi.pod, 1);
    addTo(this.requested, pi.requests);
    addTo(this.nonZeroRequested, pi.nonZeroRequests);
    for (const p of pi.hostPorts) this.usedPorts.add(p);
    this.refreshHot();
    this.generation = nextGeneration();
  }

  /**
   * Swaps in a new PodInfo for a pod already here whose requests and host ports are the same (an assumed pod the
   * informer confirms): only the pod object changes, so the totals and the row stay as they are.
   */
  replacePod(pi: PodInfo): void {
    const old = this.pods.get(pi.key);
    if (old) this.countAffinity(old.pod, -1);
    this.pods.set(pi.key, pi);
    this.countAffinity(pi.pod, 1);
    this.generation = nextGeneration();
  }

  /** A copy for what-if checks (preemption dry runs); pod infos are shared, they are never mutated. */
  clone(): NodeInfo {
    const c = new NodeInfo(this.name);
    if (this.node) c.setNode(this.node);
    for (const pi of this.pods.values()) c.addPod(pi);
    c.images = this.images;
    return c;
  }

  removePod(key: string): PodInfo | undefined {
    const pi = this.pods.get(key);
    if (!pi) return undefined;
    this.pods.delete(key);
    this.countAffinity(pi.pod, -1);
    addTo(this.requested, pi.requests, -1);
    addTo(this.nonZeroRequested, pi.nonZeroRequests, -1);
    for (const p of pi.hostPorts) this.usedPorts.add(p, -1);
    this.refreshHot();
    this.generation = nextGeneration();
    return pi;
  }
}

/** kube's podWithAffinity: podAffinity or podAntiAffinity is set. */
export function hasPodAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  return !!a && (!!a.podAffinity || !!a.podAntiAffinity);
}

/** kube's podWithRequiredAntiAffinity. */
export function hasRequiredAntiAffinity(pod: Pod): boolean {
  return !!pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length;
}
