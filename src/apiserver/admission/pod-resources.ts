// A pod's total requests or limits, as the scheduler, LimitRanger and ResourceQuota count them
// (pkg/api/v1/resource/helpers.go PodRequests/PodLimits; limitranger podRequests/podLimits).

import type { Pod } from 'kubernetes-types/core/v1.js';
import { addInto, maxInto, parseList, type ResourceList } from './resource-list.js';

/** Pod-level totals: containers and sidecars add up, plain init containers only raise the maximum (podRequests/podLimits). */
export function podTotals(pod: Pod, field: 'requests' | 'limits'): ResourceList {
  const total: ResourceList = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(total, parseList(c.resources?.[field]));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = parseList(c.resources?.[field]);
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(initMax, sidecars);
    } else {
      maxInto(initMax, addInto(new Map(sidecars), own));
    }
  }
  return maxInto(total, initMax);
}
