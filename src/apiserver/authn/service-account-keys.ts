// The ServiceAccount token signing key, as kubeadm makes it (pki/sa.key, pki/sa.pub; kube-apiserver
// --service-account-signing-key-file / --service-account-key-file), kept beside the cluster PKI: a new cluster gets
// ECDSA P-256 (ES256), as kubeadm does with `encryptionAlgorithm: ECDSA-P256`, like the rest of winkube's PKI; a key
// already in pki/sa.key is used as it is, RSA (RS256) or ECDSA (ES256/ES384), as kube-apiserver takes either.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The JWS algorithms kube signs ServiceAccount tokens with (pkg/serviceaccount/jwt.go signerFromECDSAPrivateKey …). */
export type TokenAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface ServiceAccountKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  alg: TokenAlgorithm;
  /** The JWS `kid`: base64url SHA-256 of the public key's DER (pkg/serviceaccount/jwt.go keyIDFromPublicKey). */
  keyId: string;
}

const CURVE_ALGORITHMS: Record<string, TokenAlgorithm> = { 'prime256v1': 'ES256', 'secp384r1': 'ES384', 'secp521r1': 'ES512' };

/** RSA keys sign RS256; an ECDSA key's curve names its algorithm (jwt.go: P-256 ES256, P-384 ES384, P-521 ES512). */
function algorithmOf(key: KeyObject): TokenAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const alg = key.asymmetricKeyType === 'ec' ? CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''] : undefined;
  if (!alg) throw new Error(`the ServiceAccount key must be RSA or ECDSA P-256/P-384/P-521, not ${key.asymmetricKeyType ?? 'unknown'} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
  return alg;
}

export function keysOf(privateKey: KeyObject, publicKey: KeyObject = createPublicKey(privateKey)): ServiceAccountKeys {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return { privateKey, publicKey, alg: algorithmOf(privateKey), keyId: createHash('sha256').update(der).digest('base64url') };
}

/**
 * ECDSA P-256: every pod's projected token is one signature, and an RSA-2048 signature costs about 1 ms of CPU where
 * a P-256 one costs about 0.06 ms (on 2 cores, 10,000 pods spent some 10 s of CPU signing with RSA).
 */
function generate(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
}

/** Loads `<dir>/pki/sa.key`, creating it (and sa.pub) at cluster init. */
export function loadOrCreateServiceAccountKeys(dir: string): ServiceAccountKeys {
  const pki = join(dir, 'pki');
  const keyPath = join(pki, 'sa.key');
  if (existsSync(keyPath)) return keysOf(createPrivateKey(readFileSync(keyPath, 'utf8')));
  mkdirSync(pki, { recursive: true, mode: 0o700 });
  const privateKey = generate();
  const publicKey = createPublicKey(privateKey);
  // kubeadm writes an ECDSA private key as SEC 1 ("EC PRIVATE KEY"; RSA as PKCS#1) and the public key PKIX ("PUBLIC KEY").
  writeFileSync(keyPath, privateKey.export({ type: 'sec1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(pki, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  return keysOf(privateKey, publicKey);
}

let ephemeral: ServiceAccountKeys | undefined;

/** One key per process for clusters without a data directory (tests). */
export function ephemeralServiceAccountKeys(): ServiceAccountKeys {
  return (ephemeral ??= keysOf(generate()));
}

/** The public key as a JWK for /openid/v1/jwks (openidmetadata.go publicJWKsFromKeys; go-jose's member order). */
export function publicJwk(keys: ServiceAccountKeys): Record<string, string> {
  if (keys.alg === 'RS256') {
    const jwk = keys.publicKey.export({ format: 'jwk' }) as { n: string; e: string };
    return { use: 'sig', kty: 'RSA', kid: keys.keyId, alg: keys.alg, n: jwk.n, e: jwk.e };
  }
  const jwk = keys.publicKey.export({ format: 'jwk' }) as { crv: string; x: string; y: string };
  return { use: 'sig', kty: 'EC', kid: keys.keyId, crv: jwk.crv, alg: keys.alg, x: jwk.x, y: jwk.y };
}

/** The hash a JWS algorithm signs with (RFC 7518 §3.1). */
export function hashOf(alg: TokenAlgorithm): 'sha256' | 'sha384' | 'sha512' {
  return alg === 'ES384' ? 'sha384' : alg === 'ES512' ? 'sha512' : 'sha256';
}
