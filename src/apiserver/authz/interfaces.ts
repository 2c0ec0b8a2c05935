// The authorizer seam: every resource request is authorised before it is served. RBAC plugs in here later; until
// then winkube runs AlwaysAllow, as `kube-apiserver --authorization-mode=AlwaysAllow` does.

import type { UserInfo } from '../admission/interfaces.js';

/** What is being asked (authorizer.Attributes in k8s.io/apiserver). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

export interface AuthorizationResult {
  decision: 'Allow' | 'Deny' | 'NoOpinion';
  reason?: string;
}

export interface Authorizer {
  readonly name: string;
  authorize(a: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
}

/** The reason text kube-apiserver gives on a 403 (endpoints/handlers/responsewriters forbiddenMessage). */
export function forbiddenReason(a: AuthorizationAttributes, reason = ''): string {
  let msg: string;
  if (!a.isResourceRequest) {
    msg = `User "${a.user.name}" cannot ${a.verb} path "${a.path}"`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    msg = `User "${a.user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.group}"`;
    msg += a.namespace ? ` in the namespace "${a.namespace}"` : ' at the cluster scope';
  }
  return reason ? `${msg}: ${reason}` : msg;
}
