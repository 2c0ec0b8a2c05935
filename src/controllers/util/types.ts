// Typed object views the controllers use: kubernetes-types shapes that also satisfy the client's KubeObject.

import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { Endpoints, Namespace, Node, Pod, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import type { KubeObject, ObjectMeta } from '../../api/types.js';

/** A kubernetes-types object whose metadata is always present, as it is on anything read from the API. */
export type Typed<T> = T & KubeObject & { metadata: ObjectMeta };

export type DeploymentObj = Typed<Deployment>;
export type ReplicaSetObj = Typed<ReplicaSet>;
export type PodObj = Typed<Pod>;
export type ServiceObj = Typed<Service>;
export type EndpointsObj = Typed<Endpoints>;
export type EndpointSliceObj = Typed<EndpointSlice>;
export type NamespaceObj = Typed<Namespace>;
export type NodeObj = Typed<Node>;
export type ServiceAccountObj = Typed<ServiceAccount>;

/** Deep copy of a cached object: informer caches are shared and must never be changed in place. */
export function clone<T>(obj: T): T {
  return structuredClone(obj);
}
