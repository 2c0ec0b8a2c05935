// The ServiceAccount token signing key, as kubeadm makes it (pki/sa.key, pki/sa.pub; kube-apiserver
// --service-account-signing-key-file / --service-account-key-file): RSA 2048 for RS256, kept beside the cluster PKI.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceAccountKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The JWS `kid`: base64url SHA-256 of the public key's DER (pkg/serviceaccount/jwt.go keyIDFromPublicKey). */
  keyId: string;
}

function keysOf(privateKey: KeyObject, publicKey: KeyObject = createPublicKey(privateKey)): ServiceAccountKeys {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return { privateKey, publicKey, keyId: createHash('sha256').update(der).digest('base64url') };
}

function generate(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** Loads `<dir>/pki/sa.key`, creating it (and sa.pub) at cluster init. */
export function loadOrCreateServiceAccountKeys(dir: string): ServiceAccountKeys {
  const pki = join(dir, 'pki');
  const keyPath = join(pki, 'sa.key');
  if (existsSync(keyPath)) return keysOf(createPrivateKey(readFileSync(keyPath, 'utf8')));
  mkdirSync(pki, { recursive: true, mode: 0o700 });
  const privateKey = generate();
  const publicKey = createPublicKey(privateKey);
  // kubeadm writes the private key PKCS#1 ("RSA PRIVATE KEY") and the public key PKIX ("PUBLIC KEY").
  writeFileSync(keyPath, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(pki, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  return keysOf(privateKey, publicKey);
}

let ephemeral: ServiceAccountKeys | undefined;

/** One key per process for clusters without a data directory (tests): an RSA key takes ~100 ms to make. */
export function ephemeralServiceAccountKeys(): ServiceAccountKeys {
  return (ephemeral ??= keysOf(generate()));
}

/** The public key as a JWK for /openid/v1/jwks (serviceaccount/openidmetadata.go publicJWKsFromKeys). */
export function publicJwk(keys: ServiceAccountKeys): Record<string, string> {
  const jwk = keys.publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  return { use: 'sig', kty: 'RSA', kid: keys.keyId, alg: 'RS256', n: jwk.n, e: jwk.e };
}
