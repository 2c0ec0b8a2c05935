// Every resource's Strategy, keyed `<plural>` for the core group and `<group>/<plural>` otherwise.

import type { Strategy } from '../interfaces.js';
// Registers the Windows/OS pod rules on validation/pod-spec.ts's POD_OS_VALIDATORS seam (side effect only).
import '../validation/windows/index.js';
import {
  endpointSliceStrategy, eventStrategy, eventsV1Strategy, leaseStrategy, priorityClassStrategy, runtimeClassStrategy,
} from './cluster-misc.js';
import {
  configMapStrategy, endpointsStrategy, limitRangeStrategy, namespaceStrategy, nodeStrategy, resourceQuotaStrategy,
  secretStrategy, serviceAccountStrategy,
} from './core-misc.js';
import { cronJobStrategy, jobStrategy } from './batch.js';
import { podStrategy } from './pods.js';
import { hpaStrategy } from './autoscaling.js';
import { replicationControllerStrategy } from './replication-controllers.js';
import { podDisruptionBudgetStrategy } from './policy.js';
import { serviceStrategy } from './services.js';
import { deploymentStrategy, replicaSetStrategy } from './workloads.js';
import { controllerRevisionStrategy, daemonSetStrategy } from './daemonsets.js';
import { persistentVolumeClaimStrategy, persistentVolumeStrategy, storageClassStrategy } from './storage.js';
import { statefulSetStrategy } from './statefulsets.js';

export const STRATEGIES: Record<string, Strategy> = {
  pods: podStrategy,
  nodes: nodeStrategy,
  namespaces: namespaceStrategy,
  services: serviceStrategy,
  endpoints: endpointsStrategy,
  configmaps: configMapStrategy,
  secrets: secretStrategy,
  serviceaccounts: serviceAccountStrategy,
  events: eventStrategy,
  limitranges: limitRangeStrategy,
  resourcequotas: resourceQuotaStrategy,
  replicationcontrollers: replicationControllerStrategy,
  'autoscaling/horizontalpodautoscalers': hpaStrategy,
  persistentvolumes: persistentVolumeStrategy,
  persistentvolumeclaims: persistentVolumeClaimStrategy,
  'storage.k8s.io/storageclasses': storageClassStrategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/controllerrevisions': controllerRevisionStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'events.k8s.io/events': eventsV1Strategy,
  'coordination.k8s.io/leases': leaseStrategy,
  'discovery.k8s.io/endpointslices': endpointSliceStrategy,
  'node.k8s.io/runtimeclasses': runtimeClassStrategy,
  'scheduling.k8s.io/priorityclasses': priorityClassStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
};

/** The strategy for a group and plural, or an empty one (no defaults, no extra validation). */
export function strategyFor(group: string, plural: string): Strategy {
  return STRATEGIES[group ? `${group}/${plural}` : plural] ?? {};
}
