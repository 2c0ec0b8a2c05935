// ValidatingAdmissionWebhook: calls every matching validating webhook in parallel; the first rejection (in webhook
// order) fails the request (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go).

import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { invoke, onCallFailure, type WebhookPluginDeps } from './webhook/dispatch.js';
import { isExemptConfigurationResource } from './webhook/rules.js';
import { shouldCall, webhooksOf } from './webhook/source.js';
import { matchConditionsAllow } from './webhook/match-conditions.js';

export const VALIDATING_ADMISSION_WEBHOOK = 'ValidatingAdmissionWebhook';

export function validatingAdmissionWebhook(deps: WebhookPluginDeps): AdmissionPlugin {
  return {
    name: VALIDATING_ADMISSION_WEBHOOK,
    // Not async: without webhooks (most writes) it answers at once and the chain does not wait on it.
    validate(a: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> | undefined {
      if (isExemptConfigurationResource(a.decl.group, a.decl.kind)) return;
      const hooks = webhooksOf(lookup, 'validatingwebhookconfigurations');
      if (!hooks.length) return;
      return callValidating(a, lookup, hooks);
    },
  };

  async function callValidating(a: AdmissionAttributes, lookup: AdmissionLookup, hooks: ReturnType<typeof webhooksOf>): Promise<void> {
    // Matching errors (a missing namespace) fail the request before any call is made.
    const matched = hooks.map(({ hook }) => ({ hook, inv: shouldCall(hook, a, lookup, deps.equivalents) })).filter((x) => x.inv);
    const relevant = [];
    for (const m of matched) if (await matchConditionsAllow(m.hook, a, m.inv!, deps)) relevant.push(m);
    const outcomes = await Promise.allSettled(relevant.map(async ({ hook, inv }) => {
      try {
        await invoke(hook, inv!, a, lookup, deps, false);
      } catch (err) {
        onCallFailure(hook, err, deps);
      }
    }));
    for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
  }
}
