// Builds kube-apiserver's authentication as kubeadm configures it: client certificates, then bearer tokens
// (ServiceAccount JWTs of the cluster issuer and legacy Secrets, bootstrap tokens, behind kube's token cache), the
// TokenRequest issuer, the issuer discovery documents and the authentication.k8s.io API that reviews tokens with the
// same chain.

import type { TokenIssuerConfig } from '../token-request.js';
import type { AggregatedApi } from '../interfaces.js';
import { AuthenticationApi } from './authentication-api.js';
import { bootstrapTokenAuthenticator } from './bootstrap-token.js';
import { bearerTokenAuthenticator, requestUnion, tokenUnion } from './chain.js';
import type { AuthnLookup, RequestAuthenticator } from './interfaces.js';
import { OidcDiscovery } from './oidc-discovery.js';
import { ServiceAccountAuthenticator } from './service-account-authenticator.js';
import type { ServiceAccountKeys } from './service-account-keys.js';
import { DEFAULT_ISSUER, TokenSigner } from './service-account-token.js';
import { cachedTokenAuthenticator } from './token-cache.js';
import { x509Authenticator } from './x509.js';

export interface AuthenticationConfig {
  /** The signing key (--service-account-signing-key-file); its public half verifies. */
  keys: ServiceAccountKeys;
  /** --service-account-issuer; kubeadm's https://kubernetes.default.svc.cluster.local when absent. */
  issuer?: string;
  /** --api-audiences; the issuer when absent, as kube-apiserver defaults it. */
  apiAudiences?: string[];
  lookup: AuthnLookup;
  now: () => number;
  /** Writes the legacy-token-last-used label (the API server's own secrets client). */
  markLegacyTokenUsed?(namespace: string, name: string, uid: string, today: string): void;
}

export interface Authentication {
  authenticator: RequestAuthenticator;
  tokenIssuer: TokenIssuerConfig;
  oidc: OidcDiscovery;
  /** authentication.k8s.io/v1 and v1beta1 (TokenReview, SelfSubjectReview). */
  apis: AggregatedApi[];
}

export function createAuthentication(cfg: AuthenticationConfig): Authentication {
  const issuer = cfg.issuer ?? DEFAULT_ISSUER;
  const apiAudiences = cfg.apiAudiences ?? [issuer];
  // The union behind kube's token cache: an accepted token is trusted for 10 s without another check.
  const tokens = cachedTokenAuthenticator(tokenUnion('tokens', [
    new ServiceAccountAuthenticator({
      issuers: [issuer], apiAudiences, keys: [cfg.keys], lookup: cfg.lookup, now: cfg.now, markLegacyTokenUsed: cfg.markLegacyTokenUsed,
    }),
    bootstrapTokenAuthenticator({ lookup: cfg.lookup, now: cfg.now }),
  ]), { now: cfg.now });
  const authenticator = requestUnion([x509Authenticator(), bearerTokenAuthenticator(tokens)]);
  return {
    authenticator,
    tokenIssuer: { signer: new TokenSigner(cfg.keys, issuer), apiAudiences, extendExpiration: true, nodeBinding: true },
    oidc: new OidcDiscovery(issuer, [cfg.keys]),
    apis: [new AuthenticationApi('v1', { authenticator, apiAudiences }), new AuthenticationApi('v1beta1', { authenticator, apiAudiences })],
  };
}
