// Every resource's Strategy, keyed `<plural>` for the core group and `<group>/<plural>` otherwise.

import type { Strategy } from '../interfaces.js';
// Registers the Windows/OS pod rules on validation/pod-spec.ts's POD_OS_VALIDATORS seam (side effect only).
import '../validation/windows/index.js';
import {
  endpointSliceStrategy, eventStrategy, eventsV1Strategy, leaseStrategy, priorityClassStrategy, runtimeClassStrategy,
} from './cluster-misc.js';
import {
  configMapStrategy, endpointsStrategy, limitRangeStrategy, namespaceStrategy, nodeStrategy, resourceQuotaStrategy,
  secretStrategy, serviceAccountStrategy,
} from './core-misc.js';
import { cronJobStrategy, jobStrategy } from './batch.js';
import { podStrategy } from './pods.js';
import { certificateSigningRequestStrategy } from './certificates.js';
import { hpaStrategy } from './autoscaling.js';
import { replicationControllerStrategy } from './replication-controllers.js';
import { podDisruptionBudgetStrategy } from './policy.js';
import { serviceStrategy } from './services.js';
import { deploymentStrategy, replicaSetStrategy } from './workloads.js';
import { controllerRevisionStrategy, daemonSetStrategy } from './daemonsets.js';
import { persistentVolumeClaimStrategy, persistentVolumeStrategy, storageClassStrategy } from './storage.js';
import { statefulSetStrategy } from './statefulsets.js';
import { ingressClassStrategy, ingressStrategy, ipAddressStrategy, networkPolicyStrategy, serviceCIDRStrategy } from './networking.js';
import { flowSchemaStrategy, priorityLevelConfigurationStrategy } from './flowcontrol.js';
import { csiStorageCapacityStrategy, podTemplateStrategy } from './misc-resources.js';
import { crdStrategy } from '../crd/crd-strategy.js';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategy } from './rbac.js';
import { csiDriverStrategy, csiNodeStrategy, volumeAttachmentStrategy } from './storage-csi.js';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from './admission-registration.js';
import { validatingAdmissionPolicyBindingStrategy, validatingAdmissionPolicyStrategy } from './validating-admission-policy.js';
import { apiServiceStrategy } from './apiregistration.js';

export const STRATEGIES: Record<string, Strategy> = {
  pods: podStrategy,
  nodes: nodeStrategy,
  namespaces: namespaceStrategy,
  services: serviceStrategy,
  endpoints: endpointsStrategy,
  configmaps: configMapStrategy,
  secrets: secretStrategy,
  serviceaccounts: serviceAccountStrategy,
  events: eventStrategy,
  limitranges: limitRangeStrategy,
  resourcequotas: resourceQuotaStrategy,
  replicationcontrollers: replicationControllerStrategy,
  'autoscaling/horizontalpodautoscalers': hpaStrategy,
  persistentvolumes: persistentVolumeStrategy,
  persistentvolumeclaims: persistentVolumeClaimStrategy,
  'storage.k8s.io/storageclasses': storageClassStrategy,
  'storage.k8s.io/volumeattachments': volumeAttachmentStrategy,
  'storage.k8s.io/csidrivers': csiDriverStrategy,
  'storage.k8s.io/csinodes': csiNodeStrategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/controllerrevisions': controllerRevisionStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'events.k8s.io/events': eventsV1Strategy,
  'coordination.k8s.io/leases': leaseStrategy,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequestStrategy,
  'discovery.k8s.io/endpointslices': endpointSliceStrategy,
  'node.k8s.io/runtimeclasses': runtimeClassStrategy,
  'scheduling.k8s.io/priorityclasses': priorityClassStrategy,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': validatingWebhookConfigurationStrategy,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': mutatingWebhookConfigurationStrategy,
  'admissionregistration.k8s.io/validatingadmissionpolicies': validatingAdmissionPolicyStrategy,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': validatingAdmissionPolicyBindingStrategy,
  'apiregistration.k8s.io/apiservices': apiServiceStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
  podtemplates: podTemplateStrategy,
  'networking.k8s.io/networkpolicies': networkPolicyStrategy,
  'networking.k8s.io/ingresses': ingressStrategy,
  'networking.k8s.io/ingressclasses': ingressClassStrategy,
  'networking.k8s.io/ipaddresses': ipAddressStrategy,
  'networking.k8s.io/servicecidrs': serviceCIDRStrategy,
  'flowcontrol.apiserver.k8s.io/flowschemas': flowSchemaStrategy,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': priorityLevelConfigurationStrategy,
  'storage.k8s.io/csistoragecapacities': csiStorageCapacityStrategy,
  'rbac.authorization.k8s.io/roles': roleStrategy,
  'rbac.authorization.k8s.io/clusterroles': clusterRoleStrategy,
  'rbac.authorization.k8s.io/rolebindings': roleBindingStrategy,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingStrategy,
  'apiextensions.k8s.io/customresourcedefinitions': crdStrategy,
};

/** The strategy for a group and plural, or an empty one (no defaults, no extra validation). */
export function strategyFor(group: string, plural: string): Strategy {
  return STRATEGIES[group ? `${group}/${plural}` : plural] ?? {};
}
