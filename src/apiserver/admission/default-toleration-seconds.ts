// DefaultTolerationSeconds admission: pods tolerate not-ready and unreachable nodes for 300 s unless they say
// otherwise (plugin/pkg/admission/defaulttolerationseconds/admission.go).

import type { Pod, Toleration } from 'kubernetes-types/core/v1.js';
import type { AdmissionPlugin } from './interfaces.js';

export const NAME = 'DefaultTolerationSeconds';
const DEFAULT_SECONDS = 300;
const TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

export function defaultTolerationSeconds(seconds = DEFAULT_SECONDS): AdmissionPlugin {
  return {
    name: NAME,
    admit(a) {
      if (a.decl.group !== '' || a.decl.plural !== 'pods' || a.operation !== 'CREATE' || a.subresource || !a.object) return;
      const spec = (a.object as unknown as Pod).spec;
      if (!spec) return;
      const tolerations: Toleration[] = spec.tolerations ?? [];
      for (const key of TAINTS) {
        const covered = tolerations.some((t) => (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'));
        if (!covered) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
      }
      spec.tolerations = tolerations;
    },
  };
}
