// ServiceAccount issuer discovery (pkg/serviceaccount/openidmetadata.go, routes/openidmetadata.go): the OpenID
// provider configuration and the JWKS other systems verify the cluster's tokens with.

import type { ApiResponse } from '../../client/interfaces.js';
import { publicJwk, type ServiceAccountKeys } from './service-account-keys.js';

export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
/** openidmetadata.go: both documents may be cached for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

export class OidcDiscovery {
  constructor(private readonly issuer: string, private readonly keys: ServiceAccountKeys[], private readonly jwksUri?: string) {}

  /** `serverAddress` is host:port clients reach this server on (kube's --service-account-jwks-uri default uses it). */
  serve(path: string, serverAddress: string): ApiResponse {
    if (path === JWKS_PATH) {
      const body = { keys: this.keys.map(publicJwk) };
      return { status: 200, body, contentType: 'application/jwk-set+json', headers: { 'Cache-Control': CACHE_CONTROL } };
    }
    const body = {
      issuer: this.issuer,
      jwks_uri: this.jwksUri ?? `https://${serverAddress}${JWKS_PATH}`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      // openidmetadata.go getAlgs: the algorithms of the verification keys, sorted.
      id_token_signing_alg_values_supported: [...new Set(this.keys.map((k) => k.alg))].sort(),
    };
    return { status: 200, body, contentType: 'application/json', headers: { 'Cache-Control': CACHE_CONTROL } };
  }
}
