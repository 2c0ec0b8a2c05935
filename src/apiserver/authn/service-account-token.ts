// ServiceAccount JWTs as kube-apiserver mints them (pkg/serviceaccount/claims.go Claims, legacy.go LegacyClaims,
// jwt.go GenerateToken): RS256 or ES256 (the key's) with the signing key's `kid`, payload keys in the order go-jose writes them (sorted).

import { randomUUID, sign } from 'node:crypto';
import { hashOf, type ServiceAccountKeys } from './service-account-keys.js';

/** kubeadm's --service-account-issuer; also the API audience (--api-audiences defaults to the issuers). */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The issuer of Secret-based tokens (serviceaccount.LegacyIssuer). */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** The kubelet's projected token lifetime that triggers the safe-rollout extension (WarnOnlyBoundTokenExpirationSeconds). */
export const WARN_ONLY_EXPIRATION_SECONDS = 60 * 60 + 7;
/** What such a token really lives for (ExpirationExtensionSeconds): a year. */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

export interface ObjectRef {
  name: string;
  uid: string;
}

export interface BoundTokenInput {
  namespace: string;
  serviceAccount: ObjectRef;
  /** At most one of pod, secret; node alone or beside pod (ServiceAccountTokenPodNodeInfo). */
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  audiences: string[];
  expirationSeconds: number;
  /** Seconds after which the API server only warns (the extension of kubelet tokens). */
  warnAfterSeconds?: number;
  nowMs: number;
}

/** The service-account user name (serviceaccount.MakeUsername). */
export const serviceAccountUsername = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

const omitEmptyRef = (r: ObjectRef) => ({ ...(r.name ? { name: r.name } : {}), ...(r.uid ? { uid: r.uid } : {}) });

/** A bound token's claims; `jti` is a fresh UUID (ServiceAccountTokenJTI, on since 1.30). */
export function boundClaims(issuer: string, t: BoundTokenInput, jti: string = randomUUID()): Record<string, unknown> {
  const now = Math.floor(t.nowMs / 1000);
  const k8s: Record<string, unknown> = { namespace: t.namespace };
  if (t.node) k8s.node = omitEmptyRef(t.node);
  if (t.pod) k8s.pod = omitEmptyRef(t.pod);
  if (t.secret) k8s.secret = omitEmptyRef(t.secret);
  k8s.serviceaccount = omitEmptyRef(t.serviceAccount);
  if (t.warnAfterSeconds) k8s.warnafter = now + t.warnAfterSeconds;
  return {
    aud: t.audiences, exp: now + t.expirationSeconds, iat: now, iss: issuer, jti, 'kubernetes.io': k8s, nbf: now,
    sub: serviceAccountUsername(t.namespace, t.serviceAccount.name),
  };
}

/** A legacy Secret-based token's claims: no audience, no expiry (legacy.go LegacyClaims). */
export function legacyClaims(namespace: string, serviceAccount: ObjectRef, secretName: string): Record<string, unknown> {
  return {
    iss: LEGACY_ISSUER,
    'kubernetes.io/serviceaccount/namespace': namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': serviceAccount.name,
    'kubernetes.io/serviceaccount/service-account.uid': serviceAccount.uid,
    sub: serviceAccountUsername(namespace, serviceAccount.name),
  };
}

/**
 * Signs claims with the cluster's ServiceAccount key as a JWS compact serialisation (RFC 7515 §7.1). Node's own
 * crypto.sign with a callback runs the signing on libuv's thread pool and costs the API server's loop about a third
 * of what jose's WebCrypto path does (every pod's projected token is one signature); jose still verifies.
 */
export class TokenSigner {
  private readonly header: string;

  constructor(readonly keys: ServiceAccountKeys, readonly issuer: string = DEFAULT_ISSUER) {
    this.header = Buffer.from(JSON.stringify({ alg: keys.alg, kid: keys.keyId })).toString('base64url');
  }

  sign(claims: Record<string, unknown>): Promise<string> {
    const signingInput = `${this.header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return new Promise((resolve, reject) => {
      // A JWS ECDSA signature is r‖s (RFC 7518 §3.4), not the DER node gives by default.
      const key = this.keys.alg === 'RS256' ? this.keys.privateKey : { key: this.keys.privateKey, dsaEncoding: 'ieee-p1363' as const };
      sign(hashOf(this.keys.alg), Buffer.from(signingInput), key, (err, signature) => {
        if (err) reject(err);
        else resolve(`${signingInput}.${signature.toString('base64url')}`);
      });
    });
  }
}
