// The values admission expressions see — object, oldObject, request, namespaceObject, params, authorizer —
// bound as kube binds them (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/
// compile.go BuildRequestType, mustBuildEnvs; activation.go; filter CreateAdmissionRequest, CreateNamespaceObject).

import { CelAuthorizer, CelResourceCheck, type AuthzCheckAttributes, type AuthzDecisionValue } from '../../../api/cel/library-authz.js';
import { toCel } from '../../../api/cel/values.js';
import type { KubeObject } from '../../../api/types.js';
import type { Authorizer } from '../../authz/interfaces.js';
import type { AdmissionAttributes, UserInfo } from '../interfaces.js';
import { requestKind, requestNamespace, type Invocation } from '../webhook/review.js';

/** CreateAdmissionRequest: the request as the expression sees it, for the matched resource and kind. */
export function admissionRequest(a: AdmissionAttributes, inv: Invocation): Record<string, unknown> {
  const d = a.decl;
  const name = a.name || a.object?.metadata.name || '';
  return {
    kind: inv.kind, resource: inv.resource, subResource: inv.subresource,
    requestKind: requestKind(a),
    requestResource: { group: d.group, version: d.version, resource: d.plural },
    requestSubResource: a.subresource, name, namespace: requestNamespace(a), operation: a.operation,
    userInfo: { username: a.user.name, uid: a.user.uid ?? '', groups: a.user.groups, extra: a.user.extra ?? {} },
    dryRun: a.dryRun,
    options: null,
  };
}

/** CreateNamespaceObject: only metadata (no managedFields/ownerReferences), spec and status of the namespace. */
export function namespaceObject(ns: KubeObject | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const m = ns.metadata;
  const meta: Record<string, unknown> = {};
  for (const k of ['name', 'generateName', 'namespace', 'labels', 'annotations', 'uid', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'generation', 'resourceVersion'] as const) {
    if (m[k] !== undefined) meta[k === 'uid' ? 'UID' : k] = m[k];
  }
  return { metadata: meta, spec: (ns as { spec?: unknown }).spec ?? {}, status: (ns as { status?: unknown }).status ?? {} };
}

function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { name: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'] };
}

/** The `authorizer` value: checks for the request's user (or a named ServiceAccount) against the API server's authorizer. */
export function authorizerValue(authz: Authorizer, a: AdmissionAttributes, inv: Invocation): CelAuthorizer {
  const check = async (c: AuthzCheckAttributes): Promise<AuthzDecisionValue> => {
    const user = c.serviceAccount ? serviceAccountUser(c.serviceAccount.namespace, c.serviceAccount.name) : a.user;
    try {
      const r = await authz.authorize({
        user, verb: c.verb, isResourceRequest: c.isResourceRequest, group: c.group, resource: c.resource,
        subresource: c.subresource, namespace: c.namespace, name: c.name, path: c.path ?? '',
      });
      return { decision: r.decision, reason: r.reason ?? '' };
    } catch (err) {
      return { decision: 'NoOpinion', reason: '', error: (err as Error).message };
    }
  };
  const out = new CelAuthorizer(check);
  out.requestResource = new CelResourceCheck(out, inv.resource.group, inv.resource.resource, inv.subresource, requestNamespace(a), a.name || a.object?.metadata.name || '');
  return out;
}

export interface Activation {
  object: unknown;
  oldObject: unknown;
  request: unknown;
  namespaceObject: unknown;
  params?: unknown;
  authorizer?: CelAuthorizer;
  variables?: unknown;
}

/** The bound values: a DELETE has no object, a CREATE no oldObject (both null, as kube binds them). */
export function activation(a: AdmissionAttributes, inv: Invocation, extra: { namespace?: KubeObject; params?: KubeObject | null; authorizer?: Authorizer }): Activation {
  const out: Activation = {
    object: a.operation === 'DELETE' ? null : toCel(a.object ?? null),
    oldObject: a.operation === 'CREATE' ? null : toCel(a.oldObject ?? null),
    request: toCel(admissionRequest(a, inv)),
    namespaceObject: toCel(namespaceObject(extra.namespace)),
  };
  if (extra.params !== undefined) out.params = toCel(extra.params);
  if (extra.authorizer) out.authorizer = authorizerValue(extra.authorizer, a, inv);
  return out;
}
