// Finds the Services that select a pod, so pod events can enqueue them (endpoints controller getPodServiceMemberships).

import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import { mapSelectorMatches } from './selector.js';
import type { PodObj, ServiceObj } from './types.js';

export function servicesSelecting(services: Informer<ServiceObj>, pod: PodObj): string[] {
  return services.list(pod.metadata.namespace ?? '')
    .filter((s) => s.spec?.selector && mapSelectorMatches(s.spec.selector, pod.metadata.labels))
    .map(objectKey);
}

/** Keys of services interested in a pod change: those selecting the old or the new labels. */
export function servicesForPodChange(services: Informer<ServiceObj>, oldPod: PodObj | undefined, pod: PodObj): string[] {
  const keys = new Set(servicesSelecting(services, pod));
  if (oldPod) for (const k of servicesSelecting(services, oldPod)) keys.add(k);
  return [...keys];
}
