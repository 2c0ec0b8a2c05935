// Priority admission: resolve spec.priorityClassName (or the global default) into spec.priority and
// spec.preemptionPolicy (plugin/pkg/admission/priority/admission.go).

import type { Pod } from 'kubernetes-types/core/v1.js';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1.js';
import { StatusError } from '../../api/errors.js';
import type { AdmissionPlugin } from './interfaces.js';

export const NAME = 'Priority';

/** The classes every cluster has (pkg/apis/scheduling SystemPriorityClasses). */
export const SYSTEM_PRIORITY_CLASSES = [
  { name: 'system-node-critical', value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

export function priority(): AdmissionPlugin {
  return {
    name: NAME,
    admit(a, lookup) {
      if (a.decl.group !== '' || a.decl.plural !== 'pods' || a.operation !== 'CREATE' || a.subresource || !a.object) return;
      const spec = (a.object as unknown as Pod).spec;
      if (!spec) return;
      let pc: PriorityClass | undefined;
      if (spec.priorityClassName) {
        pc = lookup.get('scheduling.k8s.io', 'priorityclasses', undefined, spec.priorityClassName) as unknown as PriorityClass | undefined;
        if (!pc) throw StatusError.forbidden('', 'pods', a.name, `no PriorityClass with name ${spec.priorityClassName} was found`);
      } else {
        pc = (lookup.list('scheduling.k8s.io', 'priorityclasses') as unknown as PriorityClass[])
          .filter((c) => c.globalDefault)
          .sort((x, y) => x.value - y.value)[0];
        if (pc) spec.priorityClassName = pc.metadata!.name;
      }
      const value = pc?.value ?? 0;
      if (spec.priority !== undefined && spec.priority !== value) {
        throw StatusError.forbidden("", "pods", a.name, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`);
      }
      spec.priority = value;
      spec.preemptionPolicy ??= (pc?.preemptionPolicy as 'Never' | 'PreemptLowerPriority' | undefined) ?? 'PreemptLowerPriority';
    },
  };
}
