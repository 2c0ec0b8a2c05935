// The admission plugins winkube enables, in kube-apiserver's order (pkg/kubeapiserver/options/plugins.go
// AllOrderedPlugins): ResourceQuota goes last so it only charges for requests every other plugin let through.
// The webhook plugins follow the in-tree ones: MutatingAdmissionWebhook after RuntimeClass, then
// ValidatingAdmissionPolicy, then ValidatingAdmissionWebhook just before ResourceQuota.

import { certificateSigningRequestRequester } from './certificate-signing-request.js';
import { defaultStorageClass, persistentVolumeClaimResize } from './default-storage-class.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import { ClusterEgress } from '../egress/egress.js';
import { AdmissionChain, type AdmissionPlugin } from './interfaces.js';
import { limitRanger } from './limit-ranger.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { nodeRestriction } from './node-restriction.js';
import { podSecurity } from './pod-security.js';
import { priority } from './priority.js';
import { resourceQuota } from './resource-quota.js';
import { runtimeClass } from './runtime-class.js';
import { serviceAccount } from './service-account.js';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.js';
import { mutatingAdmissionWebhook } from './mutating-admission-webhook.js';
import { validatingAdmissionWebhook } from './validating-admission-webhook.js';
import { validatingAdmissionPolicy, type PolicyPluginDeps } from './validating-admission-policy.js';
import type { WebhookPluginDeps } from './webhook/dispatch.js';

export interface AdmissionOptions {
  /** How webhooks are reached (the egress holds the API server's kubelet credentials for in-cluster Services). */
  webhooks?: WebhookPluginDeps;
  /** The authorizer and kind resolver ValidatingAdmissionPolicy needs (params, `authorizer` checks). */
  policies?: PolicyPluginDeps;
}

export function defaultAdmissionPlugins(o: AdmissionOptions = {}): AdmissionPlugin[] {
  const webhooks = o.webhooks ?? { egress: new ClusterEgress(() => undefined) };
  return [
    // Not a plugin in kube: its CSR strategy does this, but only admission sees the request's user here.
    certificateSigningRequestRequester(),
    namespaceLifecycle(),
    limitRanger(),
    serviceAccount(),
    nodeRestriction(),
    podSecurity(),
    priority(),
    defaultTolerationSeconds(),
    defaultStorageClass(),
    storageObjectInUseProtection(),
    persistentVolumeClaimResize(),
    runtimeClass(),
    mutatingAdmissionWebhook(webhooks),
    validatingAdmissionPolicy({ equivalents: webhooks.equivalents, ...o.policies }),
    validatingAdmissionWebhook(webhooks),
    resourceQuota(),
  ];
}

export function defaultAdmission(o: AdmissionOptions = {}): AdmissionChain {
  return new AdmissionChain(defaultAdmissionPlugins(o));
}
