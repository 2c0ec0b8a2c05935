// The ClusterRoleBindings and kube-system Roles kube-apiserver bootstraps (bootstrappolicy/policy.go
// ClusterRoleBindings(), namespace_policy.go; testdata/cluster-role-bindings.yaml, namespace-roles.yaml).

import type { PolicyRule, Subject } from '../rbac/rules.js';
import { CONTROLLER_ROLE_PREFIX, CONTROLLER_ROLES } from './controller-roles.js';
import { r } from './rule-builders.js';

export interface BootstrapBinding {
  name: string;
  namespace?: string;
  roleRef: { kind: 'ClusterRole' | 'Role'; name: string };
  subjects: Subject[];
}

export interface BootstrapRole {
  name: string;
  namespace: string;
  rules: PolicyRule[];
}

const RBAC = 'rbac.authorization.k8s.io';
const group = (name: string): Subject => ({ apiGroup: RBAC, kind: 'Group', name });
const user = (name: string): Subject => ({ apiGroup: RBAC, kind: 'User', name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });
const crb = (name: string, ...subjects: Subject[]): BootstrapBinding => ({ name, roleRef: { kind: 'ClusterRole', name }, subjects });

export const CLUSTER_ROLE_BINDINGS: BootstrapBinding[] = [
  crb('cluster-admin', group('system:masters')),
  crb('system:basic-user', group('system:authenticated')),
  crb('system:discovery', group('system:authenticated')),
  crb('system:public-info-viewer', group('system:authenticated'), group('system:unauthenticated')),
  crb('system:kube-controller-manager', user('system:kube-controller-manager')),
  crb('system:kube-dns', sa('kube-system', 'kube-dns')),
  crb('system:kube-scheduler', user('system:kube-scheduler')),
  crb('system:monitoring', group('system:monitoring')),
  // Bound to no one: the Node authorizer gives kubelets their rights (policy.go keeps the binding for upgrades).
  crb('system:node'),
  crb('system:node-proxier', user('system:kube-proxy')),
  crb('system:service-account-issuer-discovery', group('system:serviceaccounts')),
  crb('system:volume-scheduler', user('system:kube-scheduler')),
  ...Object.keys(CONTROLLER_ROLES).map((c) => crb(`${CONTROLLER_ROLE_PREFIX}${c}`, sa('kube-system', c))),
];

const leaderLocking = (component: string, ...more: PolicyRule[]): BootstrapRole => ({
  name: `system::leader-locking-${component}`, namespace: 'kube-system',
  rules: [r('watch', [''], 'configmaps'), r('get update', [''], 'configmaps', component), ...more],
});
const EVENTS = r('create patch update', ['', 'events.k8s.io'], 'events');

export const NAMESPACE_ROLES: BootstrapRole[] = [
  { name: 'extension-apiserver-authentication-reader', namespace: 'kube-system', rules: [r('get list watch', [''], 'configmaps', 'extension-apiserver-authentication')] },
  // The bootstrap signer reads the token Secrets in kube-system and signs kube-public/cluster-info.
  { name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, namespace: 'kube-system', rules: [r('get list watch', [''], 'secrets')] },
  { name: `${CONTROLLER_ROLE_PREFIX}cloud-provider`, namespace: 'kube-system', rules: [r('create get list watch', [''], 'configmaps')] },
  { name: `${CONTROLLER_ROLE_PREFIX}token-cleaner`, namespace: 'kube-system', rules: [r('delete get list watch', [''], 'secrets'), EVENTS] },
  leaderLocking('kube-controller-manager', r('create get list update watch', ['coordination.k8s.io'], 'leases')),
  leaderLocking('kube-scheduler'),
  {
    name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, namespace: 'kube-public',
    rules: [r('get list watch', [''], 'configmaps'), r('update', [''], 'configmaps', 'cluster-info'), EVENTS],
  },
];

export const NAMESPACE_ROLE_BINDINGS: BootstrapBinding[] = [
  {
    name: 'system::extension-apiserver-authentication-reader', namespace: 'kube-system',
    roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
  {
    name: 'system::leader-locking-kube-controller-manager', namespace: 'kube-system',
    roleRef: { kind: 'Role', name: 'system::leader-locking-kube-controller-manager' },
    subjects: [user('system:kube-controller-manager'), sa('kube-system', 'kube-controller-manager'), sa('kube-system', 'leader-election-controller')],
  },
  {
    name: 'system::leader-locking-kube-scheduler', namespace: 'kube-system',
    roleRef: { kind: 'Role', name: 'system::leader-locking-kube-scheduler' },
    subjects: [user('system:kube-scheduler'), sa('kube-system', 'kube-scheduler')],
  },
  ...['bootstrap-signer', 'cloud-provider', 'token-cleaner'].map((c): BootstrapBinding => ({
    name: `${CONTROLLER_ROLE_PREFIX}${c}`, namespace: 'kube-system',
    roleRef: { kind: 'Role', name: `${CONTROLLER_ROLE_PREFIX}${c}` }, subjects: [sa('kube-system', c)],
  })),
  {
    name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, namespace: 'kube-public',
    roleRef: { kind: 'Role', name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer` }, subjects: [sa('kube-system', 'bootstrap-signer')],
  },
];
