// authorization.k8s.io/v1: SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview and
// SelfSubjectRulesReview (pkg/registry/authorization/*/rest.go, validation in pkg/apis/authorization/validation).
// Create-only and never stored, so served beside the registry like an aggregated group; `kubectl auth can-i` asks here.

import { fieldErr, StatusError, type FieldError } from '../../api/errors.js';
import type { UserInfo } from '../admission/interfaces.js';
import type { AggregatedApi, AggregatedResource, ServerRequest, ServerResponse } from '../interfaces.js';
import { decodeBody, decodeObjectBody } from '../negotiate.js';
import type { RequestInfo } from '../request-info.js';
import { json } from '../server.js';
import { GoValue } from '../../api/validation/go-value.js';
import type { AuthorizationAttributes, Authorizer, RuleResolver } from './interfaces.js';

export const GROUP = 'authorization.k8s.io';
export const VERSION = 'v1';
const API_VERSION = `${GROUP}/${VERSION}`;

interface ResourceAttributes { namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string }
interface NonResourceAttributes { path?: string; verb?: string }
interface ReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
  namespace?: string;
}
interface Review { apiVersion?: string; kind?: string; metadata?: Record<string, unknown>; spec?: ReviewSpec }

const NOT_FOUND = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

/** Go's %#v of a *NonResourceAttributes (the bad value kube prints). */
function goNonResource(a: NonResourceAttributes | null | undefined): GoValue {
  if (!a) return new GoValue(null, '(*authorization.NonResourceAttributes)(nil)');
  return new GoValue(a, `&authorization.NonResourceAttributes{Path:${JSON.stringify(a.path ?? '')}, Verb:${JSON.stringify(a.verb ?? '')}}`);
}

/** ValidateSubjectAccessReviewSpec (and its self/local variants). */
function validateSpec(spec: ReviewSpec, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.nonResourceAttributes', goNonResource(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.resourceAttributes', goNonResource(spec.nonResourceAttributes), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (kind === 'LocalSubjectAccessReview' && spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.nonResourceAttributes', goNonResource(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  if (kind !== 'SelfSubjectAccessReview' && !spec.user && !spec.groups?.length) {
    errs.push(fieldErr.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return errs;
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
export function attributesFrom(user: UserInfo, spec: ReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user, verb: r.verb ?? '', isResourceRequest: true, group: r.group ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '',
      namespace: r.namespace ?? '', name: r.name ?? '', path: '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, group: '', resource: '', subresource: '', namespace: '', name: '', path: n.path ?? '' };
}

export interface ReviewApiConfig {
  authorizer: Authorizer;
  rules: RuleResolver;
}

export class AuthorizationReviewApi implements AggregatedApi {
  readonly group = GROUP;
  readonly version = VERSION;
  readonly resources: readonly AggregatedResource[] = [
    { plural: 'localsubjectaccessreviews', singular: 'localsubjectaccessreview', kind: 'LocalSubjectAccessReview', namespaced: true, verbs: ['create'] },
    { plural: 'selfsubjectaccessreviews', singular: 'selfsubjectaccessreview', kind: 'SelfSubjectAccessReview', namespaced: false, verbs: ['create'] },
    { plural: 'selfsubjectrulesreviews', singular: 'selfsubjectrulesreview', kind: 'SelfSubjectRulesReview', namespaced: false, verbs: ['create'] },
    { plural: 'subjectaccessreviews', singular: 'subjectaccessreview', kind: 'SubjectAccessReview', namespaced: false, verbs: ['create'] },
  ];

  constructor(private readonly cfg: ReviewApiConfig) {}

  async handle(req: ServerRequest, info: RequestInfo): Promise<ServerResponse> {
    const resource = this.resources.find((r) => r.plural === info.resource);
    if (!resource || info.subresource || info.name) throw NOT_FOUND();
    if (resource.namespaced !== (info.namespace !== '')) {
      if (resource.namespaced) throw NOT_FOUND();
      throw StatusError.badRequest(`namespace is not allowed on this type: ${info.namespace}`);
    }
    if (info.verb !== 'create') throw StatusError.methodNotAllowed(info.verb, GROUP, resource.plural);
    const body = decodeObjectBody(decodeBody(req.body, req.contentType), resource.kind) as Review;
    const user = req.user ?? { name: 'system:anonymous', groups: ['system:unauthenticated'] };
    const spec: ReviewSpec = body.spec ?? {};
    const metadata = { creationTimestamp: null, ...(body.metadata ?? {}) };
    if (resource.kind === 'SelfSubjectRulesReview') {
      if (!spec.namespace) throw StatusError.badRequest('no namespace on request');
      const r = this.cfg.rules.rulesFor(user, spec.namespace);
      const status: Record<string, unknown> = { resourceRules: r.resourceRules, nonResourceRules: r.nonResourceRules, incomplete: r.incomplete };
      if (r.evaluationError) status.evaluationError = r.evaluationError;
      return json(201, { kind: resource.kind, apiVersion: API_VERSION, metadata: { creationTimestamp: null }, spec: {}, status });
    }
    const errs = validateSpec(spec, resource.kind);
    if (errs.length) throw StatusError.invalid(GROUP, resource.kind, '', errs);
    if (resource.kind === 'LocalSubjectAccessReview' && spec.resourceAttributes?.namespace !== info.namespace) {
      throw StatusError.badRequest(`spec.resourceAttributes.namespace must match namespace: ${info.namespace}`);
    }
    const subject: UserInfo = resource.kind === 'SelfSubjectAccessReview' ? user
      : { name: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
    const result = await this.cfg.authorizer.authorize(attributesFrom(subject, spec));
    const status: Record<string, unknown> = { allowed: result.decision === 'Allow' };
    if (result.decision === 'Deny') status.denied = true;
    if (result.reason) status.reason = result.reason;
    return json(201, { kind: resource.kind, apiVersion: API_VERSION, metadata, spec, status });
  }
}
