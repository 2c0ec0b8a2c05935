// The kubelet's ServiceAccount token manager (pkg/kubelet/token/token_manager.go): pod-bound tokens requested through
// TokenRequest, cached per (account, audience, lifetime, pod), and renewed once 80 % of their lifetime has passed
// (or after 24 h), so projected volumes always hold a valid token.

import type { Pod } from 'kubernetes-types/core/v1.js';
import type { Clock, Timer } from '../../util/clock.js';

/** What a projected source asks the token manager for. */
export interface TokenProjection {
  audience?: string;
  expirationSeconds?: number;
}

export type TokenState = { token: string } | { pending: true } | { error: string };

/** POST serviceaccounts/<name>/token in the pod's namespace; resolves to the TokenRequest the API server answered. */
/** `node` is the pod's node: the kubelet that asks (its identity is what the API server checks). */
export type TokenRequester = (namespace: string, serviceAccount: string, body: object, node?: string) => Promise<{ status?: { token?: string; expirationTimestamp?: string } }>;

export interface TokenManagerOptions {
  request: TokenRequester;
  clock: Clock;
  /** A pod's token arrived or was renewed: its volumes can be set up, or its running containers' files rewritten. */
  refreshed(pod: Pod): void;
}

/** token_manager.go maxTTL: a token older than this is renewed whatever its lifetime. */
const MAX_TTL_MS = 24 * 3600_000;
/** projected volumes default expirationSeconds (pkg/apis/core/v1 defaults). */
const DEFAULT_EXPIRATION_SECONDS = 3600;

interface Entry {
  pod: Pod;
  token?: string;
  error?: string;
  inFlight: boolean;
  timer?: Timer;
}

export class ServiceAccountTokenManager {
  private readonly entries = new Map<string, Entry>();
  /** Each pod's entry keys, so a pod that goes costs its own entries, not a walk over every pod's. */
  private readonly byPod = new Map<string, Set<string>>();
  private stopped = false;

  constructor(private readonly o: TokenManagerOptions) {}

  /** The token for a pod's projected source now; asks the API server for one when there is none yet. */
  get(pod: Pod, p: TokenProjection): TokenState {
    const key = this.key(pod, p);
    let e = this.entries.get(key);
    if (!e) {
      e = { pod, inFlight: false };
      this.entries.set(key, e);
      const uid = pod.metadata?.uid ?? '';
      let keys = this.byPod.get(uid);
      if (!keys) this.byPod.set(uid, (keys = new Set()));
      keys.add(key);
    }
    e.pod = pod;
    if (e.token) return { token: e.token };
    if (!e.inFlight && !e.error) this.fetch(key, e, p);
    if (e.error) {
      const error = e.error;
      // Retried on the next volume set-up attempt, as the kubelet's next sync asks again.
      e.error = undefined;
      return { error };
    }
    return { pending: true };
  }

  /** The pod is gone from the node: drop its tokens (token_manager.go DeleteServiceAccountToken). */
  forget(podUID: string): void {
    const keys = this.byPod.get(podUID);
    if (!keys) return;
    this.byPod.delete(podUID);
    for (const key of keys) {
      this.entries.get(key)?.timer?.cancel();
      this.entries.delete(key);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const e of this.entries.values()) e.timer?.cancel();
    this.entries.clear();
    this.byPod.clear();
  }

  private key(pod: Pod, p: TokenProjection): string {
    const sa = pod.spec?.serviceAccountName || 'default';
    return JSON.stringify([pod.metadata?.namespace ?? 'default', sa, p.audience ?? '', p.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS, pod.metadata?.uid ?? '']);
  }

  private fetch(key: string, e: Entry, p: TokenProjection): void {
    e.inFlight = true;
    const pod = e.pod;
    const expirationSeconds = p.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
    // What the kubelet's projected volume plugin asks for (pkg/volume/projected/projected.go collectData).
    const body = {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
      spec: {
        ...(p.audience ? { audiences: [p.audience] } : {}), expirationSeconds,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
      },
    };
    const started = this.o.clock.now();
    this.o.request(pod.metadata?.namespace ?? 'default', pod.spec?.serviceAccountName || 'default', body, pod.spec?.nodeName).then((tr) => {
      e.inFlight = false;
      if (this.stopped || this.entries.get(key) !== e) return;
      const token = tr.status?.token;
      if (!token) throw new Error('no token in the TokenRequest answer');
      e.token = token;
      e.error = undefined;
      const exp = Date.parse(tr.status?.expirationTimestamp ?? '') || started + expirationSeconds * 1000;
      // requiresRefresh: within 20 % of the lifetime of expiry, or older than a day.
      const renewAt = Math.min(exp - Math.floor((expirationSeconds * 20) / 100) * 1000, started + MAX_TTL_MS);
      e.timer?.cancel();
      e.timer = this.o.clock.setTimeout(() => this.renew(key, e, p), Math.max(0, renewAt - this.o.clock.now()));
      this.o.refreshed(e.pod);
    }).catch((err: unknown) => {
      e.inFlight = false;
      if (this.stopped || this.entries.get(key) !== e) return;
      // A renewal that fails keeps the old token until it expires (the kubelet logs and uses the cached one).
      if (e.token) {
        e.timer = this.o.clock.setTimeout(() => this.renew(key, e, p), 10_000);
        return;
      }
      e.error = `failed to fetch token: ${err instanceof Error ? err.message : String(err)}`;
      this.o.refreshed(e.pod);
    });
  }

  private renew(key: string, e: Entry, p: TokenProjection): void {
    e.timer = undefined;
    if (this.stopped || this.entries.get(key) !== e || e.inFlight) return;
    this.fetch(key, e, p);
  }
}
