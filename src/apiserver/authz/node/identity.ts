// Which node a user is (pkg/auth/nodeidentifier/default.go NodeIdentity): a `system:node:<name>` user in the
// system:nodes group. The Node authorizer and the NodeRestriction admission plugin both ask it.

import type { UserInfo } from '../../admission/interfaces.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

/** `{ isNode, nodeName }`; nodeName is '' for the bare `system:node:` user, which both plugins refuse. */
export function nodeIdentity(user: UserInfo): { isNode: boolean; nodeName: string } {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.name.slice(NODE_USER_PREFIX.length) };
}

/** The user a kubelet authenticates as (its client certificate's CN and O). */
export function nodeUser(nodeName: string): UserInfo {
  return { name: `${NODE_USER_PREFIX}${nodeName}`, groups: [NODES_GROUP, 'system:authenticated'] };
}
