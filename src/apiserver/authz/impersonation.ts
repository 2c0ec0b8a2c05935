// Impersonation (`kubectl --as/--as-group`): the Impersonate-User, -Group, -Uid and -Extra-* headers, each checked
// with the `impersonate` verb before the request runs as that user (apiserver pkg/endpoints/filters/impersonation.go).

import { StatusError } from '../../api/errors.js';
import type { UserInfo } from '../admission/interfaces.js';
import { forbiddenReason, type AuthorizationAttributes, type Authorizer } from './interfaces.js';
import { serviceAccountUsername, splitServiceAccountUsername } from './rbac/rules.js';

export interface ImpersonationRequest {
  user?: string;
  groups: string[];
  /** Extra keys lower-cased and percent-decoded, one entry per header value. */
  extra: Record<string, string[]>;
  uid?: string;
}

const EXTRA_PREFIX = 'impersonate-extra-';

function unescapeKey(k: string): string {
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
}

/** The impersonation headers of a request (Node's rawHeaders keep repeated Impersonate-Group values apart). */
export function parseImpersonationHeaders(rawHeaders: readonly string[]): ImpersonationRequest | undefined {
  const out: ImpersonationRequest = { groups: [], extra: {} };
  let any = false;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    const value = rawHeaders[i + 1];
    if (name === 'impersonate-user') {
      out.user ??= value;
    } else if (name === 'impersonate-group') {
      out.groups.push(value);
    } else if (name === 'impersonate-uid') {
      out.uid ??= value;
    } else if (name.startsWith(EXTRA_PREFIX)) {
      (out.extra[unescapeKey(name.slice(EXTRA_PREFIX.length))] ??= []).push(value);
    } else {
      continue;
    }
    any = true;
  }
  return any ? out : undefined;
}

interface Step { kind: string; attrs: Omit<AuthorizationAttributes, 'user'>; goRef: string }

const resourceAttrs = (group: string, resource: string, namespace: string, name: string, subresource = ''): Omit<AuthorizationAttributes, 'user'> =>
  ({ verb: 'impersonate', isResourceRequest: true, group, resource, subresource, namespace, name, path: '' });

/** Go's %v of the v1.ObjectReference kube builds per impersonated thing (for its error text). */
const goRef = (kind: string, ns: string, name: string, apiVersion = '', fieldPath = '') => `{${kind} ${ns} ${name}  ${apiVersion}  ${fieldPath}}`;

/**
 * The user a request runs as once `requestor` may impersonate everything asked. Throws kube's 403 for the first thing
 * not allowed, and a 500 when groups, extras or a UID come without a user (kube answers that as an internal error).
 */
export async function impersonate(requestor: UserInfo, req: ImpersonationRequest, authorizer: Authorizer, uri: string): Promise<UserInfo> {
  const steps: Step[] = [];
  const sa = req.user ? splitServiceAccountUsername(req.user) : undefined;
  if (req.user && sa) steps.push({ kind: 'ServiceAccount', attrs: resourceAttrs('', 'serviceaccounts', sa[0], sa[1]), goRef: goRef('ServiceAccount', sa[0], sa[1]) });
  else if (req.user) steps.push({ kind: 'User', attrs: resourceAttrs('', 'users', '', req.user), goRef: goRef('User', '', req.user) });
  for (const g of req.groups) steps.push({ kind: 'Group', attrs: resourceAttrs('', 'groups', '', g), goRef: goRef('Group', '', g) });
  for (const [key, values] of Object.entries(req.extra)) {
    for (const v of values) {
      steps.push({ kind: 'UserExtra', attrs: resourceAttrs('authentication.k8s.io', 'userextras', '', v, key), goRef: goRef('UserExtra', '', v, 'authentication.k8s.io/v1', key) });
    }
  }
  if (req.uid) steps.push({ kind: 'UID', attrs: resourceAttrs('authentication.k8s.io', 'uids', '', req.uid), goRef: goRef('UID', '', req.uid, 'authentication.k8s.io/v1') });
  if (!req.user) {
    throw new StatusError(500, 'InternalError', `Internal Server Error: ${JSON.stringify(uri)}: requested [${steps.map((s) => s.goRef).join(' ')}] without impersonating a user`);
  }
  for (const step of steps) {
    const attrs: AuthorizationAttributes = { user: requestor, ...step.attrs };
    const res = await authorizer.authorize(attrs);
    if (res.decision !== 'Allow') throw StatusError.forbidden(attrs.group, attrs.resource, attrs.name, forbiddenReason(attrs, res.reason));
  }
  const name = sa ? serviceAccountUsername(sa[0], sa[1]) : req.user;
  // A ServiceAccount's groups are fixed; asked-for groups replace them (serviceaccount.MakeGroupNames).
  const groups = sa && !req.groups.length ? ['system:serviceaccounts', `system:serviceaccounts:${sa[0]}`] : [...req.groups];
  if (name !== 'system:anonymous') {
    if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
  } else if (!groups.includes('system:unauthenticated')) {
    groups.push('system:unauthenticated');
  }
  const user: UserInfo = { name, groups };
  if (req.uid) user.uid = req.uid;
  if (Object.keys(req.extra).length) user.extra = req.extra;
  return user;
}
