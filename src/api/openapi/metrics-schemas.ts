// The Metrics API's schemas (metrics.k8s.io/v1beta1, the types of k8s.io/metrics pkg/apis/metrics/v1beta1), as
// metrics-server publishes them under their Go package's definition names; descriptions are winkube's own words.

import type { Schema } from './schemas.js';

const P = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.';
const META = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.';
const QUANTITY = { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' };
const gvk = (kind: string) => [{ group: 'metrics.k8s.io', version: 'v1beta1', kind }];

const typeMeta = {
  apiVersion: { type: 'string', description: 'The versioned schema of this representation of an object.' },
  kind: { type: 'string', description: 'The REST resource this object represents.' },
};
const sample = {
  timestamp: { allOf: [{ $ref: `${META}Time` }], description: 'The end of the window the usage was averaged over.' },
  window: { type: 'string', description: 'The length of the window the usage was averaged over, as a duration (e.g. "20s").' },
};
const usage = { type: 'object', additionalProperties: QUANTITY, description: 'Resource usage (cpu, memory) averaged over the window.' };

function list(kind: string, item: string): Schema {
  return {
    description: `A list of ${item}.`,
    type: 'object',
    required: ['items'],
    properties: {
      ...typeMeta,
      items: { type: 'array', items: { allOf: [{ $ref: `#/components/schemas/${P}${item}` }], default: {} }, description: 'The metrics.' },
      metadata: { allOf: [{ $ref: `${META}ListMeta` }], default: {}, description: 'Standard list metadata.' },
    },
    'x-kubernetes-group-version-kind': gvk(kind),
  };
}

export const METRICS_SCHEMAS: Record<string, Schema> = {
  [`${P}NodeMetrics`]: {
    description: 'The resource usage of a node, as metrics-server last sampled it.',
    type: 'object',
    required: ['timestamp', 'window', 'usage'],
    properties: { ...typeMeta, metadata: { allOf: [{ $ref: `${META}ObjectMeta` }], default: {}, description: 'Standard object metadata.' }, ...sample, usage },
    'x-kubernetes-group-version-kind': gvk('NodeMetrics'),
  },
  [`${P}NodeMetricsList`]: list('NodeMetricsList', 'NodeMetrics'),
  [`${P}PodMetrics`]: {
    description: 'The resource usage of a pod and its containers, as metrics-server last sampled it.',
    type: 'object',
    required: ['timestamp', 'window', 'containers'],
    properties: {
      ...typeMeta,
      metadata: { allOf: [{ $ref: `${META}ObjectMeta` }], default: {}, description: 'Standard object metadata.' },
      ...sample,
      containers: { type: 'array', items: { allOf: [{ $ref: `#/components/schemas/${P}ContainerMetrics` }], default: {} }, description: 'The usage of each container of the pod.' },
    },
    'x-kubernetes-group-version-kind': gvk('PodMetrics'),
  },
  [`${P}PodMetricsList`]: list('PodMetricsList', 'PodMetrics'),
  [`${P}ContainerMetrics`]: {
    description: 'The resource usage of one container.',
    type: 'object',
    required: ['name', 'usage'],
    properties: { name: { type: 'string', default: '', description: 'The container name, as in the pod spec.' }, usage },
  },
};
