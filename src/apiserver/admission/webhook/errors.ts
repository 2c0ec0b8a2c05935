// The two ways a webhook call fails (staging/src/k8s.io/apiserver/pkg/util/webhook/error.go) and the denial wrapper
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go ToStatusErr).

import { StatusError, type Status, type StatusReason } from '../../../api/errors.js';

/** Could not talk to the webhook (transport, bad response): failurePolicy decides. */
export class CallingWebhookError extends Error {
  constructor(readonly webhook: string, readonly reason: string) {
    super(`failed calling webhook "${webhook}": ${reason}`);
    this.name = 'CallingWebhookError';
  }

  /** What failurePolicy Fail answers: apierrors.NewInternalError(err). */
  toStatusError(): StatusError {
    return StatusError.internal(this.message);
  }
}

/** ToStatusErr: the webhook's Status with at least code 400 and Failure, its message behind the webhook's name. */
export function deniedByWebhook(webhook: string, result: Partial<Status> | undefined): StatusError {
  const r = result ?? {};
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const deniedBy = `admission webhook "${webhook}" denied the request`;
  const message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  return new StatusError(code, (r.reason ?? '') as StatusReason, message, r.details);
}

/** NewDryRunUnsupportedErr: a webhook with side effects cannot see a dry-run request. */
export function dryRunUnsupported(webhook: string): StatusError {
  return StatusError.badRequest(`admission webhook "${webhook}" does not support dry run`);
}
