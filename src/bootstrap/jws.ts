// The detached JWS that signs cluster-info for a bootstrap token (k8s.io/cluster-bootstrap/token/jws/jws.go, RFC 7515
// appendix F): HS256 over the kubeconfig with the token secret (zero-padded to 32 bytes), header {"alg","kid"}.

import { createHmac, timingSafeEqual } from 'node:crypto';

const b64url = (b: Buffer) => b.toString('base64url');

export function detachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  // go-jose wants HS256 keys of 32 bytes or more; kube pads the 16-character secret with zeros.
  const key = Buffer.alloc(Math.max(32, Buffer.byteLength(tokenSecret)));
  key.write(tokenSecret);
  // go-jose serialises the protected header with sorted keys; byte-identical output keeps signatures comparable.
  const header = b64url(Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenId })));
  const payload = b64url(Buffer.from(content));
  const sig = b64url(createHmac('sha256', key).update(`${header}.${payload}`).digest());
  return `${header}..${sig}`;
}

/** DetachedTokenIsValid: recompute and compare. */
export function detachedSignatureValid(signature: string, content: string, tokenId: string, tokenSecret: string): boolean {
  const want = Buffer.from(detachedSignature(content, tokenId, tokenSecret));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** cluster-info's key for a token's signature (bootstrapapi.JWSSignatureKeyPrefix). */
export const jwsKey = (tokenId: string) => `jws-kubeconfig-${tokenId}`;
