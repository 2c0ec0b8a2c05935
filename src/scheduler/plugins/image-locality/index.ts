// ImageLocality: prefers nodes that already hold the pod's images, weighted by how widely each image is spread so
// one popular node is not favoured for everything (plugins/imagelocality/image_locality.go).

import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status } from '../../framework/status.js';
import type { Handle, PreScorePlugin, ScorePlugin } from '../../interfaces.js';
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

const PRE_SCORE_KEY = `PreScore${NAME}`;

interface PreScoreState {
  /** Normalized names of the pod's images with their spread (nodes holding it / all nodes), once per cycle. */
  images: { name: string; spread: number }[];
  numContainers: number;
}

export class ImageLocality implements PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  constructor(private readonly handle: Pick<Handle, 'nodeInfos'>) {}

  /** Work done once per pod rather than per node; when no node holds any image every score is 0, so Skip. */
  preScore(state: CycleState, pod: Pod): Status {
    const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
    const total = this.handle.nodeInfos.list().length;
    const images: PreScoreState['images'] = [];
    for (const c of containers) {
      if (!c.image) continue;
      const name = normalizedImageName(c.image);
      const holders = this.handle.nodeInfos.imageNodeCount(name);
      if (holders > 0) images.push({ name, spread: holders / total });
    }
    if (images.length === 0) return Status.SKIP;
    state.write(PRE_SCORE_KEY, { images, numContainers: containers.length } satisfies PreScoreState);
    return Status.SUCCESS;
  }

  score(state: CycleState, _pod: Pod, node: NodeInfo): number {
    const { images, numContainers } = state.read<PreScoreState>(PRE_SCORE_KEY);
    let sum = 0;
    for (const { name, spread } of images) {
      const size = node.images.get(name);
      if (size !== undefined) sum += Math.trunc(size * spread);
    }
    return calculatePriority(sum, numContainers);
  }
}

export const create = (_args: unknown, handle: Handle): ImageLocality => new ImageLocality(handle);
