// The admission plugins winkube enables, in kube-apiserver's order (pkg/kubeapiserver/options/plugins.go).

import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import { AdmissionChain, type AdmissionPlugin } from './interfaces.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { priority } from './priority.js';
import { serviceAccount } from './service-account.js';

export function defaultAdmissionPlugins(): AdmissionPlugin[] {
  return [namespaceLifecycle(), serviceAccount(), defaultTolerationSeconds(), priority()];
}

export function defaultAdmission(): AdmissionChain {
  return new AdmissionChain(defaultAdmissionPlugins());
}
