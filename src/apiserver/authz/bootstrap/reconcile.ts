// Puts the bootstrap RBAC policy in place at every start, as kube-apiserver's rbac/bootstrap-roles post-start hook
// does (pkg/registry/rbac/rest/storage_rbac.go, reconciliation/): missing objects are created; existing ones marked
// `rbac.authorization.kubernetes.io/autoupdate: "true"` (or not marked) get back the rules they no longer cover,
// subjects, labels and annotations they lost; nothing is ever removed, and an object set to autoupdate "false" is
// left alone.

import { isAlreadyExists, isConflict, isNotFound } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/types.js';
import type { Client, ResourceType } from '../../../client/interfaces.js';
import { R } from '../../../client/resources.js';
import { deepEqual } from '../../../api/validation/object-meta.js';
import type { PolicyRule, Subject } from '../rbac/rules.js';
import { uncovered } from '../rbac/covers.js';
import { CLUSTER_ROLE_BINDINGS, NAMESPACE_ROLE_BINDINGS, NAMESPACE_ROLES, type BootstrapBinding } from './bindings.js';
import { CLUSTER_ROLES } from './cluster-roles.js';
import { CONTROLLER_ROLE_PREFIX, CONTROLLER_ROLES } from './controller-roles.js';

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
const RBAC_API = 'rbac.authorization.k8s.io/v1';
const AGG = 'rbac.authorization.k8s.io/aggregate-to-';

type RbacObject = KubeObject & { rules?: PolicyRule[] | null; subjects?: Subject[] | null; roleRef?: unknown; aggregationRule?: unknown };

function meta(name: string, namespace: string | undefined, labels: Record<string, string> = {}): KubeObject['metadata'] {
  return {
    name, ...(namespace ? { namespace } : {}),
    labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults', ...labels },
    annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
  };
}

/** Every object of the bootstrap policy, in the order kube-apiserver writes them (roles before their bindings). */
export function bootstrapObjects(): { rt: ResourceType; obj: RbacObject }[] {
  const out: { rt: ResourceType; obj: RbacObject }[] = [];
  for (const role of CLUSTER_ROLES) {
    const obj: RbacObject = { apiVersion: RBAC_API, kind: 'ClusterRole', metadata: meta(role.name, undefined, role.labels), rules: role.rules };
    if (role.aggregateFrom) obj.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [`${AGG}${role.aggregateFrom}`]: 'true' } }] };
    out.push({ rt: R.clusterroles, obj });
  }
  for (const [name, rules] of Object.entries(CONTROLLER_ROLES)) {
    out.push({ rt: R.clusterroles, obj: { apiVersion: RBAC_API, kind: 'ClusterRole', metadata: meta(`${CONTROLLER_ROLE_PREFIX}${name}`, undefined), rules } });
  }
  const binding = (b: BootstrapBinding, kind: string): RbacObject => ({
    apiVersion: RBAC_API, kind, metadata: meta(b.name, b.namespace),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...b.roleRef }, ...(b.subjects.length ? { subjects: b.subjects } : {}),
  });
  for (const b of CLUSTER_ROLE_BINDINGS) out.push({ rt: R.clusterrolebindings, obj: binding(b, 'ClusterRoleBinding') });
  for (const role of NAMESPACE_ROLES) {
    out.push({ rt: R.roles, obj: { apiVersion: RBAC_API, kind: 'Role', metadata: meta(role.name, role.namespace), rules: role.rules } });
  }
  for (const b of NAMESPACE_ROLE_BINDINGS) out.push({ rt: R.rolebindings, obj: binding(b, 'RoleBinding') });
  return out;
}

type Selector = Record<string, unknown>;
const selectorsOf = (o: RbacObject): Selector[] => ((o.aggregationRule as { clusterRoleSelectors?: Selector[] } | undefined)?.clusterRoleSelectors ?? []);

/**
 * What an existing object lacks of the bootstrap one, merged in; undefined when nothing is missing or the object is
 * protected (reconciliation/reconcile_role.go computeReconciledRole, reconcile_rolebindings.go, union mode: nothing
 * is ever removed). Rules are compared by coverage: a role whose rules already cover the bootstrap rules is left
 * alone, and only the uncovered broken-down rules are appended (validation.Covers). A binding whose roleRef changed
 * cannot be updated: `recreate` says it must be deleted and created again.
 */
export function reconcileObject(live: RbacObject, want: RbacObject): { op: 'update' | 'recreate'; object: RbacObject } | undefined {
  if (live.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return undefined;
  const next = structuredClone(live) as RbacObject;
  next.metadata.labels = { ...want.metadata.labels, ...live.metadata.labels };
  next.metadata.annotations = { ...want.metadata.annotations, ...live.metadata.annotations };
  if (want.rules) {
    const missing = uncovered(live.rules ?? [], want.rules);
    if (missing.length) next.rules = [...(live.rules ?? []), ...missing];
  }
  if (want.kind === 'ClusterRole') {
    if (!want.aggregationRule && live.aggregationRule) delete next.aggregationRule;
    else if (want.aggregationRule) {
      const have = selectorsOf(live);
      const missing = selectorsOf(want).filter((w) => !have.some((h) => deepEqual(h, w)));
      if (missing.length) next.aggregationRule = { ...(live.aggregationRule as object | undefined), clusterRoleSelectors: [...have, ...missing] };
    }
  }
  let op: 'update' | 'recreate' = 'update';
  if (want.roleRef && !deepEqual(live.roleRef, want.roleRef)) {
    next.roleRef = want.roleRef;
    op = 'recreate';
  }
  if (want.subjects) {
    const subjects = [...(live.subjects ?? [])];
    // Compared by who they name: the API server defaults apiGroup, so the stored subject may spell more.
    for (const s of want.subjects) if (!subjects.some((x) => x.kind === s.kind && x.name === s.name && (x.namespace ?? '') === (s.namespace ?? ''))) subjects.push(s);
    next.subjects = subjects;
  }
  return deepEqual(next, live) ? undefined : { op, object: next };
}

/** Creates or tops up every bootstrap object; safe to run on every start and against old data. */
export async function reconcileBootstrapPolicy(client: Client): Promise<void> {
  for (const { rt, obj } of bootstrapObjects()) {
    const ns = obj.metadata.namespace;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const live = await client.get<RbacObject>(rt, ns, obj.metadata.name!);
        const next = reconcileObject(live, obj);
        if (next?.op === 'recreate') {
          // ReconcileRecreate: a roleRef cannot change in place, so the binding is deleted and created anew.
          const { resourceVersion: _v, uid: _u, creationTimestamp: _c, managedFields: _m, ...meta } = next.object.metadata;
          await client.delete(rt, ns, obj.metadata.name!);
          await client.create(rt, ns, { ...next.object, metadata: meta });
        } else if (next) await client.update(rt, ns, next.object);
        break;
      } catch (err) {
        if (isNotFound(err)) {
          try {
            await client.create(rt, ns, obj);
            break;
          } catch (e) {
            if (!isAlreadyExists(e)) throw e;
            continue;
          }
        }
        if (isConflict(err)) continue;
        throw err;
      }
    }
  }
}
