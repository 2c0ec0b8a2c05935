// ImageLocality: prefers nodes that already hold the pod's images, weighted by how widely each image is spread so
// one popular node is not favoured for everything (plugins/imagelocality/image_locality.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { Handle, ScorePlugin } from '../../interfaces.js';
import { MAX_NODE_SCORE } from '../../interfaces.js';
import type { Pod } from '../../types.js';

export const NAME = 'ImageLocality';
const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** Appends `:latest` to an image without tag or digest (normalizedImageName). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

export function calculatePriority(sumScores: number, numContainers: number): number {
  const max = MAX_CONTAINER_THRESHOLD * numContainers;
  const s = Math.min(Math.max(sumScores, MIN_THRESHOLD), max);
  return Math.trunc((MAX_NODE_SCORE * (s - MIN_THRESHOLD)) / (max - MIN_THRESHOLD));
}

export class ImageLocality implements ScorePlugin {
  readonly name = NAME;
  constructor(private readonly handle: Pick<Handle, 'nodeInfos'>) {}

  score(_s: CycleState, pod: Pod, node: NodeInfo): number {
    const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
    const total = this.handle.nodeInfos.list().length;
    let sum = 0;
    for (const c of containers) {
      if (!c.image) continue;
      const name = normalizedImageName(c.image);
      const size = node.images.get(name);
      if (size === undefined) continue;
      sum += Math.trunc(size * (this.handle.nodeInfos.imageNodeCount(name) / total));
    }
    return calculatePriority(sum, containers.length);
  }
}

export const create = (_args: unknown, handle: Handle): ImageLocality => new ImageLocality(handle);
