// Creates the kubelet's runtime record for a pod it has just been given.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { objectKey } from '../api/types.js';
import { resolveBehaviour } from './behaviour.js';
import { lookupImage } from './images/catalogue.js';
import { newContainerRuntime, type PodRuntime } from './runtime-state.js';

export function newPodRuntime(pod: Pod, now: number): PodRuntime {
  const containers = [
    ...(pod.spec?.initContainers ?? []).map((c) => ({ c, init: true })),
    ...(pod.spec?.containers ?? []).map((c) => ({ c, init: false })),
  ].map(({ c, init }) => {
    const entry = lookupImage(c.image ?? '')?.entrypoint ?? { kind: 'serve' as const };
    return newContainerRuntime(c.name, c.image ?? '', init, resolveBehaviour(pod, c, entry), now, !init && !!(c.readinessProbe || c.startupProbe));
  });
  return {
    key: objectKey({ metadata: { name: pod.metadata?.name, namespace: pod.metadata?.namespace } }),
    uid: pod.metadata?.uid ?? '',
    pod,
    state: 'admit',
    since: now,
    containers,
    conditionTimes: {},
  };
}
