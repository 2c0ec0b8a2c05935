// Controller identities: every controller that acts as a ServiceAccount has a role bound to it in the bootstrap policy
// (bootstrappolicy/controller_policy.go, namespace_policy.go) or, for the emulated add-ons, in component-rbac; the
// manager gives each controller its own client and creates the ServiceAccounts first.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLUSTER_ROLE_BINDINGS, NAMESPACE_ROLE_BINDINGS } from '../apiserver/authz/bootstrap/bindings.js';
import type { KubeObject } from '../api/types.js';
import type { Client, ResourceType } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { ensureComponentRbac } from '../cluster/component-rbac.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { controllerUserAgent, inProcessClientBuilder, serviceAccountUser, type ComponentUser } from './identity.js';
import { ControllerManager, defaultRegistry } from './manager.js';
import { FakeClient } from './testing/fake-client.js';

/** The kube-system ServiceAccounts some binding names, from the bootstrap policy and winkube's component RBAC. */
async function boundServiceAccounts(): Promise<Set<string>> {
  const out = new Set<string>();
  const subjects = [...CLUSTER_ROLE_BINDINGS, ...NAMESPACE_ROLE_BINDINGS].flatMap((b) => b.subjects);
  const written: KubeObject[] = [];
  await ensureComponentRbac({
    create: async (rt: ResourceType, _ns: string | undefined, obj: KubeObject) => { if (rt === R.clusterrolebindings) written.push(obj); return obj; },
    delete: async () => ({}),
  } as unknown as Client);
  for (const b of written) subjects.push(...((b as { subjects?: typeof subjects }).subjects ?? []));
  for (const s of subjects) if (s.kind === 'ServiceAccount' && s.namespace === 'kube-system') out.add(s.name);
  return out;
}

describe('controller identities', () => {
  it('every ServiceAccount a controller acts as is bound to a role', async () => {
    const bound = await boundServiceAccounts();
    const unbound = defaultRegistry().all.filter((d) => d.serviceAccount && !bound.has(d.serviceAccount)).map((d) => `${d.name}=${d.serviceAccount}`);
    assert.deepEqual(unbound, []);
    // kube's rootClientBuilder users: the tokens controller acts with the manager's own credentials.
    assert.deepEqual(defaultRegistry().all.filter((d) => !d.serviceAccount).map((d) => d.name), ['serviceaccount-token-controller']);
  });

  it('ServiceAccount users and the User-Agent kube-controller-manager sends', () => {
    assert.deepEqual(serviceAccountUser('job-controller'), {
      name: 'system:serviceaccount:kube-system:job-controller',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    });
    const ua = controllerUserAgent('job-controller');
    assert.match(ua, /^kube-controller-manager\/v\d+\.\d+\.\d+ \([a-z0-9]+\/[a-z0-9]+\) kubernetes\/[0-9a-f]+\/job-controller$/);
    // The API server names the field manager after what precedes the first slash.
    assert.equal(ua.split('/')[0], 'kube-controller-manager');
  });

  it('the manager gives each controller its ServiceAccount\'s client and creates the ServiceAccounts at start', async () => {
    const clock = new FakeClock();
    const own = new FakeClient(clock);
    const asked: ComponentUser[] = [];
    const clients = inProcessClientBuilder((user) => {
      asked.push(user);
      return user.name === 'system:kube-controller-manager' ? own : new FakeClient(clock);
    });
    const m = new ControllerManager({ client: clients.own, clients, clock, logger: silentLogger, controllers: ['deployment', 'replicaset', 'replicationcontroller', 'serviceaccount-token'] });
    assert.deepEqual(m.serviceAccounts, ['deployment-controller', 'replicaset-controller', 'replication-controller']);
    assert.deepEqual(asked.map((u) => u.name), ['system:kube-controller-manager', ...m.serviceAccounts.map((n) => serviceAccountUser(n).name)]);
    // Asked twice, one client.
    assert.equal(clients.forServiceAccount('replicaset-controller'), clients.forServiceAccount('replicaset-controller'));
    await m.start();
    m.stop();
    assert.deepEqual(own.all(R.serviceaccounts, 'kube-system').map((s) => s.metadata.name).sort(), m.serviceAccounts);
  });
});
