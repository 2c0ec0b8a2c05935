// The per-controller ClusterRoles `system:controller:<name>`, each bound to the ServiceAccount kube-system/<name>
// (bootstrappolicy/controller_policy.go; rules as in testdata/controller-roles.yaml). Only the controllers winkube
// runs, or whose objects it serves, are listed.

import type { PolicyRule } from '../rbac/rules.js';
import { EVENTS, r, READ } from './rule-builders.js';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const AE = ['apps', 'extensions'];
const ALL_VERBS = 'create delete get list patch update watch';

export const CONTROLLER_ROLES: Record<string, PolicyRule[]> = {
  'attachdetach-controller': [
    r('list watch', [''], 'persistentvolumeclaims persistentvolumes'), r(READ, [''], 'nodes'), r('patch update', [''], 'nodes/status'),
    r('list watch', [''], 'pods'), EVENTS, r('create delete get list watch', ['storage.k8s.io'], 'volumeattachments'),
    r(READ, ['storage.k8s.io'], 'csidrivers'), r(READ, ['storage.k8s.io'], 'csinodes'),
  ],
  'certificate-controller': [
    r('delete get list watch', ['certificates.k8s.io'], 'certificatesigningrequests'),
    r('update', ['certificates.k8s.io'], 'certificatesigningrequests/approval certificatesigningrequests/status'),
    r('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client-kubelet'),
    r('sign', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client kubernetes.io/kube-apiserver-client-kubelet kubernetes.io/kubelet-serving kubernetes.io/legacy-unknown'),
    r('create', ['authorization.k8s.io'], 'subjectaccessreviews'), EVENTS,
  ],
  'clusterrole-aggregation-controller': [r('escalate get list patch update watch', ['rbac.authorization.k8s.io'], 'clusterroles')],
  'cronjob-controller': [
    r('get list update watch', ['batch'], 'cronjobs'), r(ALL_VERBS, ['batch'], 'jobs'), r('update', ['batch'], 'cronjobs/status'),
    r('update', ['batch'], 'cronjobs/finalizers'), r('delete list watch', [''], 'pods'), EVENTS,
  ],
  'daemon-set-controller': [
    r(READ, AE, 'daemonsets'), r('update', AE, 'daemonsets/status'), r('update', AE, 'daemonsets/finalizers'), r('list watch', [''], 'nodes'),
    r('create delete list patch watch', [''], 'pods'), r('create', [''], 'pods/binding'), r(ALL_VERBS, ['apps'], 'controllerrevisions'), EVENTS,
  ],
  'deployment-controller': [
    r('get list update watch', AE, 'deployments'), r('update', AE, 'deployments/status'), r('update', AE, 'deployments/finalizers'),
    r(ALL_VERBS, AE, 'replicasets'), r('get list update watch', [''], 'pods'), EVENTS,
  ],
  'disruption-controller': [
    r(READ, AE, 'deployments'), r(READ, AE, 'replicasets'), r(READ, [''], 'replicationcontrollers'), r(READ, ['policy'], 'poddisruptionbudgets'),
    r(READ, ['apps'], 'statefulsets'), r('update', ['policy'], 'poddisruptionbudgets/status'), r('patch update', [''], 'pods/status'),
    r('get', ['*'], '*/scale'), EVENTS,
  ],
  'endpoint-controller': [
    r(READ, [''], 'pods services'), r('create delete get list update watch', [''], 'endpoints'), r('create', [''], 'endpoints/restricted'), EVENTS,
  ],
  'endpointslice-controller': [
    r(READ, [''], 'nodes pods services'), r('update', [''], 'services/finalizers'),
    r('create delete get list update watch', ['discovery.k8s.io'], 'endpointslices'), EVENTS,
  ],
  'endpointslicemirroring-controller': [
    r(READ, [''], 'endpoints services'), r('update', [''], 'services/finalizers'), r('update', [''], 'endpoints/finalizers'),
    r('create delete get list update watch', ['discovery.k8s.io'], 'endpointslices'), EVENTS,
  ],
  'ephemeral-volume-controller': [
    r(READ, [''], 'pods'), r('update', [''], 'pods/finalizers'), r('create get list watch', [''], 'persistentvolumeclaims'), EVENTS,
  ],
  'expand-controller': [
    r('get list patch update watch', [''], 'persistentvolumes'), r('patch update', [''], 'persistentvolumeclaims/status'),
    r(READ, [''], 'persistentvolumeclaims'), EVENTS,
    r('get', [''], 'services'), // the portworx volume plugin's lookup
  ],
  'generic-garbage-collector': [r('delete get list patch update watch', ['*'], '*'), EVENTS],
  'horizontal-pod-autoscaler': [
    r(READ, ['autoscaling'], 'horizontalpodautoscalers'), r('update', ['autoscaling'], 'horizontalpodautoscalers/status'),
    r('get update', ['*'], '*/scale'), r('list watch', [''], 'pods'), r('list watch', ['metrics.k8s.io'], 'pods'),
    r(READ, ['custom.metrics.k8s.io'], '*'), r(READ, ['external.metrics.k8s.io'], '*'), EVENTS,
  ],
  'job-controller': [
    r('get list patch update watch', ['batch'], 'jobs'), r('update', ['batch'], 'jobs/status'), r('update', ['batch'], 'jobs/finalizers'),
    r('create delete list patch watch', [''], 'pods'), EVENTS,
  ],
  // The cleaner of unused legacy token Secrets; it reads the tracking ConfigMap (legacytokentracking.ConfigMapName).
  'legacy-service-account-token-cleaner': [
    r('get', [''], 'configmaps', 'kube-apiserver-legacy-service-account-token-tracking'), r('delete patch', [''], 'secrets'),
  ],
  'namespace-controller': [
    r('delete get list watch', [''], 'namespaces'), r('update', [''], 'namespaces/finalize namespaces/status'),
    r('delete deletecollection get list watch', ['*'], '*'),
  ],
  'node-controller': [
    r('delete get list patch update watch', [''], 'nodes'), r('patch update', [''], 'nodes/status'), r('patch update', [''], 'pods/status'),
    r('delete get list watch', [''], 'pods'), EVENTS,
  ],
  'persistent-volume-binder': [
    r('create delete get list update watch', [''], 'persistentvolumes'), r('update', [''], 'persistentvolumes/status'),
    r('get list update watch', [''], 'persistentvolumeclaims'), r('update', [''], 'persistentvolumeclaims/status'),
    r('create delete get list watch', [''], 'pods'), r(READ, ['storage.k8s.io'], 'storageclasses'), r('list watch', [''], 'nodes'), EVENTS,
    r('watch', [''], 'events'),
    r('get', [''], 'services'), // the portworx volume plugin's lookup
  ],
  'pod-garbage-collector': [r('delete list watch', [''], 'pods'), r(READ, [''], 'nodes'), r('patch', [''], 'pods/status')],
  'pv-protection-controller': [r('get list update watch', [''], 'persistentvolumes'), EVENTS],
  'pvc-protection-controller': [
    r('get list update watch', [''], 'persistentvolumeclaims'), r('update', [''], 'persistentvolumeclaims/status'), r(READ, [''], 'pods'), EVENTS,
  ],
  'replicaset-controller': [
    r('get list update watch', AE, 'replicasets'), r('update', AE, 'replicasets/status'), r('update', AE, 'replicasets/finalizers'),
    r('create delete list patch watch', [''], 'pods'), EVENTS,
  ],
  'replication-controller': [
    r('get list update watch', [''], 'replicationcontrollers'), r('update', [''], 'replicationcontrollers/status'),
    r('update', [''], 'replicationcontrollers/finalizers'), r('create delete list patch watch', [''], 'pods'), EVENTS,
  ],
  'resourcequota-controller': [r('list watch', ['*'], '*'), r('update', [''], 'resourcequotas/status'), EVENTS],
  'root-ca-cert-publisher': [r('create update', [''], 'configmaps'), EVENTS],
  'route-controller': [r('list watch', [''], 'nodes'), r('patch', [''], 'nodes/status'), EVENTS],
  'service-account-controller': [r('create', [''], 'serviceaccounts'), EVENTS],
  // MultiCIDRServiceAllocator is on by default from 1.33, and winkube serves networking.k8s.io servicecidrs.
  'service-cidrs-controller': [
    r('get list patch update watch', ['networking.k8s.io'], 'servicecidrs'), r('patch update', ['networking.k8s.io'], 'servicecidrs/finalizers'),
    r('patch update', ['networking.k8s.io'], 'servicecidrs/status'), r(READ, ['networking.k8s.io'], 'ipaddresses'), EVENTS,
  ],
  'service-controller': [r(READ, [''], 'services'), r('patch update', [''], 'services/status'), r('list watch', [''], 'nodes'), EVENTS],
  'statefulset-controller': [
    r('list watch', [''], 'pods'), r(READ, ['apps'], 'statefulsets'), r('update', ['apps'], 'statefulsets/status'),
    r('update', ['apps'], 'statefulsets/finalizers'), r('create delete get patch update', [''], 'pods'), r(ALL_VERBS, ['apps'], 'controllerrevisions'),
    r('create get list watch', [''], 'persistentvolumeclaims'), r('delete update', [''], 'persistentvolumeclaims'), r('update', [''], 'pods/finalizers'), EVENTS,
  ],
  'ttl-after-finished-controller': [r('delete get list watch', ['batch'], 'jobs'), EVENTS],
  'ttl-controller': [r('list patch update watch', [''], 'nodes'), EVENTS],
  'validatingadmissionpolicy-status-controller': [
    r(READ, ['admissionregistration.k8s.io'], 'validatingadmissionpolicies'),
    r('get patch update', ['admissionregistration.k8s.io'], 'validatingadmissionpolicies/status'), EVENTS,
  ],
};
