// authentication.k8s.io: TokenReview (pkg/registry/authentication/tokenreview/storage.go) and SelfSubjectReview
// (pkg/registry/authentication/selfsubjectreview/rest.go). Create-only, nothing stored, so they are served beside the
// registry like an aggregated group rather than declared as stored resources.

import { StatusError } from '../../api/errors.js';
import type { UserInfo } from '../admission/interfaces.js';
import type { AggregatedApi, AggregatedResource, ServerRequest, ServerResponse } from '../interfaces.js';
import { decodeBody, decodeObjectBody } from '../negotiate.js';
import type { RequestInfo } from '../request-info.js';
import { json } from '../server.js';
import type { RequestAuthenticator } from './interfaces.js';

export const GROUP = 'authentication.k8s.io';

const NOT_FOUND = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

/** authentication/v1 UserInfo: username, uid, groups, extra (empty fields left out, as Go's omitempty does). */
export function userInfoJson(u: UserInfo): Record<string, unknown> {
  return {
    username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: u.groups,
    ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}),
  };
}

export class AuthenticationApi implements AggregatedApi {
  readonly group = GROUP;
  readonly resources: readonly AggregatedResource[];

  /** v1 serves both; v1beta1 only SelfSubjectReview, which kubectl 1.27's `auth whoami` asks for. */
  constructor(readonly version: 'v1' | 'v1beta1', private readonly cfg: { authenticator: RequestAuthenticator; apiAudiences: string[] }) {
    const ssr: AggregatedResource = { plural: 'selfsubjectreviews', singular: 'selfsubjectreview', kind: 'SelfSubjectReview', namespaced: false, verbs: ['create'] };
    this.resources = version === 'v1'
      ? [ssr, { plural: 'tokenreviews', singular: 'tokenreview', kind: 'TokenReview', namespaced: false, verbs: ['create'] }]
      : [ssr];
  }

  async handle(req: ServerRequest, info: RequestInfo): Promise<ServerResponse> {
    const resource = this.resources.find((r) => r.plural === info.resource);
    if (!resource || info.subresource || info.name) throw NOT_FOUND();
    if (info.namespace) throw StatusError.badRequest(`namespace is not allowed on this type: ${info.namespace}`);
    if (info.verb !== 'create') throw StatusError.methodNotAllowed(info.verb, GROUP, resource.plural);
    const body = decodeObjectBody(decodeBody(req.body, req.contentType), resource.kind) as { spec?: { token?: string; audiences?: string[] } };
    const apiVersion = `${GROUP}/${this.version}`;
    if (resource.kind === 'SelfSubjectReview') {
      // The request's own user, as the authenticator chain saw it.
      const user = req.user ?? { name: 'system:anonymous', groups: ['system:unauthenticated'] };
      return json(201, { kind: 'SelfSubjectReview', apiVersion, metadata: { creationTimestamp: null }, status: { userInfo: userInfoJson(user) } });
    }
    const token = body.spec?.token ?? '';
    if (!token) throw StatusError.badRequest('token is required for TokenReview in authentication');
    const audiences = body.spec?.audiences?.length ? body.spec.audiences : this.cfg.apiAudiences;
    let r = await this.cfg.authenticator.authenticate({ authorization: `Bearer ${token}`, audiences });
    if (r.code === 'Authenticated' && !r.audiences) {
      // An audience-agnostic authenticator (bootstrap tokens) speaks for the API audiences only
      // (authenticator.WrapAudienceAgnosticToken); a token nobody else accepts is then an invalid bearer token.
      const auds = audiences.filter((a) => this.cfg.apiAudiences.includes(a));
      r = auds.length ? { ...r, audiences: auds } : { code: 'Failed', reason: 'invalid bearer token' };
    }
    const status: Record<string, unknown> = { authenticated: r.code === 'Authenticated' };
    if (r.code === 'Authenticated') {
      if (audiences.length && !(r.audiences ?? []).some((a) => audiences.includes(a))) throw StatusError.internal('error validating audiences');
      status.user = userInfoJson(r.user);
      if (r.audiences) status.audiences = r.audiences;
    } else {
      status.user = {};
      if (r.code === 'Failed') status.error = r.reason;
    }
    return json(201, { kind: 'TokenReview', apiVersion, metadata: { creationTimestamp: null }, spec: body.spec ?? {}, status });
  }
}
