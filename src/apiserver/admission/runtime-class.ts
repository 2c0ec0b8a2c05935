// RuntimeClass admission: a pod naming a RuntimeClass gets the class's overhead and scheduling (node selector and
// tolerations) merged in, and is rejected when the class is missing or conflicts
// (plugin/pkg/admission/runtimeclass/admission.go; seed 000 "Simplifying with RuntimeClass").

import type { Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import type { RuntimeClass } from 'kubernetes-types/node/v1.js';
import { StatusError } from '../../api/errors.js';
import { sameResourceList } from './resource-list.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { mergeTolerations } from './merge-tolerations.js';

export const NAME = 'RuntimeClass';

const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
const OVERHEAD_WITHOUT_CLASS = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';

/** The pod of a pod CREATE (the only operation the plugin handles), else undefined. */
function podOf(a: AdmissionAttributes): Pod | undefined {
  if (a.decl.group !== '' || a.decl.plural !== 'pods' || a.operation !== 'CREATE' || a.subresource || !a.object) return undefined;
  return a.object as unknown as Pod;
}

/** The pod's RuntimeClass, undefined when it names none; a missing class is a 403 (prepareObjects). */
function classOf(a: AdmissionAttributes, spec: PodSpec, lookup: AdmissionLookup): RuntimeClass | undefined {
  const name = spec.runtimeClassName;
  if (!name) return undefined;
  const rc = lookup.get('node.k8s.io', 'runtimeclasses', undefined, name) as unknown as RuntimeClass | undefined;
  if (!rc) throw StatusError.forbidden('', 'pods', a.name, `pod rejected: RuntimeClass "${name}" not found`);
  return rc;
}

function setOverhead(a: AdmissionAttributes, spec: PodSpec, rc: RuntimeClass): void {
  const podFixed = rc.overhead?.podFixed;
  if (!podFixed) return;
  if (spec.overhead && Object.keys(spec.overhead).length > 0 && !sameResourceList(spec.overhead, podFixed)) {
    throw StatusError.forbidden('', 'pods', a.name, OVERHEAD_MISMATCH);
  }
  spec.overhead = { ...podFixed };
}

function setScheduling(a: AdmissionAttributes, spec: PodSpec, rc: RuntimeClass): void {
  const scheduling = rc.scheduling;
  if (!scheduling) return;
  const selector = scheduling.nodeSelector;
  if (selector) {
    if (!spec.nodeSelector) {
      spec.nodeSelector = { ...selector };
    } else {
      for (const [key, value] of Object.entries(selector)) {
        const podValue = spec.nodeSelector[key];
        if (podValue !== undefined && podValue !== value) {
          throw StatusError.forbidden('', 'pods', a.name,
            `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
        }
        spec.nodeSelector[key] = value;
      }
    }
  }
  if (scheduling.tolerations?.length) spec.tolerations = mergeTolerations(spec.tolerations ?? [], scheduling.tolerations);
}

export function runtimeClass(): AdmissionPlugin {
  return {
    name: NAME,
    admit(a, lookup) {
      const pod = podOf(a);
      if (!pod?.spec) return;
      const rc = classOf(a, pod.spec, lookup);
      if (!rc) return;
      setOverhead(a, pod.spec, rc);
      setScheduling(a, pod.spec, rc);
    },
    validate(a, lookup) {
      // Overhead may only come from the class: a hand-set value must equal the class's (validateOverhead).
      const pod = podOf(a);
      if (!pod?.spec?.overhead || Object.keys(pod.spec.overhead).length === 0) return;
      const podFixed = classOf(a, pod.spec, lookup)?.overhead?.podFixed;
      if (!podFixed) throw StatusError.forbidden('', 'pods', a.name, OVERHEAD_WITHOUT_CLASS);
      if (!sameResourceList(pod.spec.overhead, podFixed)) throw StatusError.forbidden('', 'pods', a.name, OVERHEAD_MISMATCH);
    },
  };
}
