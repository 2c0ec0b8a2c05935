// Strategies for Roles, ClusterRoles, RoleBindings and ClusterRoleBindings (pkg/registry/rbac/*/strategy.go), with
// the v1 defaults of pkg/apis/rbac/v1/defaults.go.

import type { ClusterRole, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  RBAC_GROUP, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding, validateRoleRefUnchanged,
} from '../validation/rbac.js';
import { as, updateValidator } from './common.js';

/** SetDefaults_RoleBinding / SetDefaults_Subject: the rbac group where it is the only sensible one. */
function defaultBinding(obj: KubeObject): void {
  const b = as<RoleBinding>(obj);
  if (b.roleRef && !b.roleRef.apiGroup) b.roleRef.apiGroup = RBAC_GROUP;
  for (const s of b.subjects ?? []) {
    if (!s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = RBAC_GROUP;
  }
}

const roleRefUnchanged = (obj: KubeObject, old: KubeObject) => validateRoleRefUnchanged(as<RoleBinding>(obj).roleRef, as<RoleBinding>(old).roleRef);

export const roleStrategy = {
  validate: (obj: KubeObject) => validateRole(as<Role>(obj)),
  validateUpdate: updateValidator((obj) => validateRole(as<Role>(obj))),
} satisfies Strategy;

export const clusterRoleStrategy = {
  validate: (obj: KubeObject) => validateClusterRole(as<ClusterRole>(obj)),
  validateUpdate: updateValidator((obj) => validateClusterRole(as<ClusterRole>(obj))),
} satisfies Strategy;

export const roleBindingStrategy = {
  defaults: defaultBinding,
  validate: (obj: KubeObject) => validateRoleBinding(as<RoleBinding>(obj)),
  validateUpdate: updateValidator((obj) => validateRoleBinding(as<RoleBinding>(obj)), roleRefUnchanged),
} satisfies Strategy;

export const clusterRoleBindingStrategy = {
  defaults: defaultBinding,
  validate: (obj: KubeObject) => validateClusterRoleBinding(as<RoleBinding>(obj)),
  validateUpdate: updateValidator((obj) => validateClusterRoleBinding(as<RoleBinding>(obj)), roleRefUnchanged),
} satisfies Strategy;
