// Objects of resources served in several versions, as admission and lists see them, against an in-process control
// plane and a real HTTPS conversion webhook on 127.0.0.1:
// - ValidatingAdmissionPolicy sees the object in the version its matchConstraints matched (matchPolicy Equivalent),
//   converted by the CRD's conversion webhook for custom resources (apiserver pkg/admission/plugin/policy/generic/
//   policy_dispatcher.go VersionedAttribute(matchGVK); a failed conversion is a configuration error of the policy);
// - CRD defaults are validated at CRD creation (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go);
// - a list in a converted version selects on the converted objects, as the per-version watch cache does
//   (customresource_handler.go: each served version's storage decodes into that version).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '../../src/api/types.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';
import { convertExample } from '../../src/node/shell/servers/agnhost-crd-conversion.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const VAPB = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';
type Review = { apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };

let t: TestControlPlane;
let server: https.Server;
let port = 0;
/** Set to make the webhook answer with a Failure. */
let failWith = '';
/** Labels the webhook adds to objects it converts to v2. */
let labelV2: Record<string, string> | undefined;
const reviews: Review[] = [];
const ca = createCa('versions-test-ca');

function answer(review: Review): unknown {
  if (failWith) return { kind: 'ConversionReview', apiVersion: review.apiVersion, response: { uid: review.request.uid, result: { status: 'Failure', message: failWith } } };
  const out = review.request.objects.map((o) => convertExample(o as unknown as Record<string, unknown>, review.request.desiredAPIVersion));
  const objs = out.map((r) => ({ ...r.obj, apiVersion: review.request.desiredAPIVersion }) as KubeObject);
  if (labelV2 && review.request.desiredAPIVersion.endsWith('/v2')) for (const o of objs) o.metadata = { ...o.metadata, labels: { ...o.metadata.labels, ...labelV2 } };
  return { kind: 'ConversionReview', apiVersion: review.apiVersion, response: { uid: review.request.uid, convertedObjects: objs, result: { status: 'Success' } } };
}

before(async () => {
  t = await startControlPlane();
  const serving = issueCert(ca, { cn: 'webhook', server: { dns: ['localhost'], ips: ['127.0.0.1'] } });
  server = https.createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as Review;
      reviews.push(review);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(review)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await t.stop();
});

const post = (path: string, body: unknown, query?: Record<string, string>) => raw(t, { method: 'POST', path, body, contentType: 'application/json', query });
const schema = { type: 'object', properties: { hostPort: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' } } };

function crd(plural: string): KubeObject {
  const kind = plural[0].toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.stable.example.com` },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced', names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }, { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema } }],
      conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle: Buffer.from(ca.cert).toString('base64') }, conversionReviewVersions: ['v1'] } },
    },
  };
}

async function establish(obj: KubeObject, plural: string): Promise<void> {
  const created = await post(CRD_PATH, obj);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if ((await raw(t, { method: 'GET', path: `/apis/stable.example.com/v2/namespaces/default/${plural}` })).status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('CRD never served');
}

async function policy(name: string, group: string, version: string, resource: string, expression: string, message: string): Promise<void> {
  const p = await post(VAP, {
    metadata: { name },
    spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: [group], apiVersions: [version], operations: ['CREATE'], resources: [resource] }] }, validations: [{ expression, message }] },
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  assert.equal((await post(VAPB, { metadata: { name: `${name}-binding` }, spec: { policyName: name, validationActions: ['Deny'] } })).status, 201);
}

/** Policies are read from the watch cache: retry until the policy's verdict shows (or the deadline passes). */
async function eventually(fn: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail('condition never held');
}

test('a policy for autoscaling/v2 sees an autoscaling/v1 HPA converted to v2', async () => {
  await policy('hpa-cpu', 'autoscaling', 'v2', 'horizontalpodautoscalers', 'object.spec.metrics.all(m, m.resource.target.averageUtilization <= 80)', 'cpu target above 80%');
  const hpa = (name: string, cpu: number) => ({
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: cpu },
  });
  const path = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
  let denied: Awaited<ReturnType<typeof post>> | undefined;
  await eventually(async () => (denied = await post(path, hpa('hot', 90), { dryRun: 'All' })).status !== 201);
  assert.equal(denied!.status, 422);
  assert.equal(denied!.body.message, "horizontalpodautoscalers.autoscaling \"hot\" is forbidden: ValidatingAdmissionPolicy 'hpa-cpu' with binding 'hpa-cpu-binding' denied request: cpu target above 80%");
  assert.equal((await post(path, hpa('calm', 60), { dryRun: 'All' })).status, 201);
});

test('a policy for a CRD\'s v2 sees a v1 custom resource through the conversion webhook; a failed conversion is the policy\'s', async () => {
  await establish(crd('crontabs'), 'crontabs');
  await policy('crontab-port', 'stable.example.com', 'v2', 'crontabs', "object.port == '443'", 'port must be 443');
  const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
  const ct = (name: string, hostPort: string) => ({ apiVersion: 'stable.example.com/v1', kind: 'Crontab', metadata: { name }, hostPort });
  let denied: Awaited<ReturnType<typeof post>> | undefined;
  await eventually(async () => (denied = await post(path, ct('a', 'example.com:80'), { dryRun: 'All' })).status !== 201);
  assert.equal(denied!.body.message, "crontabs.stable.example.com \"a\" is forbidden: ValidatingAdmissionPolicy 'crontab-port' with binding 'crontab-port-binding' denied request: port must be 443");
  reviews.length = 0;
  assert.equal((await post(path, ct('b', 'example.com:443'), { dryRun: 'All' })).status, 201);
  assert.deepEqual(reviews.map((r) => r.request.desiredAPIVersion), ['stable.example.com/v2'], 'the policy\'s view came from the webhook');
  failWith = 'converter down';
  try {
    const failed = await post(path, ct('c', 'example.com:443'), { dryRun: 'All' });
    assert.equal(failed.body.message, "crontabs.stable.example.com \"c\" is forbidden: ValidatingAdmissionPolicy 'crontab-port' denied request: failed to configure policy: conversion webhook for stable.example.com/v1, Kind=Crontab failed: converter down");
  } finally {
    failWith = '';
  }
});

test('a list in a converted version selects on the objects as that version serves them', async () => {
  await establish(crd('widgets'), 'widgets');
  const v1 = '/apis/stable.example.com/v1/namespaces/default/widgets';
  const v2 = '/apis/stable.example.com/v2/namespaces/default/widgets';
  for (const name of ['w1', 'w2']) assert.equal((await post(v1, { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name, labels: { app: name } }, hostPort: 'h:1' })).status, 201);
  labelV2 = { served: 'v2' };
  try {
    const names = async (path: string, labelSelector: string) => (await raw(t, { method: 'GET', path, query: { labelSelector } })).body.items.map((o: KubeObject) => o.metadata.name);
    // The label the webhook gives v2 objects selects them in v2, not in v1; the stored labels select in both.
    assert.deepEqual(await names(v2, 'served=v2'), ['w1', 'w2']);
    assert.deepEqual(await names(v1, 'served=v2'), []);
    assert.deepEqual(await names(v2, 'app=w2'), ['w2']);
    // Paging with a selector pages over the selected converted objects.
    const page = await raw(t, { method: 'GET', path: v2, query: { labelSelector: 'served=v2', limit: '1' } });
    assert.deepEqual([page.body.items.map((o: KubeObject) => o.metadata.name), Boolean(page.body.metadata.continue)], [['w1'], true]);
    const rest = await raw(t, { method: 'GET', path: v2, query: { labelSelector: 'served=v2', limit: '1', continue: page.body.metadata.continue } });
    assert.deepEqual(rest.body.items.map((o: KubeObject) => o.metadata.name), ['w2']);
  } finally {
    labelV2 = undefined;
  }
});

test('CRD defaults must validate against their schema and be pruned', async () => {
  const bad = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gizmos.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'gizmos', kind: 'Gizmo' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1, default: 0 }, opts: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } } },
      } } } }],
    },
  };
  const r = await post(CRD_PATH, bad);
  assert.equal(r.status, 422);
  // kube walks the properties in Go's map order, so only the errors themselves are fixed, not their order.
  assert.ok(r.body.message.startsWith('CustomResourceDefinition.apiextensions.k8s.io "gizmos.stable.example.com" is invalid: ['), r.body.message);
  for (const want of [
    'spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: 0:  in body should be greater than or equal to 1',
    'spec.validation.openAPIV3Schema.properties[spec].properties[opts].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields',
  ]) assert.ok(r.body.message.includes(want), `${want}\nin ${r.body.message}`);
});
