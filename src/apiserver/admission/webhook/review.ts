// The AdmissionReview a webhook receives and the checks on what it answers
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go).

import { randomUUID } from 'node:crypto';
import type { Status } from '../../../api/errors.js';
import type { AdmissionAttributes } from '../interfaces.js';
import { wireObject } from './wire-object.js';

export interface GVK { group: string; version: string; kind: string }
export interface GVR { group: string; version: string; resource: string }

/** What the webhook is called for: the resource it matched (maybe an equivalent one) and the request's own. */
export interface Invocation {
  kind: GVK;
  resource: GVR;
  subresource: string;
  /** The resource's declaration in the matched version (matchPolicy Equivalent converts the object to it). */
  decl?: import('../../../api/interfaces.js').ResourceDecl;
}

export interface ReviewResponse {
  allowed: boolean;
  patch?: string;
  patchType?: string;
  /** AdmissionResponse.Result, whose JSON name is `status`. */
  status?: Partial<Status>;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** The operation's options object (CreateOptions / UpdateOptions / DeleteOptions), as kube passes GetOperationOptions. */
function operationOptions(a: AdmissionAttributes): Record<string, unknown> | null {
  const kinds: Record<string, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };
  const kind = kinds[a.operation];
  if (!kind) return null;
  return { kind, apiVersion: 'meta.k8s.io/v1', ...(a.dryRun ? { dryRun: ['All'] } : {}) };
}

/** The namespace kube reports: the request's, or for a Namespace object the namespace's own name. */
export function requestNamespace(a: AdmissionAttributes): string {
  if (!a.decl.group && a.decl.plural === 'namespaces' && !a.subresource) return a.name || a.object?.metadata.name || '';
  return a.namespace;
}

/**
 * The request's own kind (admission.Attributes GetKind): a subresource's when it carries another object (v1 Binding
 * for pods/binding, authentication.k8s.io/v1 TokenRequest for serviceaccounts/token, policy/v1 Eviction), else the
 * resource's.
 */
export function requestKind(a: AdmissionAttributes): GVK {
  return a.kind ?? { group: a.decl.group, version: a.decl.version, kind: a.decl.kind };
}

/** CreateV1AdmissionReview (v1beta1 has the same request fields). */
export function admissionReview(a: AdmissionAttributes, inv: Invocation, version: 'v1' | 'v1beta1'): { uid: string; body: Record<string, unknown> } {
  const uid = randomUUID();
  const d = a.decl;
  const request = {
    uid,
    kind: inv.kind,
    resource: inv.resource,
    ...(inv.subresource ? { subResource: inv.subresource } : {}),
    requestKind: requestKind(a),
    requestResource: { group: d.group, version: d.version, resource: d.plural },
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name || a.object?.metadata.name ? { name: a.name || a.object?.metadata.name } : {}),
    ...(requestNamespace(a) ? { namespace: requestNamespace(a) } : {}),
    operation: a.operation,
    userInfo: {
      username: a.user.name,
      ...(a.user.uid ? { uid: a.user.uid } : {}),
      ...(a.user.groups.length ? { groups: a.user.groups } : {}),
      ...(a.user.extra && Object.keys(a.user.extra).length ? { extra: a.user.extra } : {}),
    },
    // Typed objects as Go encodes them (creationTimestamp: null before the registry sets it); the subresource's own
    // kind (a.kind) is typed too.
    object: wireObject(a.object, a.kind ? undefined : a.decl.definition, a.kind !== undefined),
    oldObject: wireObject(a.oldObject, a.kind ? undefined : a.decl.definition, a.kind !== undefined),
    dryRun: a.dryRun,
    options: operationOptions(a),
  };
  return { uid, body: { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request } };
}

/** VerifyAdmissionResponse: the answer must be an AdmissionReview of the version sent, for this uid. */
export function verifyResponse(body: unknown, uid: string, version: 'v1' | 'v1beta1', mutating: boolean): ReviewResponse {
  const review = body as { kind?: string; apiVersion?: string; response?: Record<string, unknown> } | null;
  const r = review?.response as (ReviewResponse & { uid?: string }) | undefined;
  if (!r) throw new Error('webhook response was absent');
  if (version === 'v1') {
    if (r.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${r.uid ?? ''}"`);
    const gvk = `${review?.apiVersion ?? ''}, Kind=${review?.kind ?? ''}`;
    if (review?.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') {
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvk}`);
    }
  }
  const out: ReviewResponse = { allowed: r.allowed === true, status: r.status, warnings: r.warnings, auditAnnotations: r.auditAnnotations };
  if (mutating) {
    if (version === 'v1') {
      if (r.patch && r.patchType === undefined) throw new Error('webhook returned response.patch but not response.patchType');
      if (!r.patch && r.patchType !== undefined) throw new Error('webhook returned response.patchType but not response.patch');
      if (r.patchType === '') throw new Error('webhook returned invalid response.patchType of ""');
      out.patch = r.patch;
      out.patchType = r.patchType;
    } else if (r.patch) {
      out.patch = r.patch;
      out.patchType = 'JSONPatch';
    }
  } else if (version === 'v1') {
    if (r.patch) throw new Error('validating webhook may not return response.patch');
    if (r.patchType !== undefined) throw new Error('validating webhook may not return response.patchType');
  }
  return out;
}
