// Strategies for ValidatingWebhookConfiguration and MutatingWebhookConfiguration: v1 defaults
// (pkg/apis/admissionregistration/v1/defaults.go) and validation (pkg/apis/admissionregistration/validation).

import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { validateWebhookConfiguration, type Webhook } from '../validation/admission-registration.js';
import { updateValidator } from './common.js';

/** SetDefaults_ValidatingWebhook / _MutatingWebhook, SetDefaults_Rule and SetDefaults_ServiceReference. */
function defaultWebhooks(obj: KubeObject, mutating: boolean): void {
  for (const hook of (obj.webhooks ?? []) as Webhook[]) {
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    for (const rule of hook.rules ?? []) rule.scope ??= '*';
    const svc = hook.clientConfig?.service;
    if (svc) svc.port ??= 443;
  }
}

function strategy(mutating: boolean): Strategy {
  const validate = (obj: KubeObject, old?: KubeObject) => validateWebhookConfiguration(obj, mutating, old);
  return {
    defaults: (obj) => defaultWebhooks(obj, mutating),
    validate,
    validateUpdate: (obj, old) => updateValidator((o) => validate(o, old))(obj, old),
  };
}

export const validatingWebhookConfigurationStrategy = strategy(false) satisfies Strategy;
export const mutatingWebhookConfigurationStrategy = strategy(true) satisfies Strategy;
