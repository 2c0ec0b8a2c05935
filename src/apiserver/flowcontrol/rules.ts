// Whether a request matches a FlowSchema, and the flow it belongs to, as kube-apiserver decides
// (k8s.io/apiserver pkg/util/flowcontrol/rule.go and apf_controller.go computeFlowDistinguisher/hashFlowID).

import { createHash } from 'node:crypto';
import type { FlowSchema, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from 'kubernetes-types/flowcontrol/v1.js';
import type { UserInfo } from '../admission/interfaces.js';

/** What classification reads of a request: kube's RequestDigest (RequestInfo + user). */
export interface RequestDigest {
  user: UserInfo;
  isResourceRequest: boolean;
  verb: string;
  /** Resource requests. */
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  /** Non-resource requests. */
  path: string;
}

const SA_PREFIX = 'system:serviceaccount:';

export function matchesFlowSchema(rd: RequestDigest, fs: FlowSchema): boolean {
  for (const rule of fs.spec?.rules ?? []) if (matchesPolicyRule(rd, rule)) return true;
  return false;
}

function matchesPolicyRule(rd: RequestDigest, rule: PolicyRulesWithSubjects): boolean {
  if (!rule.subjects.some((s) => matchesSubject(rd.user, s))) return false;
  if (rd.isResourceRequest) return (rule.resourceRules ?? []).some((r) => matchesResourceRule(rd, r));
  return (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(rd, r));
}

export function matchesSubject(user: UserInfo, subject: Subject): boolean {
  switch (subject.kind) {
    case 'User':
      return !!subject.user && (subject.user.name === '*' || subject.user.name === user.name);
    case 'Group':
      if (!subject.group) return false;
      return subject.group.name === '*' || user.groups.includes(subject.group.name);
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) return false;
      // `*` names every ServiceAccount of the namespace: the username's namespace part must be exactly it.
      if (sa.name === '*') return user.name.startsWith(`${SA_PREFIX}${sa.namespace}:`);
      return user.name === `${SA_PREFIX}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

function matchesResourceRule(rd: RequestDigest, rule: ResourcePolicyRule): boolean {
  if (!containsOrAll(rd.verb, rule.verbs, '*')) return false;
  const resource = rd.subresource ? `${rd.resource}/${rd.subresource}` : rd.resource;
  if (!containsOrAll(resource, rule.resources, '*')) return false;
  if (!containsOrAll(rd.apiGroup, rule.apiGroups, '*')) return false;
  if (!rd.namespace) return rule.clusterScope === true;
  return containsOrAll(rd.namespace, rule.namespaces ?? [], '*');
}

function matchesNonResourceRule(rd: RequestDigest, rule: NonResourcePolicyRule): boolean {
  if (!containsOrAll(rd.verb, rule.verbs, '*')) return false;
  for (const url of rule.nonResourceURLs) {
    if (url === '*' || url === rd.path) return true;
    // A rule path covers the paths under it: "/apis/*" and "/healthz" both as a prefix ending in "/".
    let prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    if (!prefix.endsWith('/')) prefix += '/';
    if (rd.path.startsWith(prefix)) return true;
  }
  return false;
}

/** kube's containsString: the wildcard counts only as the list's sole member (validation keeps it so). */
function containsOrAll(x: string, list: readonly string[], wildcard: string): boolean {
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(x);
}

/** The flow within a FlowSchema: the user's name (ByUser), the namespace (ByNamespace) or one flow for all. */
export function flowDistinguisher(rd: RequestDigest, fs: FlowSchema): string {
  switch (fs.spec?.distinguisherMethod?.type) {
    case 'ByUser': return rd.user.name;
    case 'ByNamespace': return rd.namespace;
    default: return '';
  }
}

/** hashFlowID: the first 8 bytes, little-endian, of sha256(schema name, NUL, distinguisher). */
export function hashFlowID(fsName: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(fsName).update(Buffer.of(0)).update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}
