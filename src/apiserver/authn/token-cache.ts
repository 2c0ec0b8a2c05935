// The cache kube-apiserver puts in front of its bearer-token authenticators (staging/src/k8s.io/apiserver/pkg/
// authentication/token/cache/cached_token_authenticator.go, wired in pkg/kubeapiserver/authenticator/config.go with
// --token-success-cache-ttl 10s and --token-failure-cache-ttl 0 by default): an accepted token is not verified and
// looked up again for 10 s, so a token whose ServiceAccount or pod was just deleted keeps working until its entry
// expires; refusals are not cached, so a token that starts working (or keeps failing) is checked every time.

import { createHash } from 'node:crypto';
import type { AuthnResult, TokenAuthenticator } from './interfaces.js';

/** BuiltInAuthenticationOptions defaults. */
export const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;
export const TOKEN_FAILURE_CACHE_TTL_MS = 0;
/** Entries held at once (kube's striped LRU holds 32 × 128); the oldest go first. */
const MAX_ENTRIES = 4096;

export interface TokenCacheOptions {
  now: () => number;
  successTtlMs?: number;
  failureTtlMs?: number;
}

interface Entry { result: AuthnResult; expiresMs: number }

export function cachedTokenAuthenticator(inner: TokenAuthenticator, o: TokenCacheOptions): TokenAuthenticator {
  const successTtl = o.successTtlMs ?? TOKEN_SUCCESS_CACHE_TTL_MS;
  const failureTtl = o.failureTtlMs ?? TOKEN_FAILURE_CACHE_TTL_MS;
  const entries = new Map<string, Entry>();
  // Concurrent checks of one token share the answer (kube's singleflight group).
  const inflight = new Map<string, Promise<AuthnResult>>();
  return {
    name: `cached ${inner.name}`,
    async authenticateToken(token, audiences) {
      // The key never holds the token itself, only its hash with the audiences asked for.
      const key = createHash('sha256').update(JSON.stringify(audiences?.length ? audiences : [])).update('\0').update(token).digest('base64');
      const hit = entries.get(key);
      if (hit) {
        if (hit.expiresMs > o.now()) return hit.result;
        entries.delete(key);
      }
      const running = inflight.get(key);
      if (running) return running;
      const p = inner.authenticateToken(token, audiences).then((result) => {
        const ttl = result.code === 'Authenticated' ? successTtl : failureTtl;
        if (ttl > 0) {
          entries.set(key, { result, expiresMs: o.now() + ttl });
          if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        }
        return result;
      }).finally(() => inflight.delete(key));
      inflight.set(key, p);
      return p;
    },
  };
}
