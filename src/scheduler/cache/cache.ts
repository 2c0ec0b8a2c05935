// Cache: every node's NodeInfo, kept current from informer events plus the pods this scheduler has assumed but not
// yet seen bound (pkg/scheduler/backend/cache/cache.go). Cycles read it directly; nothing here awaits.

import { NodeInfo, newPodInfo } from '../framework/node-info.js';
import { ROW } from '../framework/node-rows.js';
import type { NodeInfoLister } from '../interfaces.js';
import { normalizedImageName } from '../plugins/image-locality/index.js';
import { podKey, type Node, type Pod } from '../types.js';

interface PodState {
  pod: Pod;
  nodeName: string;
  /** Placed by us and not yet confirmed by the informer. */
  assumed: boolean;
}

export class Cache implements NodeInfoLister {
  private readonly nodes = new Map<string, NodeInfo>();
  /** NodeInfos that have a Node object, in a stable order for round-robin filtering. */
  private readonly nodeList: NodeInfo[] = [];
  private readonly nodeIndex = new Map<string, number>();
  /** Bumped when a node joins or leaves nodeList. */
  private membershipVersion = 0;
  private readonly pods = new Map<string, PodState>();
  private readonly imageNodes = new Map<string, Set<string>>();
  /**
   * A stamp per position of `nodeList`, renewed whenever the node at that position changes or another node moves
   * there: what per-position memos (StaticVerdicts) check to know an answer still holds. Never 0.
   */
  private stamps = new Float64Array(64);
  private nextStamp = 1;
  /** The listed nodes' rows (node-rows.ts), position i at i*ROW; each NodeInfo writes its own row. */
  private rows = new Float64Array(64 * ROW);
  /** Listed nodes with a PreferNoSchedule taint: when 0, TaintToleration's scoring changes nothing. */
  private softTainted = 0;
  /** NodeInfos holding pods with pod (anti-)affinity / required anti-affinity, and the lists made from them. */
  private readonly withAffinity = new Set<NodeInfo>();
  private readonly withRequiredAnti = new Set<NodeInfo>();
  private affinityLists?: { withAffinity: NodeInfo[]; withRequiredAnti: NodeInfo[] };

  list(): readonly NodeInfo[] {
    return this.nodeList;
  }

  membership(): number {
    return this.membershipVersion;
  }

  /** See `stamps`; valid for positions below nodeCount. The array is replaced as it grows, so re-read per cycle. */
  positionStamps(): Float64Array {
    return this.stamps;
  }

  /** The listed nodes' rows: position i's row starts at i*ROW. Replaced as it grows, so re-read per cycle. */
  positionRows(): Float64Array {
    return this.rows;
  }

  /**
   * Listed nodes that hold pods with pod affinity or anti-affinity, and those holding pods with required
   * anti-affinity (the snapshot's havePodsWithAffinityNodeInfoList / havePodsWithRequiredAntiAffinityNodeInfoList):
   * InterPodAffinity need only visit these unless the incoming pod has terms of its own.
   */
  havePodsWithAffinity(): { withAffinity: readonly NodeInfo[]; withRequiredAnti: readonly NodeInfo[] } {
    return (this.affinityLists ??= {
      withAffinity: [...this.withAffinity].filter((ni) => ni.node),
      withRequiredAnti: [...this.withRequiredAnti].filter((ni) => ni.node),
    });
  }

  /** Keeps the affinity sets current after `ni` gained or lost pods, or its Node. */
  private trackAffinity(ni: NodeInfo): void {
    const a = ni.affinityPodCount > 0, r = ni.requiredAntiAffinityPodCount > 0;
    if (a !== this.withAffinity.has(ni) || r !== this.withRequiredAnti.has(ni)) this.affinityLists = undefined;
    if (a) this.withAffinity.add(ni);
    else this.withAffinity.delete(ni);
    if (r) this.withRequiredAnti.add(ni);
    else this.withRequiredAnti.delete(ni);
  }

  /** How many listed nodes carry a PreferNoSchedule taint. */
  softTaintedNodes(): number {
    return this.softTainted;
  }

  /** Gives the node at `pos` a new stamp and its row there, growing both arrays when the list outgrows them. */
  private place(ni: NodeInfo, pos: number): void {
    if (pos >= this.stamps.length) {
      const stamps = new Float64Array(this.stamps.length * 2);
      stamps.set(this.stamps);
      this.stamps = stamps;
      this.rows = new Float64Array(stamps.length * ROW);
      for (let i = 0; i < this.nodeList.length; i++) this.nodeList[i]!.moveRow(this.rows, i * ROW);
    }
    this.stamps[pos] = this.nextStamp++;
    if (ni.hot !== this.rows || ni.hotBase !== pos * ROW) ni.moveRow(this.rows, pos * ROW);
  }

  get(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    return ni?.node ? ni : undefined;
  }

  imageNodeCount(image: string): number {
    return this.imageNodes.get(image)?.size ?? 0;
  }

  get nodeCount(): number {
    return this.nodeList.length;
  }

  isAssumed(key: string): boolean {
    return this.pods.get(key)?.assumed ?? false;
  }

  // ---- nodes ----

  addOrUpdateNode(node: Node): void {
    const name = node.metadata.name!;
    const ni = this.nodeInfo(name);
    this.setImages(ni, node);
    if (ni.node && ni.softTaintCount > 0) this.softTainted--;
    ni.setNode(node);
    if (ni.softTaintCount > 0) this.softTainted++;
    let pos = this.nodeIndex.get(name);
    if (pos === undefined) {
      pos = this.nodeList.length;
      this.nodeIndex.set(name, pos);
      this.nodeList.push(ni);
      this.membershipVersion++;
    }
    this.place(ni, pos);
    if (this.withAffinity.has(ni) || this.withRequiredAnti.has(ni)) this.affinityLists = undefined;
  }

  removeNode(node: Node): void {
    const name = node.metadata.name!;
    const ni = this.nodes.get(name);
    if (!ni) return;
    this.clearImages(ni);
    const i = this.nodeIndex.get(name);
    if (i !== undefined) {
      // Swap-remove keeps removal O(1); the order only needs to be stable between changes.
      const last = this.nodeList.pop()!;
      if (last !== ni) {
        this.nodeList[i] = last;
        this.nodeIndex.set(last.name, i);
        this.place(last, i);
      }
      this.nodeIndex.delete(name);
      this.membershipVersion++;
      ni.moveRow();
      if (ni.node && ni.softTaintCount > 0) this.softTainted--;
    }
    // Pods still bound to a deleted node keep their NodeInfo (as kube's "imaginary node") until they go.
    ni.node = undefined;
    if (this.withAffinity.has(ni) || this.withRequiredAnti.has(ni)) this.affinityLists = undefined;
    if (ni.pods.size === 0) this.nodes.delete(name);
  }

  // ---- pods ----

  /** The scheduler decided `pod` goes to `nodeName`; count it there before the API confirms it. */
  assumePod(pod: Pod, nodeName: string): void {
    const key = podKey(pod);
    if (this.pods.has(key)) throw new Error(`pod ${key} is in the cache, so can't be assumed`);
    this.pods.set(key, { pod, nodeName, assumed: true });
    const target = this.nodeInfo(nodeName);
    target.addPod(newPodInfo(pod));
    this.trackAffinity(target);
  }

  /** Binding failed: take the assumed pod back out. */
  forgetPod(pod: Pod): void {
    const key = podKey(pod);
    const st = this.pods.get(key);
    if (!st?.assumed) return;
    this.removeFromNode(key, st.nodeName);
    this.pods.delete(key);
  }

  /** A bound pod seen by the informer (replaces the assumed copy, if any). */
  addPod(pod: Pod): void {
    const key = podKey(pod);
    const st = this.pods.get(key);
    const nodeName = pod.spec!.nodeName!;
    if (st && st.nodeName === nodeName && sameFootprint(st.pod, pod)) {
      // The usual confirmation of an assumed pod: same node, same containers, so nothing needs recounting.
      const ni = this.nodes.get(nodeName);
      const pi = ni?.pods.get(key);
      if (ni && pi) {
        ni.replacePod({ ...pi, pod });
        this.trackAffinity(ni);
        this.pods.set(key, { pod, nodeName, assumed: false });
        return;
      }
    }
    if (st) this.removeFromNode(key, st.nodeName);
    this.pods.set(key, { pod, nodeName, assumed: false });
    const target = this.nodeInfo(nodeName);
    target.addPod(newPodInfo(pod));
    this.trackAffinity(target);
  }

  updatePod(pod: Pod): void {
    this.addPod(pod);
  }

  removePod(pod: Pod): void {
    const key = podKey(pod);
    const st = this.pods.get(key);
    if (!st) return;
    this.removeFromNode(key, st.nodeName);
    this.pods.delete(key);
  }

  private removeFromNode(key: string, nodeName: string): void {
    const ni = this.nodes.get(nodeName);
    if (!ni) return;
    ni.removePod(key);
    this.trackAffinity(ni);
    if (!ni.node && ni.pods.size === 0) this.nodes.delete(nodeName);
  }

  private nodeInfo(name: string): NodeInfo {
    let ni = this.nodes.get(name);
    if (!ni) this.nodes.set(name, (ni = new NodeInfo(name)));
    return ni;
  }

  private setImages(ni: NodeInfo, node: Node): void {
    this.clearImages(ni);
    const images = new Map<string, number>();
    for (const img of node.status?.images ?? []) {
      for (const n of img.names ?? []) {
        const name = normalizedImageName(n);
        images.set(name, img.sizeBytes ?? 0);
        let s = this.imageNodes.get(name);
        if (!s) this.imageNodes.set(name, (s = new Set()));
        s.add(ni.name);
      }
    }
    ni.images = images;
  }

  private clearImages(ni: NodeInfo): void {
    for (const name of ni.images.keys()) {
      const s = this.imageNodes.get(name);
      s?.delete(ni.name);
      if (s?.size === 0) this.imageNodes.delete(name);
    }
    ni.images = new Map();
  }
}

/**
 * True when two versions of a pod ask for the same resources and host ports: the parts newPodInfo reads are the very
 * same frozen (so unchanged) objects. The API server shares unchanged parts between revisions of an object and hands
 * watchers frozen objects, so a binding's new revision passes this against the pod the scheduler assumed.
 */
function sameFootprint(a: Pod, b: Pod): boolean {
  const x = a.spec, y = b.spec;
  if (!x || !y || x.containers !== y.containers || !Object.isFrozen(x.containers)) return false;
  return x.initContainers === y.initContainers && x.overhead === y.overhead
    && (x.initContainers === undefined || Object.isFrozen(x.initContainers)) && (x.overhead === undefined || Object.isFrozen(x.overhead));
}
