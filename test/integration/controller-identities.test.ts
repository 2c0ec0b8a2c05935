// Controller identities, eviction admission and --authorization-mode through an in-process control plane: the
// controllers act as their kube-system ServiceAccounts (a ReplicaSet's managedFields name kube-controller-manager; a
// rule taken from system:controller:replicaset-controller stops it creating pods), pods/eviction CREATE goes through
// validating webhooks, ValidatingAdmissionPolicy and NodeRestriction, and the authorizer chain follows the modes.

import test from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES } from '../../src/api/strategies/index.js';
import type { KubeObject } from '../../src/api/types.js';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import type { Client, ResourceType } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { startComponents } from '../../src/cluster/components.js';
import { ControlPlane } from '../../src/cluster/control-plane.js';
import { RealClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const clock = new RealClock();
const RS_ROLE = 'system:controller:replicaset-controller';
const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';

async function eventually<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const deployment = (replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } },
}) as unknown as KubeObject;

type Managed = { manager: string; operation: string; subresource?: string };
const managers = (o: KubeObject) => ((o.metadata.managedFields ?? []) as Managed[]).map((m) => `${m.manager} ${m.operation}${m.subresource ? ` ${m.subresource}` : ''}`);

test('controllers act as their ServiceAccounts: managedFields, ServiceAccounts, and an RBAC deny that stops one', async () => {
  const t = await startControlPlane(clock);
  const running = await startComponents({
    controlPlane: t.cp, clock, logger: silentLogger, profiles: [], controllers: ['deployment', 'replicaset', 'serviceaccount'],
    run: { controllers: true, scheduler: false, nodes: false },
  });
  try {
    // kube-controller-manager's client builder made the ServiceAccounts it acts as.
    for (const sa of ['deployment-controller', 'replicaset-controller', 'service-account-controller']) await t.client.get(R.serviceaccounts, 'kube-system', sa);
    // The ServiceAccount controller, as itself, made `default` (which the pods below need).
    await eventually(async () => t.client.get(R.serviceaccounts, 'default', 'default').catch(() => undefined), 'default/default');
    await t.client.create(R.deployments, 'default', deployment(2));
    const rs = await eventually(async () => {
      const items = (await t.client.list(R.replicasets, 'default')).items;
      return items.length === 1 && (items[0].status as { replicas?: number } | undefined)?.replicas === 2 && items[0];
    }, 'a ReplicaSet with 2 replicas');
    // The deployment controller's create and the ReplicaSet controller's status writes, named after their User-Agent.
    assert.deepEqual(managers(rs), ['kube-controller-manager Update', 'kube-controller-manager Update status']);
    // Pods are the hot path: created untracked unless a field manager is named.
    const pods = (await t.client.list(R.pods, 'default')).items;
    assert.equal(pods.length, 2);
    assert.deepEqual(pods.map((p) => p.metadata.managedFields), [undefined, undefined]);

    // Take `create` on pods away from the ReplicaSet controller's role: a scale-up is refused with kube's 403.
    const role = await t.client.get(R.clusterroles, undefined, RS_ROLE) as KubeObject & { rules: { resources?: string[]; verbs: string[] }[] };
    const original = structuredClone(role.rules);
    role.rules = role.rules.map((r) => (r.resources?.includes('pods') ? { ...r, verbs: r.verbs.filter((v) => v !== 'create') } : r));
    await t.client.update(R.clusterroles, undefined, role);
    const attrs = { user: { name: RS_USER, groups: ['system:serviceaccounts', 'system:authenticated'] }, verb: 'create', isResourceRequest: true, group: '', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '' };
    await eventually(async () => (await t.cp.authorization.authorizer.authorize(attrs)).decision === 'NoOpinion', 'the RBAC index to drop the rule');
    await t.client.patch(R.deployments, 'default', 'web', 'merge', { spec: { replicas: 3 } });
    const failed = await eventually(async () => (await t.client.list(R.events, 'default')).items
      .find((e) => (e as { reason?: string }).reason === 'FailedCreate'), 'a FailedCreate event');
    assert.match((failed as unknown as { message: string }).message,
      // kube's authorization filter names no object on a create (the pod's name is generated later).
      new RegExp(`^Error creating: pods is forbidden: User "${RS_USER}" cannot create resource "pods" in API group "" in the namespace "default"$`));
    assert.equal((await t.client.list(R.pods, 'default')).items.length, 2);

    // Give it back (the bootstrap reconciler would at the next start): the controller catches up.
    const live = await t.client.get(R.clusterroles, undefined, RS_ROLE) as KubeObject & { rules: unknown[] };
    await t.client.update(R.clusterroles, undefined, { ...live, rules: original });
    await eventually(async () => (await t.client.list(R.pods, 'default')).items.length === 3, '3 pods once the rule is back');
  } finally {
    await running.stop();
    await t.stop();
  }
});

const VWC: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const VAP: ResourceType = { ...VWC, resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy' };
const VAPB: ResourceType = { ...VWC, resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding' };
const EVICTION_RULE = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }];

const pod = (name: string, nodeName: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx:1.25' }] },
}) as unknown as KubeObject;
const evict = (t: TestControlPlane, name: string, client: Client = t.client) => client.transport.request({
  method: 'POST', path: `/api/v1/namespaces/default/pods/${name}/eviction`, contentType: 'application/json',
  body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
});

test('pods/eviction goes through admission: webhooks, ValidatingAdmissionPolicy and NodeRestriction', async () => {
  const t = await startControlPlane(clock);
  const reviews: Record<string, unknown>[] = [];
  const server = await startWebhookServer((review) => {
    reviews.push(review.request);
    const obj = review.request.object as { metadata?: { name?: string } };
    return obj.metadata?.name === 'held' ? { allowed: false, status: { message: 'evictions of held pods are paused' } } : { allowed: true };
  });
  try {
    await t.client.create(R.serviceaccounts, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    for (const p of [pod('held', 'n1'), pod('guarded', 'n1', { guard: 'yes' }), pod('free', 'n1'), pod('theirs', 'n2'), pod('mine', 'n1')]) await t.client.create(R.pods, 'default', p);
    await t.client.create(VWC, undefined, { metadata: { name: 'evictions' }, webhooks: [{
      name: 'evictions.winkube.example.com', clientConfig: { url: server.url('/'), caBundle: server.caBundle }, rules: EVICTION_RULE,
      sideEffects: 'None', admissionReviewVersions: ['v1'],
    }] } as unknown as KubeObject);
    // A policy on the same subresource: `object` is the Eviction, the pod's labels come through `oldObject`'s absence,
    // so it names the pod it protects.
    await t.client.create(VAP, undefined, { metadata: { name: 'guard' }, spec: {
      matchConstraints: { resourceRules: EVICTION_RULE },
      validations: [{ expression: "object.metadata.name != 'guarded'", message: 'guarded pods stay' }],
    } } as unknown as KubeObject);
    await t.client.create(VAPB, undefined, { metadata: { name: 'guard' }, spec: { policyName: 'guard', validationActions: ['Deny'] } } as unknown as KubeObject);

    const held = await evict(t, 'held');
    assert.equal(held.status, 400);
    assert.equal((held.body as { message: string }).message, 'admission webhook "evictions.winkube.example.com" denied the request: evictions of held pods are paused');
    const review = reviews.find((r) => r.name === 'held')!;
    assert.deepEqual([review.kind, review.resource, review.subResource, review.operation, (review.object as { kind: string }).kind],
      [{ group: 'policy', version: 'v1', kind: 'Eviction' }, { group: '', version: 'v1', resource: 'pods' }, 'eviction', 'CREATE', 'Eviction']);
    await t.client.get(R.pods, 'default', 'held');

    const guarded = await raw(t, { method: 'POST', path: '/api/v1/namespaces/default/pods/guarded/eviction', contentType: 'application/json', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'guarded' } } });
    assert.equal(guarded.status, 422);
    assert.equal(guarded.body.message, 'pods "guarded" is forbidden: ValidatingAdmissionPolicy \'guard\' with binding \'guard\' denied request: guarded pods stay');

    assert.equal((await evict(t, 'free')).status, 201);

    // NodeRestriction: a kubelet evicts only pods bound to it (the Node authorizer lets it create pods/eviction).
    const n1 = t.cp.client({ name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] });
    const theirs = await evict(t, 'theirs', n1);
    assert.equal(theirs.status, 403);
    assert.equal((theirs.body as { message: string }).message, 'pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself');
    assert.equal((await evict(t, 'mine', n1)).status, 201);
  } finally {
    await server.close();
    await t.stop();
  }
});

test('--authorization-mode: AlwaysDeny leaves only system:masters, AlwaysAllow lets anyone in', async () => {
  const user = { name: 'alice', groups: ['system:authenticated'] };
  for (const [modes, status, message] of [
    [['AlwaysDeny'], 403, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default": Everything is forbidden.'],
    [['AlwaysAllow'], 200, undefined],
    [['Node', 'RBAC'], 403, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"'],
  ] as const) {
    const cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES, authorizationModes: modes });
    await cp.start();
    try {
      const res = await cp.client(user).transport.request({ method: 'GET', path: '/api/v1/namespaces/default/pods' });
      assert.equal(res.status, status, modes.join(','));
      if (message) assert.equal((res.body as { message: string }).message, message, modes.join(','));
      assert.equal((await cp.client().transport.request({ method: 'GET', path: '/api/v1/namespaces/default/pods' })).status, 200);
    } finally {
      await cp.stop();
    }
  }
});
