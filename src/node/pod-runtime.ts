// Creates the kubelet's runtime record for a pod it has just been given.

import type { Pod } from 'kubernetes-types/core/v1.js';
import { objectKey } from '../api/types.js';
import { resolveBehaviour } from './behaviour.js';
import { imageConfig, lookupImage } from './images/catalogue.js';
import { serversOf } from './images/servers.js';
import { processArgv } from './process/argv.js';
import { newContainerRuntime, type PodRuntime } from './runtime-state.js';

export function newPodRuntime(pod: Pod, now: number): PodRuntime {
  const containers = [
    ...(pod.spec?.initContainers ?? []).map((c) => ({ c, init: true })),
    ...(pod.spec?.containers ?? []).map((c) => ({ c, init: false })),
  ].map(({ c, init }) => {
    const img = lookupImage(c.image ?? '');
    let entry = img?.entrypoint ?? { kind: 'serve' as const };
    // A command line the server catalogue knows (agnhost netexec, nginx …) runs until stopped.
    if (img && serversOf({ repository: img.ref.repository, argv: processArgv(c, imageConfig(img)), hostname: '', podIP: '' }).length) {
      entry = { ...entry, kind: 'serve' };
    }
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
