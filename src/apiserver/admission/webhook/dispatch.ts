// What both webhook plugins share: their dependencies, the dry-run rule for side effects, and turning a call into
// the checked AdmissionReview answer (mutating/dispatcher.go and validating/dispatcher.go callHook).

import type { Webhook } from '../../../api/validation/admission-registration.js';
import type { Logger } from '../../../util/log.js';
import type { ClusterEgress } from '../../egress/egress.js';
import type { AdmissionAttributes, AdmissionLookup } from '../interfaces.js';
import { callWebhook, reviewVersion } from './client.js';
import { CallingWebhookError, deniedByWebhook, dryRunUnsupported } from './errors.js';
import { admissionReview, verifyResponse, type Invocation, type ReviewResponse } from './review.js';
import type { Equivalents } from './source.js';
import { versionedAttributesAsync } from './versioned.js';
import { isStatusError, StatusError } from '../../../api/errors.js';
import type { Authorizer } from '../../authz/interfaces.js';

export interface WebhookPluginDeps {
  egress: ClusterEgress;
  /** Other versions of a resource, for matchPolicy Equivalent. */
  equivalents?: Equivalents;
  /** Answers the `authorizer` of matchConditions (the API server's authorizer). */
  authorizer?: Authorizer;
  logger?: Logger;
}

/** Runs one webhook: the allowed answer (warnings recorded), or throws a denial, a StatusError or CallingWebhookError. */
export async function invoke(hook: Webhook, inv: Invocation, a: AdmissionAttributes, lookup: AdmissionLookup, deps: WebhookPluginDeps, mutating: boolean): Promise<ReviewResponse> {
  const name = hook.name ?? '';
  if (a.dryRun) {
    if (hook.sideEffects === undefined) throw new CallingWebhookError(name, 'Webhook SideEffects is nil');
    if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(name);
  }
  const version = reviewVersion(hook);
  // Matched through an equivalent resource: the webhook sees the object in the version it registered for.
  // A conversion that fails is kube's InternalError (generic/webhook.go VersionedAttribute → NewInternalError).
  const versioned = await versionedAttributesAsync(a, inv).catch((err: unknown) => {
    throw StatusError.internal(isStatusError(err) ? err.message : String(err));
  });
  const { uid, body } = admissionReview(versioned, inv, version);
  const answer = await callWebhook(hook, body, { egress: deps.egress, lookup });
  let result: ReviewResponse;
  try {
    result = verifyResponse(answer, uid, version, mutating);
  } catch (err) {
    throw new CallingWebhookError(name, `received invalid webhook response: ${(err as Error).message}`);
  }
  for (const w of result.warnings ?? []) if (typeof w === 'string') (a.warnings ??= []).push(w);
  if (!result.allowed) throw deniedByWebhook(name, result.status);
  return result;
}

/** failurePolicy: Ignore lets a call failure pass (logged); Fail answers kube's InternalError. */
export function onCallFailure(hook: Webhook, err: unknown, deps: WebhookPluginDeps): void {
  if (!(err instanceof CallingWebhookError)) throw err;
  if (hook.failurePolicy === 'Ignore') {
    deps.logger?.warn('failed calling webhook, failing open', { webhook: hook.name, err: err.message });
    return;
  }
  deps.logger?.warn('failed calling webhook, failing closed', { webhook: hook.name, err: err.message });
  throw err.toStatusError();
}
