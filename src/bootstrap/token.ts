// Bootstrap tokens as kubeadm makes them (k8s.io/cluster-bootstrap/token/api, cmd/kubeadm/app/apis/bootstraptoken):
// "<id>.<secret>" ([a-z0-9]{6}.[a-z0-9]{16}), stored as Secret kube-system/bootstrap-token-<id>.

import { randomInt } from 'node:crypto';
import type { KubeObject } from '../api/types.js';
import { rfc3339 } from '../util/clock.js';

export const TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const SECRET_PREFIX = 'bootstrap-token-';
/** kubeadm's default auth-extra-groups: the group its RBAC lets create node CSRs (constants.NodeBootstrapTokenAuthGroup). */
export const DEFAULT_NODE_TOKEN_GROUP = 'system:bootstrappers:kubeadm:default-node-token';
/** kubeadm's default --ttl. */
export const DEFAULT_TTL_MS = 24 * 3600_000;

export interface BootstrapToken {
  id: string;
  secret: string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomString = (n: number) => Array.from({ length: n }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export function generateToken(): BootstrapToken {
  return { id: randomString(6), secret: randomString(16) };
}

export function parseToken(text: string): BootstrapToken {
  const m = TOKEN_PATTERN.exec(text.trim());
  if (!m) throw new Error(`the bootstrap token "${text}" was not of the form "${TOKEN_PATTERN.source}"`);
  return { id: m[1], secret: m[2] };
}

export const formatToken = (t: BootstrapToken) => `${t.id}.${t.secret}`;

export interface TokenSecretOptions {
  /** 0 means the token never expires (kubeadm --ttl 0). */
  ttlMs?: number;
  now: number;
  description?: string;
  groups?: string[];
  /** Which uses: authentication (join) and signing (cluster-info). Both by default. */
  usages?: ('authentication' | 'signing')[];
}

/** The Secret kubeadm's `token create` writes (bootstraptoken/v1 BootstrapTokenToSecret). */
export function tokenSecret(t: BootstrapToken, o: TokenSecretOptions): KubeObject {
  const ttl = o.ttlMs ?? DEFAULT_TTL_MS;
  const data: Record<string, string> = { 'token-id': t.id, 'token-secret': t.secret };
  if (o.description) data.description = o.description;
  if (ttl > 0) data.expiration = rfc3339(o.now + ttl);
  for (const u of o.usages ?? ['authentication', 'signing']) data[`usage-bootstrap-${u}`] = 'true';
  data['auth-extra-groups'] = (o.groups ?? [DEFAULT_NODE_TOKEN_GROUP]).join(',');
  return {
    apiVersion: 'v1', kind: 'Secret', type: SECRET_TYPE,
    metadata: { name: `${SECRET_PREFIX}${t.id}`, namespace: 'kube-system' },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  } as KubeObject;
}

/** A token Secret's fields, decoded; undefined when it is not a usable token (wrong type, malformed, expired). */
export function tokenFromSecret(secret: KubeObject, now: number): (BootstrapToken & { usages: Set<string> }) | undefined {
  if ((secret as { type?: string }).type !== SECRET_TYPE) return undefined;
  const raw = (secret as { data?: Record<string, string> }).data ?? {};
  const get = (k: string) => (raw[k] === undefined ? undefined : Buffer.from(raw[k], 'base64').toString());
  const id = get('token-id');
  const secretPart = get('token-secret');
  if (!id || !secretPart || secret.metadata.name !== `${SECRET_PREFIX}${id}`) return undefined;
  const exp = get('expiration');
  if (exp && Date.parse(exp) <= now) return undefined;
  const usages = new Set(Object.keys(raw).filter((k) => k.startsWith('usage-bootstrap-') && get(k) === 'true').map((k) => k.slice('usage-bootstrap-'.length)));
  return { id, secret: secretPart, usages };
}
