// Table printing for RBAC RoleBindings and ClusterRoleBindings (Roles and ClusterRoles use the default table).

import type { RoleBinding, Subject } from 'kubernetes-types/rbac/v1.js';
import type { TableCell, TableDef } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { translateTimestampSince } from './duration.js';

/** pkg/apis/rbac/helpers.go SubjectsStrings: users, groups and `namespace/name` service accounts. */
export function subjectsStrings(subjects: Subject[] | undefined): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

/** printers.go printRoleBinding / printClusterRoleBinding (same shape for both). */
function bindingRow(obj: KubeObject, now: number): TableCell[] {
  const b = obj as unknown as RoleBinding;
  return [
    b.metadata?.name ?? '',
    `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
    translateTimestampSince(b.metadata?.creationTimestamp, now),
    ...subjectsStrings(b.subjects),
  ];
}

function bindingTable(what: string): TableDef {
  return {
    columns: [
      NAME_COLUMN,
      column('Role', 'string', 'The role the binding grants, as Kind/name.'),
      AGE_COLUMN,
      column('Users', 'string', `Users in the ${what}`, true),
      column('Groups', 'string', `Groups in the ${what}`, true),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, true),
    ],
    row: bindingRow,
  };
}

export const ROLE_BINDING_TABLE = bindingTable('roleBinding');
export const CLUSTER_ROLE_BINDING_TABLE = bindingTable('clusterRoleBinding');
