// One call to a CRD's conversion webhook: the ConversionReview (v1, or v1beta1 when it is the first version offered
// that this server speaks), sent through the admission webhooks' client (a URL, or a Service through the egress), and
// the checks on the answer (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go
// createConversionReviewObjects, getConvertedObjectsFromResponse).

import { randomUUID } from 'node:crypto';
import { CONVERSION_REVIEW_VERSIONS } from '../../api/crd/conversion-validation.js';
import type { CrdConversion } from '../../api/crd/types.js';
import type { KubeObject } from '../../api/types.js';
import { postReview, type CallContext } from '../admission/webhook/client.js';

/** The rest client kube-apiserver builds for conversion webhooks has a 30 s timeout, sent as `?timeout=30s`. */
export const CONVERSION_TIMEOUT_SECONDS = 30;

export type ReviewVersion = 'v1' | 'v1beta1';

interface ConversionReviewAnswer {
  kind?: string;
  apiVersion?: string;
  response?: {
    uid?: string;
    convertedObjects?: unknown[];
    result?: { status?: string; message?: string };
  } | null;
}

/** `%v` of a GroupVersionKind: `group/version, Kind=kind`. */
export function gvkString(apiVersion: string | undefined, kind: string | undefined): string {
  const av = apiVersion ?? '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind ?? ''}`;
}

/** The first version of the CRD's list this server speaks, in the list's order; undefined when there is none. */
export function reviewVersion(conv: CrdConversion): ReviewVersion | undefined {
  return (conv.webhook?.conversionReviewVersions ?? []).find((x): x is ReviewVersion => CONVERSION_REVIEW_VERSIONS.includes(x));
}

/** Whatever the answer's response field holds, checked as kube checks it; the converted objects when it succeeded. */
function convertedObjects(answer: ConversionReviewAnswer, version: ReviewVersion, uid: string): unknown[] {
  if (version === 'v1') {
    // v1 answers must be the same kind and version, for this request; v1beta1 never checked either.
    const want = 'apiextensions.k8s.io/v1, Kind=ConversionReview';
    const got = gvkString(answer.apiVersion, answer.kind);
    if (got !== want) throw new Error(`expected webhook response of ${want}, got ${got}`);
  }
  const r = answer.response;
  if (!r) throw new Error('no response provided');
  if (version === 'v1' && (r.uid ?? '') !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(r.uid ?? '')}`);
  const status = r.result?.status ?? '';
  if (status !== 'Success') {
    if (r.result?.message) throw new Error(r.result.message);
    throw new Error(`response.result.status was '${status}', not 'Success'`);
  }
  return r.convertedObjects ?? [];
}

/**
 * Sends `objects` for conversion to `desiredAPIVersion`; resolves to what the webhook returned for them, in order.
 * Throws an Error with the text kube puts after `conversion webhook for <gvk> failed: `.
 */
export async function callConversionWebhook(
  conv: CrdConversion, version: ReviewVersion, objects: KubeObject[], desiredAPIVersion: string, ctx: CallContext,
): Promise<unknown[]> {
  const uid = randomUUID();
  const review = { kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`, request: { uid, desiredAPIVersion, objects }, response: {} };
  const answer = await postReview(conv.webhook?.clientConfig ?? {}, review, CONVERSION_TIMEOUT_SECONDS, ctx) as ConversionReviewAnswer;
  return convertedObjects(answer, version, uid);
}
