// Authenticator composition as kube-apiserver builds it (pkg/kubeapiserver/authenticator/config.go): a union of token
// authenticators behind the bearer-token reader, a union of request authenticators, and the group every
// authenticated user gets (request/union, token/union, request/bearertoken, group/authenticated_group_adder.go).

import { aggregateMessage } from '../../api/errors.js';
import { failed, NO_OPINION, type AuthnRequest, type AuthnResult, type RequestAuthenticator, type TokenAuthenticator } from './interfaces.js';

export const AUTHENTICATED_GROUP = 'system:authenticated';

/** The first authenticator to accept wins; the failures of the others count only when none accepts. */
async function firstAccepting(runs: (() => Promise<AuthnResult>)[]): Promise<AuthnResult> {
  const reasons: string[] = [];
  for (const run of runs) {
    const r = await run();
    if (r.code === 'Authenticated') return r;
    if (r.code === 'Failed') reasons.push(r.reason);
  }
  return reasons.length ? failed(aggregateMessage(reasons)) : NO_OPINION;
}

export function tokenUnion(name: string, list: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    name,
    authenticateToken: (token, audiences) => firstAccepting(list.map((a) => () => a.authenticateToken(token, audiences))),
  };
}

/** `Authorization: Bearer <token>`; a token nobody accepts is `invalid bearer token` (bearertoken.go). */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator): RequestAuthenticator {
  return {
    name: 'bearer-token',
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const header = req.authorization?.trim();
      if (!header) return NO_OPINION;
      const space = header.indexOf(' ');
      if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return NO_OPINION;
      const token = header.slice(space + 1).trim();
      // Two parts only: "Bearer a b" is not a bearer token kube reads.
      if (!token || /\s/.test(token)) return NO_OPINION;
      const r = await tokens.authenticateToken(token, req.audiences);
      return r.code === 'NoOpinion' ? failed('invalid bearer token') : r;
    },
  };
}

/** Every request authenticator in turn; an authenticated user joins system:authenticated (authenticated_group_adder.go). */
export function requestUnion(list: readonly RequestAuthenticator[]): RequestAuthenticator {
  return {
    name: 'union',
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const r = await firstAccepting(list.map((a) => () => a.authenticate(req)));
      if (r.code !== 'Authenticated') return r;
      const groups = r.user.groups;
      if (r.user.name === 'system:anonymous' || groups.includes(AUTHENTICATED_GROUP)) return r;
      return { ...r, user: { ...r.user, groups: [...groups, AUTHENTICATED_GROUP] } };
    },
  };
}
