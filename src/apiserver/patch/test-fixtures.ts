// Hand-written OpenAPI v3 component schemas for the patch tests: a trimmed Deployment with the real extensions.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const wrap = (name: string, extra: Record<string, unknown> = {}) => ({ allOf: [ref(name)], default: {}, ...extra });
const list = (item: string, extra: Record<string, unknown> = {}) => ({ type: 'array', items: { allOf: [ref(item)], default: {} }, ...extra });
const str = { type: 'string' };

export const SCHEMAS: Record<string, unknown> = {
  'io.k8s.api.apps.v1.Deployment': {
    type: 'object',
    properties: { apiVersion: str, kind: str, metadata: wrap('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), spec: wrap('io.k8s.api.apps.v1.DeploymentSpec'), status: wrap('io.k8s.api.apps.v1.DeploymentStatus') },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    type: 'object',
    properties: {
      name: str,
      labels: { type: 'object', additionalProperties: { type: 'string', default: '' } },
      annotations: { type: 'object', additionalProperties: { type: 'string', default: '' } },
      finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
      ownerReferences: list('io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' }),
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': { type: 'object', properties: { uid: str, name: str } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': {
    type: 'object', properties: { matchLabels: { type: 'object', additionalProperties: str } }, 'x-kubernetes-map-type': 'atomic',
  },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      selector: wrap('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'),
      strategy: wrap('io.k8s.api.apps.v1.DeploymentStrategy', { 'x-kubernetes-patch-strategy': 'retainKeys' }),
      template: wrap('io.k8s.api.core.v1.PodTemplateSpec'),
    },
  },
  'io.k8s.api.apps.v1.DeploymentStrategy': {
    type: 'object', properties: { type: str, rollingUpdate: wrap('io.k8s.api.apps.v1.RollingUpdateDeployment') },
  },
  'io.k8s.api.apps.v1.RollingUpdateDeployment': { type: 'object', properties: { maxSurge: {}, maxUnavailable: {} } },
  'io.k8s.api.apps.v1.DeploymentStatus': {
    type: 'object',
    properties: { conditions: list('io.k8s.api.apps.v1.DeploymentCondition', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' }) },
  },
  'io.k8s.api.apps.v1.DeploymentCondition': { type: 'object', properties: { type: str, status: str } },
  'io.k8s.api.core.v1.PodTemplateSpec': {
    type: 'object', properties: { metadata: wrap('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), spec: wrap('io.k8s.api.core.v1.PodSpec') },
  },
  'io.k8s.api.core.v1.PodSpec': {
    type: 'object',
    properties: {
      containers: list('io.k8s.api.core.v1.Container', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' }),
      volumes: list('io.k8s.api.core.v1.Volume', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge,retainKeys' }),
      tolerations: list('io.k8s.api.core.v1.Toleration', { 'x-kubernetes-list-type': 'atomic' }),
      nodeSelector: { type: 'object', additionalProperties: str, 'x-kubernetes-map-type': 'atomic' },
    },
  },
  'io.k8s.api.core.v1.Toleration': { type: 'object', properties: { key: str, effect: str } },
  'io.k8s.api.core.v1.Volume': {
    type: 'object', properties: { name: str, emptyDir: { type: 'object' }, configMap: { type: 'object' } },
  },
  'io.k8s.api.core.v1.Container': {
    type: 'object',
    properties: {
      name: str,
      image: str,
      args: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
      ports: list('io.k8s.api.core.v1.ContainerPort', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'], 'x-kubernetes-patch-merge-key': 'containerPort', 'x-kubernetes-patch-strategy': 'merge' }),
      env: list('io.k8s.api.core.v1.EnvVar', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' }),
    },
  },
  'io.k8s.api.core.v1.ContainerPort': {
    type: 'object', properties: { containerPort: { type: 'integer' }, name: str, protocol: { type: 'string', default: 'TCP' } },
  },
  'io.k8s.api.core.v1.EnvVar': { type: 'object', properties: { name: str, value: str } },
};

export const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
