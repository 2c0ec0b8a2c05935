// The authorizer seam: every request is authorised before it is served (resource requests and non-resource paths),
// by the union kube-apiserver builds for --authorization-mode (privileged groups, then RBAC).

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
  /** A list or watch's fieldSelector (attributes.GetFieldSelector), which the Node authorizer scopes pods by. */
  fieldSelector?: string;
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

/** authorization.k8s.io/v1 ResourceRule / NonResourceRule, as a SelfSubjectRulesReview lists them. */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface ResolvedRules {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when some rule could not be resolved (a binding to a missing role), as kube sets `incomplete`. */
  incomplete: boolean;
  evaluationError?: string;
}

/** What a user may do in a namespace (authorizer.RuleResolver), for SelfSubjectRulesReview and escalation checks. */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): ResolvedRules;
}
