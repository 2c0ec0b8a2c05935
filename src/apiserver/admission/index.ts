// The admission plugins winkube enables, in kube-apiserver's order (pkg/kubeapiserver/options/plugins.go
// AllOrderedPlugins): ResourceQuota goes last so it only charges for requests every other plugin let through.

import { defaultStorageClass, persistentVolumeClaimResize } from './default-storage-class.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import { AdmissionChain, type AdmissionPlugin } from './interfaces.js';
import { limitRanger } from './limit-ranger.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { podSecurity } from './pod-security.js';
import { priority } from './priority.js';
import { resourceQuota } from './resource-quota.js';
import { runtimeClass } from './runtime-class.js';
import { serviceAccount } from './service-account.js';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.js';

export function defaultAdmissionPlugins(): AdmissionPlugin[] {
  return [
    namespaceLifecycle(),
    limitRanger(),
    serviceAccount(),
    podSecurity(),
    priority(),
    defaultTolerationSeconds(),
    defaultStorageClass(),
    storageObjectInUseProtection(),
    persistentVolumeClaimResize(),
    runtimeClass(),
    resourceQuota(),
  ];
}

export function defaultAdmission(): AdmissionChain {
  return new AdmissionChain(defaultAdmissionPlugins());
}
