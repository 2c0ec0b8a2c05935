// Authenticates ServiceAccount JWTs (pkg/serviceaccount/jwt.go JWTTokenAuthenticator with claims.go's bound-token
// validator and legacy.go's Secret-token validator): signature, issuer, audience, time, and that the account and the
// objects the token is bound to still exist with the UIDs it names.

import { compactVerify, decodeProtectedHeader } from 'jose';
import type { KubeObject } from '../../api/types.js';
import { failed, NO_OPINION, type AuthnLookup, type AuthnResult, type TokenAuthenticator } from './interfaces.js';
import type { ServiceAccountKeys } from './service-account-keys.js';
import { LEGACY_ISSUER, serviceAccountUsername } from './service-account-token.js';

export const NAME = 'service-account';

/** go-jose's jwt.DefaultLeeway: clock skew allowed on exp, nbf and iat. */
const LEEWAY_S = 60;

/** Extra keys kube sets on a ServiceAccount user (apiserver pkg/authentication/serviceaccount/util.go). */
export const EXTRA = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUID: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUID: 'authentication.kubernetes.io/node-uid',
  credentialID: 'authentication.kubernetes.io/credential-id',
} as const;

/** The label the legacy validator keeps on a Secret-based token that was used (legacy.go LastUsedLabelKey). */
export const LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

export interface ServiceAccountAuthenticatorConfig {
  /** Issuers of bound tokens (--service-account-issuer). */
  issuers: string[];
  /** The API audiences (--api-audiences): what a token without an audience, or a request without one, means. */
  apiAudiences: string[];
  keys: ServiceAccountKeys[];
  lookup: AuthnLookup;
  now: () => number;
  /** Labels a used legacy token Secret with today's date (the legacy validator's secretsWriter). */
  markLegacyTokenUsed?(namespace: string, name: string, uid: string, today: string): void;
}

interface Ref { name?: string; uid?: string }
interface Payload {
  iss?: string; sub?: string; aud?: string | string[]; exp?: number; nbf?: number; iat?: number; jti?: string;
  'kubernetes.io'?: { namespace?: string; serviceaccount?: Ref; pod?: Ref; secret?: Ref; node?: Ref; warnafter?: number };
  'kubernetes.io/serviceaccount/namespace'?: string;
  'kubernetes.io/serviceaccount/secret.name'?: string;
  'kubernetes.io/serviceaccount/service-account.name'?: string;
  'kubernetes.io/serviceaccount/service-account.uid'?: string;
}

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoteList = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/** The unverified payload, when the token is a compact JWS at all (jwt.go hasCorrectIssuer). */
function peek(token: string): Payload | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const p = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    return p && typeof p === 'object' && !Array.isArray(p) ? p as Payload : undefined;
  } catch {
    return undefined;
  }
}

type Found = { ok: true; obj: KubeObject } | { ok: false; reason: string };

export class ServiceAccountAuthenticator implements TokenAuthenticator {
  readonly name = NAME;

  constructor(private readonly cfg: ServiceAccountAuthenticatorConfig) {}

  async authenticateToken(token: string, audiences?: string[]): Promise<AuthnResult> {
    const claimed = peek(token);
    const legacy = claimed?.iss === LEGACY_ISSUER;
    if (!claimed || (!legacy && !this.cfg.issuers.includes(claimed.iss ?? ''))) return NO_OPINION;
    let kid = '';
    try {
      kid = decodeProtectedHeader(token).kid ?? '';
    } catch {
      return NO_OPINION;
    }
    const keys = kid ? this.cfg.keys.filter((k) => k.keyId === kid) : this.cfg.keys;
    if (!keys.length) return failed('invalid signature, no keys found');
    let payload: Payload | undefined;
    const errors: string[] = [];
    for (const k of keys) {
      try {
        const r = await compactVerify(token, k.publicKey, { algorithms: [k.alg] });
        payload = JSON.parse(Buffer.from(r.payload).toString('utf8')) as Payload;
        break;
      } catch {
        errors.push('go-jose/go-jose: error in cryptographic primitive');
      }
    }
    if (!payload) return failed(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    if (payload.iss !== claimed.iss) return failed(`token issuer ${JSON.stringify(payload.iss ?? '')} is invalid`);
    const tokenAuds = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const effective = tokenAuds.length ? tokenAuds : this.cfg.apiAudiences;
    const requested = audiences?.length ? audiences : this.cfg.apiAudiences;
    const auds = effective.filter((a) => requested.includes(a));
    if (!auds.length && this.cfg.apiAudiences.length) {
      return failed(`token audiences ${goQuoteList(effective)} is invalid for the target audiences ${goQuoteList(requested)}`);
    }
    const r = legacy ? this.validateLegacy(token, payload) : this.validateBound(payload);
    return r.code === 'Authenticated' ? { ...r, audiences: auds } : r;
  }

  private get(resource: string, namespace: string | undefined, name: string): Found {
    const obj = this.cfg.lookup.get('', resource, namespace, name);
    return obj ? { ok: true, obj } : { ok: false, reason: `${resource} "${name}" not found` };
  }

  /** Deleted longer ago than the leeway: kube keeps honouring a token for a minute after a graceful delete starts. */
  private deletedBefore(obj: KubeObject): boolean {
    const ts = obj.metadata.deletionTimestamp;
    return !!ts && Date.parse(ts) < this.cfg.now() - LEEWAY_S * 1000;
  }

  /** claims.go validator.Validate. */
  private validateBound(p: Payload): AuthnResult {
    const now = Math.floor(this.cfg.now() / 1000);
    if (p.exp !== undefined && now > p.exp + LEEWAY_S) return failed('service account token has expired');
    if (p.nbf !== undefined && now + LEEWAY_S < p.nbf) return failed('service account token is not valid yet');
    if (p.iat !== undefined && now + LEEWAY_S < p.iat) return failed('service account token is issued in the future');
    const k = p['kubernetes.io'] ?? {};
    const ns = k.namespace ?? '';
    const saRef = k.serviceaccount ?? {};
    const sa = this.get('serviceaccounts', ns, saRef.name ?? '');
    if (!sa.ok) return failed(sa.reason);
    if (sa.obj.metadata.uid !== saRef.uid) return failed(`service account UID (${sa.obj.metadata.uid}) does not match claim (${saRef.uid ?? ''})`);
    if (this.deletedBefore(sa.obj)) return failed(`service account ${ns}/${saRef.name} has been deleted`);
    const bound: [string, Ref | undefined, string][] = [['secrets', k.secret, 'secret UID (%s) does not match service account secret ref claim (%s)'], ['pods', k.pod, 'pod UID (%s) does not match service account pod ref claim (%s)']];
    for (const [resource, ref, mismatch] of bound) {
      if (!ref) continue;
      const o = this.get(resource, ns, ref.name ?? '');
      if (!o.ok) return failed('service account token has been invalidated');
      if (o.obj.metadata.uid !== ref.uid) return failed(mismatch.replace('%s', o.obj.metadata.uid ?? '').replace('%s', ref.uid ?? ''));
      if (this.deletedBefore(o.obj)) return failed('service account token has been invalidated');
    }
    const extra: Record<string, string[]> = {};
    if (k.pod?.name && k.pod.uid) {
      extra[EXTRA.podName] = [k.pod.name];
      extra[EXTRA.podUID] = [k.pod.uid];
    }
    if (k.node?.name && !k.pod) {
      // A token bound to a Node alone (ServiceAccountTokenNodeBindingValidation, GA in 1.32).
      const node = this.get('nodes', undefined, k.node.name);
      if (!node.ok) return failed('service account token has been invalidated');
      if (node.obj.metadata.uid !== k.node.uid) return failed(`node UID (${node.obj.metadata.uid}) does not match service account node ref claim (${k.node.uid ?? ''})`);
      if (this.deletedBefore(node.obj)) return failed('service account token has been invalidated');
    }
    if (p.jti) extra[EXTRA.credentialID] = [`JTI=${p.jti}`];
    if (k.node?.name) {
      extra[EXTRA.nodeName] = [k.node.name];
      if (k.node.uid) extra[EXTRA.nodeUID] = [k.node.uid];
    }
    return authenticated(ns, saRef.name ?? '', saRef.uid ?? '', extra);
  }

  /** legacy.go legacyValidator.Validate, with the last-used tracking of 1.33. */
  private validateLegacy(token: string, p: Payload): AuthnResult {
    if (!p.sub) return failed('sub claim is missing');
    const ns = p['kubernetes.io/serviceaccount/namespace'];
    if (!ns) return failed('namespace claim is missing');
    const secretName = p['kubernetes.io/serviceaccount/secret.name'];
    if (!secretName) return failed('secretName claim is missing');
    const saName = p['kubernetes.io/serviceaccount/service-account.name'];
    if (!saName) return failed('serviceAccountName claim is missing');
    const saUID = p['kubernetes.io/serviceaccount/service-account.uid'];
    if (!saUID) return failed('serviceAccountUID claim is missing');
    if (p.sub !== serviceAccountUsername(ns, saName)) return failed('sub claim is invalid');
    const secret = this.get('secrets', ns, secretName);
    if (!secret.ok || secret.obj.metadata.deletionTimestamp) return failed('Token has been invalidated');
    const stored = (secret.obj as { data?: Record<string, string> }).data?.token;
    if (!stored || Buffer.from(stored, 'base64').toString('utf8') !== token) return failed("Token does not match server's copy");
    const sa = this.get('serviceaccounts', ns, saName);
    if (!sa.ok) return failed(sa.reason);
    if (sa.obj.metadata.deletionTimestamp) return failed(`ServiceAccount ${ns}/${saName} has been deleted`);
    if (sa.obj.metadata.uid !== saUID) return failed(`ServiceAccount UID (${sa.obj.metadata.uid}) does not match claim (${saUID})`);
    this.markUsed(secret.obj);
    if (secret.obj.metadata.labels?.[INVALID_SINCE_LABEL]) {
      return failed(`the token in secret ${ns}/${secretName} for service account ${ns}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`);
    }
    return authenticated(ns, saName, saUID, {});
  }

  /** At most one write a day per Secret: only when the label is neither today nor tomorrow (clock skew). */
  private markUsed(secret: KubeObject): void {
    if (!this.cfg.markLegacyTokenUsed) return;
    const now = this.cfg.now();
    const today = new Date(now).toISOString().slice(0, 10);
    const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10);
    const last = secret.metadata.labels?.[LAST_USED_LABEL];
    if (last === today || last === tomorrow) return;
    this.cfg.markLegacyTokenUsed(secret.metadata.namespace ?? '', secret.metadata.name ?? '', secret.metadata.uid ?? '', today);
  }
}

/** ServiceAccountInfo.UserInfo: the account's user, its two groups, its UID and the extras of the binding. */
function authenticated(namespace: string, name: string, uid: string, extra: Record<string, string[]>): AuthnResult {
  return {
    code: 'Authenticated',
    user: {
      name: serviceAccountUsername(namespace, name), uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
      ...(Object.keys(extra).length ? { extra } : {}),
    },
  };
}
