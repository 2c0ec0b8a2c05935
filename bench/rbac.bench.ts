// RBAC authorization cost per request (issue 10: ≤ 20 µs with 1,000 bindings). The authorizer union winkube runs
// (system:masters, then RBAC over the subject index) decides a mix of requests against the bootstrap policy plus
// 1,000 RoleBindings and 1,000 Roles spread over 50 namespaces, 200 users and 20 groups: allowed reads, a denied
// write, a group-granted read, a cluster-wide discovery path and an anonymous /healthz.
// Run: npx tsc -p . && node dist/bench/rbac.bench.js   (table, then one JSON line; BENCH_RBAC_BINDINGS, BENCH_RBAC_ITERATIONS)

import { Authorization } from '../src/apiserver/authz/index.js';
import { bootstrapObjects } from '../src/apiserver/authz/bootstrap/reconcile.js';
import type { AuthorizationAttributes } from '../src/apiserver/authz/interfaces.js';
import type { BindingObject, RoleObject } from '../src/apiserver/authz/rbac/policy-index.js';
import { RealClock } from '../src/util/clock.js';
import { silentLogger } from '../src/util/log.js';

const BINDINGS = Number(process.env.BENCH_RBAC_BINDINGS ?? 1000);
const ITERATIONS = Number(process.env.BENCH_RBAC_ITERATIONS ?? 200_000);
const NAMESPACES = 50;
const USERS = 200;
const GROUPS = 20;

const authz = new Authorization({ clock: new RealClock(), logger: silentLogger });
const policy = authz.policy;
for (const { rt, obj } of bootstrapObjects()) {
  if (rt.resource === 'clusterroles') policy.setClusterRole(obj as unknown as RoleObject);
  else if (rt.resource === 'clusterrolebindings') policy.setClusterRoleBinding(obj as unknown as BindingObject);
  else if (rt.resource === 'roles') policy.setRole(obj as unknown as RoleObject);
  else policy.setRoleBinding(obj as unknown as BindingObject);
}
for (let i = 0; i < BINDINGS; i++) {
  const namespace = `ns-${i % NAMESPACES}`;
  policy.setRole({ metadata: { name: `role-${i}`, namespace }, rules: [
    { apiGroups: [''], resources: ['pods', 'pods/log', 'configmaps'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'], resourceNames: [`app-${i}`] },
  ] });
  const subject = i % 5 === 0 ? { kind: 'Group', name: `group-${i % GROUPS}` } : { kind: 'User', name: `user-${i % USERS}` };
  policy.setRoleBinding({ metadata: { name: `rb-${i}`, namespace }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `role-${i}` }, subjects: [subject] });
}

const base = { isResourceRequest: true, group: '', subresource: '', name: '', path: '' };
const REQUESTS: { what: string; attrs: AuthorizationAttributes }[] = [
  { what: 'allowed list pods', attrs: { ...base, user: { name: 'user-1', groups: ['system:authenticated'] }, verb: 'list', resource: 'pods', namespace: 'ns-1' } },
  { what: 'allowed get pods/log', attrs: { ...base, user: { name: 'user-7', groups: ['system:authenticated'] }, verb: 'get', resource: 'pods', subresource: 'log', namespace: 'ns-7', name: 'p' } },
  { what: 'denied delete pods', attrs: { ...base, user: { name: 'user-1', groups: ['system:authenticated'] }, verb: 'delete', resource: 'pods', namespace: 'ns-1', name: 'p' } },
  { what: 'group-granted get', attrs: { ...base, user: { name: 'someone', groups: ['group-0', 'system:authenticated'] }, verb: 'get', resource: 'configmaps', namespace: 'ns-0', name: 'c' } },
  { what: 'discovery path', attrs: { ...base, isResourceRequest: false, user: { name: 'user-3', groups: ['system:authenticated'] }, verb: 'get', resource: '', namespace: '', path: '/apis/apps/v1' } },
  // A controller as its ServiceAccount (kube-controller-manager --use-service-account-credentials), through its bootstrap
  // ClusterRoleBinding: what every in-process controller write now costs instead of the system:masters short cut.
  { what: 'controller SA create', attrs: { ...base, user: { name: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }, verb: 'create', resource: 'pods', namespace: 'ns-1' } },
  { what: 'anonymous /healthz', attrs: { ...base, isResourceRequest: false, user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, verb: 'get', resource: '', namespace: '', path: '/healthz' } },
];

function measure(attrs: AuthorizationAttributes, n: number): number {
  const a = authz.authorizer;
  for (let i = 0; i < Math.min(n, 10_000); i++) void a.authorize(attrs);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) void a.authorize(attrs);
  return Number(process.hrtime.bigint() - t0) / 1000 / n;
}

const rows = REQUESTS.map((r) => ({ what: r.what, us: measure(r.attrs, ITERATIONS) }));
// The RBAC authorizer remembers decisions while the policy stands; a name never asked before is always a miss.
{
  const a = authz.authorizer;
  const attrs = REQUESTS[0].attrs;
  const n = Math.min(ITERATIONS, 50_000);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) void a.authorize({ ...attrs, verb: 'get', name: `p-${i}` });
  rows.push({ what: 'uncached (new name)', us: Number(process.hrtime.bigint() - t0) / 1000 / n });
}
const worst = Math.max(...rows.map((r) => r.us));
const size = policy.size;
console.log(`RBAC authorization (union: system:masters, RBAC) with ${size.roleBindings} RoleBindings, ${size.clusterRoleBindings} ClusterRoleBindings, ${size.roles + size.clusterRoles} roles; ${ITERATIONS.toLocaleString('en-US')} decisions each`);
for (const r of rows) console.log(`  ${r.what.padEnd(22)} ${r.us.toFixed(2).padStart(7)} µs/decision`);
console.log(`  worst ${worst.toFixed(2)} µs (target ≤ 20 µs)`);
console.log(JSON.stringify({ bench: 'rbac', bindings: size.roleBindings + size.clusterRoleBindings, worstUs: +worst.toFixed(3), perRequestUs: Object.fromEntries(rows.map((r) => [r.what, +r.us.toFixed(3)])) }));
