// The ClusterRoles kube-apiserver bootstraps (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go
// ClusterRoles(); rule lists as in testdata/cluster-roles.yaml of the 1.33 tree).

import type { PolicyRule } from '../rbac/rules.js';
import { EVENTS, r, READ, u, WRITE } from './rule-builders.js';

export interface BootstrapClusterRole {
  name: string;
  rules: PolicyRule[];
  labels?: Record<string, string>;
  /** The `rbac.authorization.k8s.io/aggregate-to-<x>: "true"` label the role's aggregationRule selects. */
  aggregateFrom?: string;
}

const AGG = 'rbac.authorization.k8s.io/aggregate-to-';
const to = (x: string) => ({ [`${AGG}${x}`]: 'true' });
const RBAC = 'rbac.authorization.k8s.io';

export const CLUSTER_ROLES: BootstrapClusterRole[] = [
  { name: 'cluster-admin', rules: [r('*', ['*'], '*'), u('*', '*')] },
  { name: 'admin', rules: [], aggregateFrom: 'admin' },
  { name: 'edit', rules: [], aggregateFrom: 'edit', labels: to('admin') },
  { name: 'view', rules: [], aggregateFrom: 'view', labels: to('edit') },
  {
    name: 'system:aggregate-to-admin', labels: to('admin'), rules: [
      r('create', ['authorization.k8s.io'], 'localsubjectaccessreviews'),
      r(`create delete deletecollection get list patch update watch`, [RBAC], 'rolebindings roles'),
    ],
  },
  {
    name: 'system:aggregate-to-edit', labels: to('edit'), rules: [
      r(READ, [''], 'pods/attach pods/exec pods/portforward pods/proxy secrets services/proxy'),
      r('impersonate', [''], 'serviceaccounts'),
      r(WRITE, [''], 'pods pods/attach pods/exec pods/portforward pods/proxy'),
      r('create', [''], 'pods/eviction'),
      r(WRITE, [''], 'configmaps events persistentvolumeclaims replicationcontrollers replicationcontrollers/scale secrets serviceaccounts services services/proxy'),
      r('create', [''], 'serviceaccounts/token'),
      r(WRITE, ['apps'], 'daemonsets deployments deployments/rollback deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale'),
      r(WRITE, ['autoscaling'], 'horizontalpodautoscalers'),
      r(WRITE, ['batch'], 'cronjobs jobs'),
      r(WRITE, ['extensions'], 'daemonsets deployments deployments/rollback deployments/scale ingresses networkpolicies replicasets replicasets/scale replicationcontrollers/scale'),
      r(WRITE, ['policy'], 'poddisruptionbudgets'),
      r(WRITE, ['networking.k8s.io'], 'ingresses networkpolicies'),
      r('create delete deletecollection get list patch update watch', ['coordination.k8s.io'], 'leases'),
    ],
  },
  {
    name: 'system:aggregate-to-view', labels: to('view'), rules: [
      r(READ, [''], 'configmaps endpoints persistentvolumeclaims persistentvolumeclaims/status pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status'),
      r(READ, [''], 'bindings events limitranges namespaces/status pods/log pods/status replicationcontrollers/status resourcequotas resourcequotas/status'),
      r(READ, [''], 'namespaces'),
      r(READ, ['discovery.k8s.io'], 'endpointslices'),
      r(READ, ['apps'], 'controllerrevisions daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status statefulsets statefulsets/scale statefulsets/status'),
      r(READ, ['autoscaling'], 'horizontalpodautoscalers horizontalpodautoscalers/status'),
      r(READ, ['batch'], 'cronjobs cronjobs/status jobs jobs/status'),
      r(READ, ['extensions'], 'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status networkpolicies replicasets replicasets/scale replicasets/status replicationcontrollers/scale'),
      r(READ, ['policy'], 'poddisruptionbudgets poddisruptionbudgets/status'),
      r(READ, ['networking.k8s.io'], 'ingresses ingresses/status networkpolicies'),
    ],
  },
  { name: 'system:auth-delegator', rules: [r('create', ['authentication.k8s.io'], 'tokenreviews'), r('create', ['authorization.k8s.io'], 'subjectaccessreviews')] },
  {
    name: 'system:basic-user', rules: [
      r('create', ['authorization.k8s.io'], 'selfsubjectaccessreviews selfsubjectrulesreviews'),
      r('create', ['authentication.k8s.io'], 'selfsubjectreviews'),
    ],
  },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [r('create', ['certificates.k8s.io'], 'certificatesigningrequests/nodeclient')] },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [r('create', ['certificates.k8s.io'], 'certificatesigningrequests/selfnodeclient')] },
  { name: 'system:certificates.k8s.io:kube-apiserver-client-approver', rules: [r('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client')] },
  { name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', rules: [r('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client-kubelet')] },
  { name: 'system:certificates.k8s.io:kubelet-serving-approver', rules: [r('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kubelet-serving')] },
  { name: 'system:certificates.k8s.io:legacy-unknown-approver', rules: [r('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/legacy-unknown')] },
  { name: 'system:discovery', rules: [u('get', '/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/')] },
  { name: 'system:heapster', rules: [r(READ, [''], 'events namespaces nodes pods'), r(READ, ['extensions'], 'deployments')] },
  { name: 'system:kube-aggregator', rules: [r(READ, [''], 'endpoints services')] },
  {
    name: 'system:kube-controller-manager', rules: [
      EVENTS,
      r('create', ['coordination.k8s.io'], 'leases'),
      r('get update', ['coordination.k8s.io'], 'leases', 'kube-controller-manager'),
      r('create', [''], 'secrets serviceaccounts'),
      r('delete', [''], 'secrets'),
      r('get', [''], 'configmaps namespaces secrets serviceaccounts'),
      r('update', [''], 'secrets serviceaccounts'),
      r('create', ['authentication.k8s.io'], 'tokenreviews'),
      r('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
      r('list watch', ['*'], '*'),
      r('create', [''], 'serviceaccounts/token'),
    ],
  },
  { name: 'system:kube-dns', rules: [r('list watch', [''], 'endpoints services')] },
  {
    name: 'system:kube-scheduler', rules: [
      EVENTS,
      r('create', ['coordination.k8s.io'], 'leases'),
      r('get update', ['coordination.k8s.io'], 'leases', 'kube-scheduler'),
      r(READ, [''], 'nodes'),
      r('delete get list watch', [''], 'pods'),
      r('create', [''], 'bindings pods/binding'),
      r('patch update', [''], 'pods/status'),
      r(READ, [''], 'replicationcontrollers services'),
      r(READ, ['apps', 'extensions'], 'replicasets'),
      r(READ, ['apps'], 'statefulsets'),
      r(READ, ['policy'], 'poddisruptionbudgets'),
      r(READ, [''], 'persistentvolumeclaims persistentvolumes'),
      r('create', ['authentication.k8s.io'], 'tokenreviews'),
      r('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
      r(READ, ['storage.k8s.io'], 'csinodes'),
      r(READ, [''], 'namespaces'),
      r(READ, ['storage.k8s.io'], 'csidrivers'),
      r(READ, ['storage.k8s.io'], 'csistoragecapacities'),
    ],
  },
  { name: 'system:kubelet-api-admin', rules: [r(READ, [''], 'nodes'), r('proxy', [''], 'nodes'), r('*', [''], 'nodes/log nodes/metrics nodes/proxy nodes/stats')] },
  { name: 'system:monitoring', rules: [u('get', '/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*')] },
  {
    name: 'system:node', rules: [
      r('create', ['authentication.k8s.io'], 'tokenreviews'),
      r('create', ['authorization.k8s.io'], 'localsubjectaccessreviews subjectaccessreviews'),
      r(READ, [''], 'services'),
      r('create get list watch', [''], 'nodes'),
      r('patch update', [''], 'nodes/status'),
      r('patch update', [''], 'nodes'),
      r('create patch update', [''], 'events'),
      r(READ, [''], 'pods'),
      r('create delete', [''], 'pods'),
      r('patch update', [''], 'pods/status'),
      r('create', [''], 'pods/eviction'),
      r(READ, [''], 'configmaps secrets'),
      r('get', [''], 'persistentvolumeclaims persistentvolumes'),
      r('get', [''], 'endpoints'),
      r('create get list watch', ['certificates.k8s.io'], 'certificatesigningrequests'),
      r('create delete get patch update', ['coordination.k8s.io'], 'leases'),
      r('get', ['storage.k8s.io'], 'volumeattachments'),
      r('create', [''], 'serviceaccounts/token'),
      r('get patch update', [''], 'persistentvolumeclaims/status'),
      r(READ, ['storage.k8s.io'], 'csidrivers'),
      r('create delete get patch update', ['storage.k8s.io'], 'csinodes'),
      r(READ, ['node.k8s.io'], 'runtimeclasses'),
    ],
  },
  { name: 'system:node-bootstrapper', rules: [r('create get list watch', ['certificates.k8s.io'], 'certificatesigningrequests')] },
  { name: 'system:node-problem-detector', rules: [r('get', [''], 'nodes'), r('patch', [''], 'nodes/status'), EVENTS] },
  {
    name: 'system:node-proxier', rules: [
      r('list watch', [''], 'endpoints services'), r(READ, [''], 'nodes'), EVENTS, r('list watch', ['discovery.k8s.io'], 'endpointslices'),
    ],
  },
  {
    name: 'system:persistent-volume-provisioner', rules: [
      r('create delete get list watch', [''], 'persistentvolumes'),
      r('get list update watch', [''], 'persistentvolumeclaims'),
      r(READ, ['storage.k8s.io'], 'storageclasses'),
      r('watch', [''], 'events'),
      EVENTS,
    ],
  },
  { name: 'system:public-info-viewer', rules: [u('get', '/healthz /livez /readyz /version /version/')] },
  { name: 'system:service-account-issuer-discovery', rules: [u('get', '/.well-known/openid-configuration /openid/v1/jwks')] },
  {
    name: 'system:volume-scheduler', rules: [
      r('get list patch update watch', [''], 'persistentvolumes'),
      r(READ, ['storage.k8s.io'], 'storageclasses'),
      r('get list patch update watch', [''], 'persistentvolumeclaims'),
    ],
  },
];
