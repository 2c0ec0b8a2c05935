// A pod built from a controller's template (pkg/controller/controller_utils.go GetPodFromTemplate).

import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from '../../api/types.js';
import type { PodObj } from '../util/types.js';

/** `<prefix>-` unless that would be too long for a name (apimachinery names.SimpleNameGenerator limits to 58). */
export function podGenerateName(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return prefix.length > 58 ? prefix.slice(0, 58) : prefix;
}

export function podFromTemplate(template: PodTemplateSpec | undefined, namespace: string, controllerName: string, ref: OwnerReference): PodObj {
  const meta = template?.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: podGenerateName(controllerName),
      namespace,
      labels: { ...(meta.labels ?? {}) },
      annotations: { ...(meta.annotations ?? {}) },
      ...(meta.finalizers?.length ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [ref],
    },
    spec: structuredClone(template?.spec ?? { containers: [] }),
  };
}
