// RBAC escalation prevention: a user may write a Role or ClusterRole only with rules they already hold (or the
// `escalate` verb on it), and a binding only to a role whose rules they hold (or the `bind` verb on it). Kube does
// this in the rbac registry's policy-based storage (pkg/registry/rbac/{role,clusterrole,rolebinding,
// clusterrolebinding}/policybased/storage.go, pkg/registry/rbac/escalation_check.go); here only admission sees the
// request's user, so it runs first in the validating phase, with kube's messages.

import { StatusError } from '../../../api/errors.js';
import type { AdmissionAttributes, AdmissionPlugin, UserInfo } from '../../admission/interfaces.js';
import type { Authorizer } from '../interfaces.js';
import type { RbacAuthorizer } from './authorizer.js';
import { describeMissing, uncovered } from './covers.js';
import type { PolicyRule, RoleRef } from './rules.js';

export const NAME = 'RBACEscalationPrevention';
const GROUP = 'rbac.authorization.k8s.io';
const FULL_AUTHORITY: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

export interface EscalationCheckConfig {
  /** The whole authorizer chain: asked about `escalate` and `bind`. */
  authorizer: Authorizer;
  /** Whose rules a user holds (the RBAC part only, as kube's rule resolver). */
  rbac: RbacAuthorizer;
}

/** escalation_check.go EscalationAllowed: system:masters always may (the API server's own loopback identity). */
function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes('system:masters');
}

/** The rules of `user` do not cover `rules`: kube's ConfirmNoEscalation text, else undefined. */
export function escalationError(rbac: RbacAuthorizer, user: UserInfo, namespace: string, rules: PolicyRule[]): string | undefined {
  const owner = rbac.policyRules(user, namespace);
  const missing = uncovered(owner.rules, rules);
  if (!missing.length) return undefined;
  let msg = `user ${JSON.stringify(user.name)} (groups=[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]) is attempting to grant RBAC permissions not currently held:\n${describeMissing(missing)}`;
  if (owner.errors.length) msg += `; resolution errors: [${owner.errors.join(' ')}]`;
  return msg;
}

/** IsOnlyMutatingGCFields: a write that touches only ownerReferences or finalizers (the garbage collector's). */
function onlyGcFields(obj: Record<string, unknown>, old: Record<string, unknown> | undefined): boolean {
  if (!old) return false;
  const strip = (o: Record<string, unknown>) => {
    const m = { ...(o.metadata as Record<string, unknown>) };
    for (const k of ['ownerReferences', 'finalizers', 'resourceVersion', 'managedFields', 'generation']) delete m[k];
    return JSON.stringify({ ...o, metadata: m });
  };
  return strip(obj) === strip(old);
}

export function rbacEscalationCheck(cfg: EscalationCheckConfig): AdmissionPlugin {
  const may = async (user: UserInfo, verb: string, resource: string, namespace: string, name: string) =>
    (await cfg.authorizer.authorize({ user, verb, isResourceRequest: true, group: GROUP, resource, subresource: '', namespace, name, path: '' })).decision === 'Allow';

  return {
    name: NAME,
    async validate(a: AdmissionAttributes) {
      if (a.decl.group !== GROUP || a.subresource || !a.object || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
      if (escalationAllowed(a.user)) return;
      const obj = a.object as unknown as Record<string, unknown>;
      if (a.operation === 'UPDATE' && onlyGcFields(obj, a.oldObject as unknown as Record<string, unknown> | undefined)) return;
      const plural = a.decl.plural;
      const namespace = a.decl.namespaced ? a.namespace : '';
      const name = a.name || a.object.metadata.name || '';
      if (plural === 'roles' || plural === 'clusterroles') {
        const agg = obj.aggregationRule;
        const oldAgg = (a.oldObject as unknown as Record<string, unknown> | undefined)?.aggregationRule;
        if (plural === 'clusterroles' && agg && JSON.stringify(agg) !== JSON.stringify(oldAgg) && escalationError(cfg.rbac, a.user, '', FULL_AUTHORITY)) {
          throw StatusError.forbidden(GROUP, plural, '', 'must have cluster-admin privileges to use the aggregationRule');
        }
        if (await may(a.user, 'escalate', plural, namespace, name)) return;
        const err = escalationError(cfg.rbac, a.user, namespace, (obj.rules as PolicyRule[] | undefined) ?? []);
        if (err) throw StatusError.forbidden(GROUP, plural, name, err);
        return;
      }
      if (plural !== 'rolebindings' && plural !== 'clusterrolebindings') return;
      const ref = obj.roleRef as RoleRef | undefined;
      if (!ref) return;
      const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
      if (await may(a.user, 'bind', refResource, namespace, ref.name)) return;
      const rules = cfg.rbac.policy.roleRefRules(ref, namespace);
      // The registry's own rule resolver reads roles through their storage: its NotFound names the plural resource.
      if (typeof rules === 'string') throw StatusError.notFound(GROUP, refResource, ref.name);
      const err = escalationError(cfg.rbac, a.user, namespace, rules);
      if (err) throw StatusError.forbidden(GROUP, plural, name, err);
    },
  };
}
