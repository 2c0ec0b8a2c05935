// The resource types the aggregator's controllers watch, named once.

import type { ResourceType } from '../../client/interfaces.js';

export const APISERVICES: ResourceType = { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', namespaced: false, kind: 'APIService' };

/** kube-aggregator pkg/controllers/autoregister: which APIServices it owns, and whether only at start. */
export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';
export const MANAGE_ON_START = 'onstart';
export const MANAGE_CONTINUOUSLY = 'true';
