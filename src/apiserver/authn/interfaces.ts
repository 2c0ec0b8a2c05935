// The authenticator seam (k8s.io/apiserver/pkg/authentication/authenticator): request authenticators read a request's
// credentials, token authenticators a bearer token; each answers with a result code rather than an exception.

import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../admission/interfaces.js';

/** What a request authenticator may read of a request. */
export interface AuthnRequest {
  /** The Authorization header, as sent. */
  authorization?: string;
  /** The verified client certificate's subject (CN, O), when the TLS handshake checked one against the CA. */
  clientCertificate?: { cn?: string; orgs: string[] };
  /** The audiences the caller wants the credential to be valid for (TokenReview spec.audiences); the API's otherwise. */
  audiences?: string[];
}

/**
 * `Authenticated`: the credential names a user (and, for tokens, the audiences it was accepted for).
 * `NoOpinion`: the credential is not this authenticator's kind (no certificate, another issuer).
 * `Failed`: the credential is this authenticator's kind but invalid; the reason is kube's error text.
 */
export type AuthnResult =
  | { code: 'Authenticated'; user: UserInfo; audiences?: string[] }
  | { code: 'NoOpinion' }
  | { code: 'Failed'; reason: string };

export const NO_OPINION: AuthnResult = { code: 'NoOpinion' };
export const failed = (reason: string): AuthnResult => ({ code: 'Failed', reason });

export interface RequestAuthenticator {
  readonly name: string;
  authenticate(req: AuthnRequest): Promise<AuthnResult>;
}

export interface TokenAuthenticator {
  readonly name: string;
  /** `audiences`: what the caller wants; the API server's audiences when absent. */
  authenticateToken(token: string, audiences?: string[]): Promise<AuthnResult>;
}

/** What authenticators read: the API server's watch-cache lookup (objects as stored, undefined when absent). */
export interface AuthnLookup {
  get(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
}
