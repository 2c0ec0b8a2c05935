// Resource types the built-in components talk about, so no component spells a group or plural by hand.

import type { ResourceType } from './interfaces.js';

const rt = (group: string, version: string, resource: string, kind: string, namespaced = true): ResourceType =>
  ({ group, version, resource, kind, namespaced });

export const R = {
  namespaces: rt('', 'v1', 'namespaces', 'Namespace', false),
  nodes: rt('', 'v1', 'nodes', 'Node', false),
  pods: rt('', 'v1', 'pods', 'Pod'),
  services: rt('', 'v1', 'services', 'Service'),
  endpoints: rt('', 'v1', 'endpoints', 'Endpoints'),
  configmaps: rt('', 'v1', 'configmaps', 'ConfigMap'),
  secrets: rt('', 'v1', 'secrets', 'Secret'),
  persistentvolumes: rt('', 'v1', 'persistentvolumes', 'PersistentVolume', false),
  persistentvolumeclaims: rt('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim'),
  storageclasses: rt('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false),
  volumeattachments: rt('storage.k8s.io', 'v1', 'volumeattachments', 'VolumeAttachment', false),
  csidrivers: rt('storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false),
  csinodes: rt('storage.k8s.io', 'v1', 'csinodes', 'CSINode', false),
  serviceaccounts: rt('', 'v1', 'serviceaccounts', 'ServiceAccount'),
  events: rt('', 'v1', 'events', 'Event'),
  eventsV1: rt('events.k8s.io', 'v1', 'events', 'Event'),
  leases: rt('coordination.k8s.io', 'v1', 'leases', 'Lease'),
  certificatesigningrequests: rt('certificates.k8s.io', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false),
  replicationcontrollers: rt('', 'v1', 'replicationcontrollers', 'ReplicationController'),
  horizontalpodautoscalers: rt('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
  podMetrics: { ...rt('metrics.k8s.io', 'v1beta1', 'pods', 'PodMetrics'), verbs: ['get', 'list'] },
  deployments: rt('apps', 'v1', 'deployments', 'Deployment'),
  replicasets: rt('apps', 'v1', 'replicasets', 'ReplicaSet'),
  daemonsets: rt('apps', 'v1', 'daemonsets', 'DaemonSet'),
  statefulsets: rt('apps', 'v1', 'statefulsets', 'StatefulSet'),
  controllerrevisions: rt('apps', 'v1', 'controllerrevisions', 'ControllerRevision'),
  jobs: rt('batch', 'v1', 'jobs', 'Job'),
  cronjobs: rt('batch', 'v1', 'cronjobs', 'CronJob'),
  endpointslices: rt('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice'),
  networkpolicies: rt('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy'),
  poddisruptionbudgets: rt('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
  runtimeclasses: rt('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false),
  customresourcedefinitions: rt('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
  roles: rt('rbac.authorization.k8s.io', 'v1', 'roles', 'Role'),
  clusterroles: rt('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  rolebindings: rt('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'),
  clusterrolebindings: rt('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
} as const satisfies Record<string, ResourceType>;
