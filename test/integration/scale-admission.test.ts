// Admission of the scale subresource against an in-process control plane and a real HTTPS webhook on 127.0.0.1:
// webhooks and ValidatingAdmissionPolicies see an autoscaling/v1 Scale (old Scale too) on <resource>/scale, a mutating
// webhook's patch to the Scale is what lands in spec.replicas, and a denial leaves the parent alone
// (pkg/registry/apps/deployment/storage/storage.go ScaleREST.Update, scaleUpdatedObjectInfo, toScaleUpdateValidation).
// A webhook registered for another version of a custom resource's scale subresource is called with matchPolicy
// Equivalent, its kind still autoscaling/v1 Scale and the object unconverted (generic/webhook.go ShouldCallHook with
// the EquivalentResourceMapper's KindFor of the subresource; NewVersionedAttributes converts only across kinds).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceType } from '../../src/client/interfaces.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const mwc: ResourceType = { ...vwc, resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration' };
const SCALE = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

type Scale = { kind?: string; apiVersion?: string; metadata: { name?: string; namespace?: string; uid?: string }; spec?: { replicas?: number }; status?: { replicas?: number; selector?: string } };
type Request = Record<string, unknown> & { object: Scale; oldObject: Scale | null; kind: unknown; resource: unknown };

let t: TestControlPlane;
let server: TestWebhookServer;

const labels = { app: 'web' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
/** The scalable built-in resources, each created with one replica. */
const PARENTS = [
  { group: 'apps', resource: 'deployments', path: '/apis/apps/v1/namespaces/default/deployments', body: { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1, selector: { matchLabels: labels }, template } } },
  { group: 'apps', resource: 'replicasets', path: '/apis/apps/v1/namespaces/default/replicasets', body: { apiVersion: 'apps/v1', kind: 'ReplicaSet', spec: { replicas: 1, selector: { matchLabels: labels }, template } } },
  { group: 'apps', resource: 'statefulsets', path: '/apis/apps/v1/namespaces/default/statefulsets', body: { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { replicas: 1, serviceName: 'web', selector: { matchLabels: labels }, template } } },
  { group: '', resource: 'replicationcontrollers', path: '/api/v1/namespaces/default/replicationcontrollers', body: { apiVersion: 'v1', kind: 'ReplicationController', spec: { replicas: 1, selector: labels, template } } },
];

const jsonPatch = (ops: unknown[]) => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

before(async () => {
  t = await startControlPlane();
  server = await startWebhookServer((review, path) => {
    const obj = review.request.object as Scale;
    const replicas = obj.spec?.replicas ?? 0;
    // The mutating webhook caps every scale at 3 replicas.
    if (path === '/mutate') return replicas > 3 ? jsonPatch([{ op: 'replace', path: '/spec/replicas', value: 3 }]) : { allowed: true };
    // The validating webhook refuses 0 replicas (the mutation caps 7 at 3, so 0 is the one that reaches it).
    if (path === '/validate') return replicas === 0 ? { allowed: false, status: { message: 'scaling to zero is not allowed' } } : { allowed: true };
    return { allowed: true };
  });
  const hook = (name: string, path: string, rules: unknown[], matchPolicy = 'Equivalent') => ({
    name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, rules, matchPolicy, sideEffects: 'None', admissionReviewVersions: ['v1'],
  });
  const builtins = [{ operations: ['UPDATE'], apiGroups: ['apps', ''], apiVersions: ['v1'], resources: ['deployments/scale', 'replicasets/scale', 'statefulsets/scale', 'replicationcontrollers/scale'] }];
  // Registered for v1 of the custom resource only; requests come through v2.
  const widgets = (version: string) => [{ operations: ['UPDATE'], apiGroups: ['stable.example.com'], apiVersions: [version], resources: ['widgets/scale'] }];
  await t.client.create(mwc, undefined, { metadata: { name: 'cap' }, webhooks: [hook('cap.example.com', '/mutate', builtins)] });
  await t.client.create(vwc, undefined, {
    metadata: { name: 'no-zero' },
    webhooks: [
      hook('no-zero.example.com', '/validate', builtins),
      hook('widgets-v1.example.com', '/widgets', widgets('v1')),
      hook('widgets-v1-exact.example.com', '/widgets-exact', widgets('v1'), 'Exact'),
    ],
  });
});

after(async () => {
  await server?.close();
  await t?.stop();
});

const put = (path: string, body: unknown) => raw(t, { method: 'PUT', path, body, contentType: 'application/json' });
const merge = (path: string, body: unknown) => raw(t, { method: 'PATCH', path, body, contentType: 'application/merge-patch+json' });
const seen = (path: string, resource: string) => server.requests.filter((r) => r.path === path && (r.review.request.resource as { resource: string }).resource === resource).map((r) => r.review.request as Request);

for (const p of PARENTS) {
  test(`${p.resource}/scale: webhooks see autoscaling/v1 Scales, the mutation is what is stored, a denial changes nothing`, async () => {
    const name = `${p.resource.slice(0, -1)}-a`;
    const created = await raw(t, { method: 'POST', path: p.path, body: { ...p.body, metadata: { name } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const scalePath = `${p.path}/${name}/scale`;

    const scaled = await put(scalePath, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: 'default' }, spec: { replicas: 7 } });
    assert.equal(scaled.status, 200, JSON.stringify(scaled.body));
    assert.equal(scaled.body.spec.replicas, 3, 'the mutating webhook\'s cap is what the parent got');
    const parent = await raw(t, { method: 'GET', path: `${p.path}/${name}` });
    assert.equal(parent.body.spec.replicas, 3);

    const resource = { group: p.group, version: 'v1', resource: p.resource };
    const [mutated] = seen('/mutate', p.resource);
    const [validated] = seen('/validate', p.resource);
    for (const req of [mutated, validated]) {
      assert.deepEqual(
        [req.kind, req.resource, req.subResource, req.requestKind, req.requestResource, req.requestSubResource, req.operation, req.name, req.namespace],
        [SCALE, resource, 'scale', SCALE, resource, 'scale', 'UPDATE', name, 'default'],
      );
      assert.deepEqual([req.object.kind, req.object.apiVersion, req.oldObject?.kind, req.oldObject?.apiVersion], ['Scale', 'autoscaling/v1', 'Scale', 'autoscaling/v1']);
      assert.equal(req.oldObject?.spec?.replicas, 1, 'the old Scale is the parent\'s before the write');
      assert.equal(req.oldObject?.metadata.uid, created.body.metadata.uid);
    }
    // The request's Scale as sent (no uid); the validated one is built from the parent.
    assert.equal(mutated.object.metadata.uid, undefined);
    assert.equal(validated.object.metadata.uid, created.body.metadata.uid);
    assert.equal(mutated.object.spec?.replicas, 7, 'mutating admission sees the requested Scale');
    assert.equal(validated.object.spec?.replicas, 3, 'validating admission sees the Scale of the updated parent');
    assert.equal(validated.object.status?.selector, 'app=web');

    const denied = await merge(scalePath, { spec: { replicas: 0 } });
    assert.equal(denied.status, 400, JSON.stringify(denied.body));
    assert.equal(denied.body.message, 'admission webhook "no-zero.example.com" denied the request: scaling to zero is not allowed');
    assert.equal((await raw(t, { method: 'GET', path: `${p.path}/${name}` })).body.spec.replicas, 3, 'a denied scale leaves the parent as it was');
  });
}

test('a Scale whose uid names another object is a Conflict on deployments/scale.apps (apps.Resource("deployments/scale"))', async () => {
  const p = PARENTS[0];
  await raw(t, { method: 'POST', path: p.path, body: { ...p.body, metadata: { name: 'uid-check' } } });
  const res = await put(`${p.path}/uid-check/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'uid-check', uid: 'other-uid' }, spec: { replicas: 2 } });
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.match(res.body.message, /^Operation cannot be fulfilled on deployments\/scale\.apps "uid-check": Precondition failed: UID in precondition: other-uid, UID in object meta: /);
});

test('a ValidatingAdmissionPolicy on deployments/scale judges the Scale', async () => {
  const policy = await raw(t, {
    method: 'POST', path: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', body: {
      metadata: { name: 'max-scale' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }] },
        validations: [{ expression: "request.kind.kind == 'Scale' && object.kind == 'Scale' && oldObject.kind == 'Scale' && object.spec.replicas <= 2", message: 'at most 2 replicas' }],
      },
    },
  });
  assert.equal(policy.status, 201, JSON.stringify(policy.body));
  const binding = await raw(t, { method: 'POST', path: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', body: { metadata: { name: 'max-scale' }, spec: { policyName: 'max-scale', validationActions: ['Deny'] } } });
  assert.equal(binding.status, 201, JSON.stringify(binding.body));
  const p = PARENTS[0];
  await raw(t, { method: 'POST', path: p.path, body: { ...p.body, metadata: { name: 'policy' } } });
  let res = await merge(`${p.path}/policy/scale`, { spec: { replicas: 2 } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  // Policies are compiled from the watch cache: retry until the verdict shows.
  for (let i = 0; i < 500 && res.status === 200; i++) {
    res = await merge(`${p.path}/policy/scale`, { spec: { replicas: 3 } });
    if (res.status === 200) await merge(`${p.path}/policy/scale`, { spec: { replicas: 2 } });
  }
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.message, "deployments.apps \"policy\" is forbidden: ValidatingAdmissionPolicy 'max-scale' with binding 'max-scale' denied request: at most 2 replicas");
});

test('a webhook for v1 of a custom resource\'s scale is called for v2 with matchPolicy Equivalent, kind Scale, the object unconverted', async () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } };
  const subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } };
  const crd = await raw(t, {
    method: 'POST', path: CRD_PATH, body: {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.stable.example.com' },
      spec: {
        group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
        versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === 'v1', schema: { openAPIV3Schema: schema }, subresources })),
      },
    },
  });
  assert.equal(crd.status, 201, JSON.stringify(crd.body));
  const v2 = '/apis/stable.example.com/v2/namespaces/default/widgets';
  let created = { status: 0, body: {} as Record<string, unknown> };
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && created.status !== 201;) {
    created = await raw(t, { method: 'POST', path: v2, body: { apiVersion: 'stable.example.com/v2', kind: 'Widget', metadata: { name: 'w1' }, spec: { replicas: 1, selector: 'app=w' } } });
    if (created.status !== 201) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(created.status, 201, JSON.stringify(created.body));

  const scaled = await merge(`${v2}/w1/scale`, { spec: { replicas: 2 } });
  assert.equal(scaled.status, 200, JSON.stringify(scaled.body));
  const calls = server.requests.filter((r) => r.path === '/widgets').map((r) => r.review.request as Request);
  assert.equal(calls.length, 1);
  const [req] = calls;
  assert.deepEqual(
    [req.kind, req.resource, req.subResource, req.requestKind, req.requestResource, req.requestSubResource],
    [SCALE, { group: 'stable.example.com', version: 'v1', resource: 'widgets' }, 'scale', SCALE, { group: 'stable.example.com', version: 'v2', resource: 'widgets' }, 'scale'],
  );
  assert.deepEqual([req.object.kind, req.object.apiVersion, req.object.spec?.replicas, req.object.status?.selector], ['Scale', 'autoscaling/v1', 2, 'app=w']);
  assert.equal(req.oldObject?.spec?.replicas, 1);
  assert.equal(server.requests.filter((r) => r.path === '/widgets-exact').length, 0, 'matchPolicy Exact does not reach across versions');
});
