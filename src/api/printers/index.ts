// The server-side Table printers by resource: `<plural>` for the core group, `<group>/<plural>` otherwise.

import { VALIDATING_ADMISSION_POLICY_BINDING_TABLE, VALIDATING_ADMISSION_POLICY_TABLE } from './validating-admission-policy.js';
import type { TableDef } from '../interfaces.js';
import { WEBHOOK_CONFIGURATION_TABLE } from './admission-registration.js';
import { HPA_TABLE, REPLICATION_CONTROLLER_TABLE } from './autoscaling.js';
import { CRON_JOB_TABLE, JOB_TABLE } from './batch.js';
import { LEASE_TABLE, PRIORITY_CLASS_TABLE, RUNTIME_CLASS_TABLE } from './cluster.js';
import { CONFIG_MAP_TABLE, SECRET_TABLE, SERVICE_ACCOUNT_TABLE } from './config.js';
import { CONTROLLER_REVISION_TABLE } from './controller-revision.js';
import { DEFAULT_TABLE } from './default-table.js';
import { ENDPOINTS_TABLE, ENDPOINT_SLICE_TABLE } from './endpoints.js';
import { EVENTS_V1_TABLE, EVENT_TABLE } from './event.js';
import { NAMESPACE_TABLE, RESOURCE_QUOTA_TABLE } from './namespace.js';
import { NODE_TABLE } from './node.js';
import { POD_TABLE } from './pod.js';
import { POD_DISRUPTION_BUDGET_TABLE } from './policy.js';
import { CLUSTER_ROLE_BINDING_TABLE, ROLE_BINDING_TABLE } from './rbac.js';
import { SERVICE_TABLE } from './service.js';
import { API_SERVICE_TABLE } from './apiregistration.js';
import { PERSISTENT_VOLUME_CLAIM_TABLE, PERSISTENT_VOLUME_TABLE, STORAGE_CLASS_TABLE } from './storage.js';
import { CSI_DRIVER_TABLE, CSI_NODE_TABLE, VOLUME_ATTACHMENT_TABLE } from './storage-csi.js';
import { DAEMON_SET_TABLE, DEPLOYMENT_TABLE, REPLICA_SET_TABLE, STATEFUL_SET_TABLE } from './workloads.js';
import { INGRESS_CLASS_TABLE, INGRESS_TABLE, IP_ADDRESS_TABLE, NETWORK_POLICY_TABLE, SERVICE_CIDR_TABLE } from './networking.js';
import { FLOW_SCHEMA_TABLE, PRIORITY_LEVEL_TABLE } from './flowcontrol.js';
import { CSI_STORAGE_CAPACITY_TABLE, POD_TEMPLATE_TABLE } from './misc-tables.js';
import { COMPONENT_STATUS_TABLE } from './component-status.js';

export { DEFAULT_TABLE } from './default-table.js';
export { humanDuration, shortHumanDuration, translateTimestampSince } from './duration.js';
export { formatLabelSelector, formatLabels, selectorString } from './selector-string.js';

/**
 * Resources kube-apiserver prints with pkg/printers/internalversion. Anything missing (limitranges, roles,
 * clusterroles, CRDs, ...) gets DEFAULT_TABLE, as kube does: `kubectl get limitranges` shows NAME and CREATED AT.
 */
export const TABLES: Record<string, TableDef> = {
  pods: POD_TABLE,
  nodes: NODE_TABLE,
  services: SERVICE_TABLE,
  endpoints: ENDPOINTS_TABLE,
  componentstatuses: COMPONENT_STATUS_TABLE,
  configmaps: CONFIG_MAP_TABLE,
  secrets: SECRET_TABLE,
  serviceaccounts: SERVICE_ACCOUNT_TABLE,
  namespaces: NAMESPACE_TABLE,
  resourcequotas: RESOURCE_QUOTA_TABLE,
  replicationcontrollers: REPLICATION_CONTROLLER_TABLE,
  'autoscaling/horizontalpodautoscalers': HPA_TABLE,
  persistentvolumes: PERSISTENT_VOLUME_TABLE,
  persistentvolumeclaims: PERSISTENT_VOLUME_CLAIM_TABLE,
  'storage.k8s.io/storageclasses': STORAGE_CLASS_TABLE,
  'storage.k8s.io/volumeattachments': VOLUME_ATTACHMENT_TABLE,
  'storage.k8s.io/csidrivers': CSI_DRIVER_TABLE,
  'storage.k8s.io/csinodes': CSI_NODE_TABLE,
  events: EVENT_TABLE,
  'events.k8s.io/events': EVENTS_V1_TABLE,
  'discovery.k8s.io/endpointslices': ENDPOINT_SLICE_TABLE,
  'coordination.k8s.io/leases': LEASE_TABLE,
  'node.k8s.io/runtimeclasses': RUNTIME_CLASS_TABLE,
  'scheduling.k8s.io/priorityclasses': PRIORITY_CLASS_TABLE,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': WEBHOOK_CONFIGURATION_TABLE,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': WEBHOOK_CONFIGURATION_TABLE,
  'admissionregistration.k8s.io/validatingadmissionpolicies': VALIDATING_ADMISSION_POLICY_TABLE,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': VALIDATING_ADMISSION_POLICY_BINDING_TABLE,
  'apiregistration.k8s.io/apiservices': API_SERVICE_TABLE,
  podtemplates: POD_TEMPLATE_TABLE,
  'networking.k8s.io/networkpolicies': NETWORK_POLICY_TABLE,
  'networking.k8s.io/ingresses': INGRESS_TABLE,
  'networking.k8s.io/ingressclasses': INGRESS_CLASS_TABLE,
  'networking.k8s.io/ipaddresses': IP_ADDRESS_TABLE,
  'networking.k8s.io/servicecidrs': SERVICE_CIDR_TABLE,
  'flowcontrol.apiserver.k8s.io/flowschemas': FLOW_SCHEMA_TABLE,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': PRIORITY_LEVEL_TABLE,
  'storage.k8s.io/csistoragecapacities': CSI_STORAGE_CAPACITY_TABLE,
  'apps/deployments': DEPLOYMENT_TABLE,
  'apps/replicasets': REPLICA_SET_TABLE,
  'apps/statefulsets': STATEFUL_SET_TABLE,
  'apps/daemonsets': DAEMON_SET_TABLE,
  'batch/jobs': JOB_TABLE,
  'batch/cronjobs': CRON_JOB_TABLE,
  'apps/controllerrevisions': CONTROLLER_REVISION_TABLE,
  'policy/poddisruptionbudgets': POD_DISRUPTION_BUDGET_TABLE,
  'rbac.authorization.k8s.io/rolebindings': ROLE_BINDING_TABLE,
  'rbac.authorization.k8s.io/clusterrolebindings': CLUSTER_ROLE_BINDING_TABLE,
};

/** The printer for a resource, or the default Name / Created At table. */
export function tableFor(group: string, plural: string): TableDef {
  const key = group ? `${group}/${plural}` : plural;
  // Own keys only: `toString` and friends are not printers.
  return Object.hasOwn(TABLES, key) ? TABLES[key]! : DEFAULT_TABLE;
}
