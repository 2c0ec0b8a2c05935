// Cache: every node's NodeInfo, kept current from informer events plus the pods this scheduler has assumed but not
// yet seen bound (pkg/scheduler/backend/cache/cache.go). Cycles read it directly; nothing here awaits.

import { NodeInfo, newPodInfo } from '../framework/node-info.js';
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
  private readonly pods = new Map<string, PodState>();
  private readonly imageNodes = new Map<string, Set<string>>();

  list(): readonly NodeInfo[] {
    return this.nodeList;
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
    ni.setNode(node);
    if (!this.nodeIndex.has(name)) {
      this.nodeIndex.set(name, this.nodeList.length);
      this.nodeList.push(ni);
    }
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
      }
      this.nodeIndex.delete(name);
    }
    // Pods still bound to a deleted node keep their NodeInfo (as kube's "imaginary node") until they go.
    ni.node = undefined;
    if (ni.pods.size === 0) this.nodes.delete(name);
  }

  // ---- pods ----

  /** The scheduler decided `pod` goes to `nodeName`; count it there before the API confirms it. */
  assumePod(pod: Pod, nodeName: string): void {
    const key = podKey(pod);
    if (this.pods.has(key)) throw new Error(`pod ${key} is in the cache, so can't be assumed`);
    this.pods.set(key, { pod, nodeName, assumed: true });
    this.nodeInfo(nodeName).addPod(newPodInfo(pod));
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
    if (st) this.removeFromNode(key, st.nodeName);
    const nodeName = pod.spec!.nodeName!;
    this.pods.set(key, { pod, nodeName, assumed: false });
    this.nodeInfo(nodeName).addPod(newPodInfo(pod));
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
