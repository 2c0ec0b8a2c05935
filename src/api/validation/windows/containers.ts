// Every container of a PodSpec with its field path, in the two orders kube walks them.

import type { Container, EphemeralContainer, PodSpec } from 'kubernetes-types/core/v1.js';

/** The fields every kind of container shares that the Windows rules read. */
export type AnyContainer = Pick<Container, 'securityContext'> | Pick<EphemeralContainer, 'securityContext'>;

export interface ContainerAt {
  container: AnyContainer;
  /** e.g. `spec.initContainers[0]` */
  path: string;
}

const at = (list: AnyContainer[] | undefined, path: string): ContainerAt[] =>
  (list ?? []).map((container, i) => ({ container, path: `${path}[${i}]` }));

/** podshelper.VisitContainersWithPath (pkg/apis/core/pods/helpers.go): init, regular, then ephemeral containers. */
export function visitOrder(spec: PodSpec, path: string): ContainerAt[] {
  return [
    ...at(spec.initContainers, `${path}.initContainers`),
    ...at(spec.containers, `${path}.containers`),
    ...at(spec.ephemeralContainers, `${path}.ephemeralContainers`),
  ];
}

/**
 * ValidatePodSpec's order (pkg/apis/core/validation/validation.go): validateContainers, validateInitContainers,
 * validateEphemeralContainers — per-container checks such as ValidateSecurityContext come out in this order.
 */
export function validationOrder(spec: PodSpec, path: string): ContainerAt[] {
  return [
    ...at(spec.containers, `${path}.containers`),
    ...at(spec.initContainers, `${path}.initContainers`),
    ...at(spec.ephemeralContainers, `${path}.ephemeralContainers`),
  ];
}

/** Go's `!= nil` for a decoded JSON field: absent and `null` are unset; `{}`, `[]`, `false` and `0` are set. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
