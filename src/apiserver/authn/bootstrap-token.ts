// Bootstrap tokens (plugin/pkg/auth/authenticator/token/bootstrap/bootstrap.go): `<id>.<secret>` matched against the
// Secret kube-system/bootstrap-token-<id> of type bootstrap.kubernetes.io/token, for `kubeadm join`-style node joins.
// Every mismatch is silent (no opinion), so the caller sees kube's plain `invalid bearer token`.

import { timingSafeEqual } from 'node:crypto';
import { SECRET_PREFIX, SECRET_TYPE, TOKEN_PATTERN } from '../../bootstrap/token.js';
import { NO_OPINION, type AuthnLookup, type AuthnResult, type TokenAuthenticator } from './interfaces.js';

export const NAME = 'bootstrap-token';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

/** cluster-bootstrap/token/api BootstrapGroupPattern. */
const GROUP_RE = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

function decode(data: Record<string, string> | undefined, key: string): string {
  const v = data?.[key];
  return v === undefined ? '' : Buffer.from(v, 'base64').toString('utf8');
}

/** The default group, then auth-extra-groups (comma-separated, each `system:bootstrappers:…`), once each. */
export function bootstrapGroups(extra: string): string[] | undefined {
  const groups = [BOOTSTRAP_DEFAULT_GROUP];
  for (const g of extra.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!GROUP_RE.test(g)) return undefined;
    if (!groups.includes(g)) groups.push(g);
  }
  return groups;
}

export function bootstrapTokenAuthenticator(cfg: { lookup: AuthnLookup; now: () => number }): TokenAuthenticator {
  return {
    name: NAME,
    async authenticateToken(token: string): Promise<AuthnResult> {
      const m = TOKEN_PATTERN.exec(token);
      if (!m) return NO_OPINION;
      const [, id, secretPart] = m;
      const secret = cfg.lookup.get('', 'secrets', 'kube-system', SECRET_PREFIX + id) as
        | { type?: string; data?: Record<string, string>; metadata: { deletionTimestamp?: string } }
        | undefined;
      if (!secret || secret.metadata.deletionTimestamp || secret.type !== SECRET_TYPE) return NO_OPINION;
      const stored = Buffer.from(decode(secret.data, 'token-secret'));
      const given = Buffer.from(secretPart);
      if (stored.length !== given.length || !timingSafeEqual(stored, given)) return NO_OPINION;
      if (decode(secret.data, 'token-id') !== id) return NO_OPINION;
      const expiration = decode(secret.data, 'expiration');
      if (expiration && !(Date.parse(expiration) > cfg.now())) return NO_OPINION;
      if (decode(secret.data, 'usage-bootstrap-authentication') !== 'true') return NO_OPINION;
      const groups = bootstrapGroups(decode(secret.data, 'auth-extra-groups'));
      if (!groups) return NO_OPINION;
      return { code: 'Authenticated', user: { name: `system:bootstrap:${id}`, groups } };
    },
  };
}
