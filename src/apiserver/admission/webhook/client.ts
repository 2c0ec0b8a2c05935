// Calling one webhook: where (clientConfig.url, or a Service through the API server's egress), the AdmissionReview
// POST with `?timeout=Ns`, and the rest client's reading of the answer (client-go rest/request.go transformResponse,
// apimachinery errors.NewGenericServerResponse); transport failures become CallingWebhookError texts.

import { StatusError, type Status } from '../../../api/errors.js';
import type { Webhook, WebhookClientConfig } from '../../../api/validation/admission-registration.js';
import { ClusterEgress } from '../../egress/egress.js';
import { EgressError } from '../../egress/go-errors.js';
import { egressRequest, type EgressResponse } from '../../egress/http-request.js';
import type { AdmissionLookup } from '../interfaces.js';
import { CallingWebhookError } from './errors.js';

export interface CallContext {
  egress: ClusterEgress;
  lookup: AdmissionLookup;
}

/** The AdmissionReview version to send: the first of the webhook's list this server speaks. */
export function reviewVersion(hook: Webhook): 'v1' | 'v1beta1' {
  const v = (hook.admissionReviewVersions ?? []).find((x) => x === 'v1' || x === 'v1beta1');
  if (!v) throw new CallingWebhookError(hook.name ?? '', 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  return v as 'v1' | 'v1beta1';
}

/** NewGenericServerResponse's message for an answer that is not a Status (the webhook's own error page). */
function genericServerMessage(code: number, body: string): string {
  const known: Record<number, string> = {
    400: 'the server rejected our request for an unknown reason',
    401: 'the server has asked for the client to provide credentials',
    403: 'the server does not allow access to the requested resource',
    404: 'the server could not find the requested resource',
    405: 'the server does not allow this method on the requested resource',
    406: 'the server was unable to respond with a content type that the client supports',
    409: 'the server reported a conflict',
    415: 'the server does not support the requested media type',
    422: 'the server rejected our request due to an error in our request',
    429: 'the server has received too many requests and has asked us to try again later',
    503: 'the server is currently unable to handle the request',
    504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
  };
  if (known[code]) return known[code];
  if (code >= 500) return `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}

/** transformResponse + Into: a Status body's message, a generic one, or a decode failure; else the parsed JSON. */
function readAnswer(res: EgressResponse): unknown {
  const text = res.body.toString();
  let parsed: unknown;
  let parseError: string | undefined;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    parseError = (err as Error).message;
  }
  if (res.status < 200 || res.status > 206) {
    const s = parsed as Partial<Status> | undefined;
    if (s?.kind === 'Status' && s.message) throw new Error(s.message);
    const textual = /^text\//.test(res.headers['content-type'] ?? '');
    throw new Error(genericServerMessage(res.status, textual ? text.trim() : 'unknown'));
  }
  if (parseError !== undefined) throw new Error(`couldn't get version/kind; json parse error: ${parseError}`);
  if (!parsed || typeof parsed !== 'object' || !(parsed as { kind?: unknown }).kind) throw new Error(`Object 'Kind' is missing in '${text}'`);
  return parsed;
}

/**
 * POSTs a review to a webhook's clientConfig (a URL, or a Service through the egress) with `?timeout=Ns` and reads the
 * answer as client-go's rest client does. Throws an Error whose message is the rest client's: `Post "<url>": <cause>`
 * for transport failures, else the reading of the answer. Admission and CRD conversion webhooks share it.
 */
export async function postReview(cc: WebhookClientConfig, review: unknown, timeoutSeconds: number, ctx: CallContext): Promise<unknown> {
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString() : undefined;
  const body = Buffer.from(JSON.stringify(review));
  const headers = { 'content-type': 'application/json', accept: 'application/json, */*' };
  const query = `?timeout=${timeoutSeconds}s`;
  let shown: string;
  let answer: Promise<EgressResponse>;
  if (cc.url) {
    const u = new URL(cc.url);
    u.search = query;
    shown = u.toString();
    answer = egressRequest({ method: 'POST', url: u, headers, body, ca, timeoutMs: timeoutSeconds * 1000 });
  } else {
    const svc = { namespace: cc.service?.namespace ?? '', name: cc.service?.name ?? '', port: cc.service?.port ?? 443 };
    const path = `${cc.service?.path || '/'}${query}`;
    shown = `https://${ClusterEgress.serviceHost(svc)}:${svc.port}${path}`;
    answer = ctx.egress.toService(ctx.lookup, svc, { method: 'POST', path, headers, body, ca, timeoutMs: timeoutSeconds * 1000 });
  }
  let res: EgressResponse;
  try {
    res = await answer;
  } catch (err) {
    // url.Error: `Post "<url>": <cause>`; resolution failures (no endpoints) are the dial's cause as well.
    const cause = err instanceof EgressError || err instanceof StatusError ? err.message : String(err);
    throw new Error(`Post "${shown}": ${cause}`);
  }
  return readAnswer(res);
}

/** POSTs the review; resolves to the answer's JSON or throws CallingWebhookError (kube's ErrCallingWebhook). */
export async function callWebhook(hook: Webhook, review: unknown, ctx: CallContext): Promise<unknown> {
  try {
    return await postReview(hook.clientConfig ?? {}, review, hook.timeoutSeconds ?? 10, ctx);
  } catch (err) {
    throw new CallingWebhookError(hook.name ?? '', `failed to call webhook: ${(err as Error).message}`);
  }
}
