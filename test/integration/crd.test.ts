// CustomResourceDefinitions against an in-process control plane: the CRD's own validation and conditions, then its
// resource served with validation, defaulting, pruning, subresources, versions, discovery, OpenAPI and cleanup.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function widgetCrd(): KubeObject {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        properties: {
          size: { type: 'integer', minimum: 1 },
          replicas: { type: 'integer', default: 1 },
          color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
          selector: { type: 'string' },
        },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer' }, phase: { type: 'string' } } },
    },
  };
  const version = (name: string, storage: boolean) => ({
    name, served: true, storage, schema: { openAPIV3Schema: schema },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } },
    additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }, { name: 'Color', type: 'string', jsonPath: '.spec.color' }],
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions: [version('v1beta1', false), version('v1', true)],
    },
  };
}

async function established(t: TestControlPlane, name: string): Promise<KubeObject> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const res = await raw(t, { method: 'GET', path: `${CRD_PATH}/${name}` });
    const conds = (res.body.status?.conditions ?? []) as { type: string; status: string }[];
    if (conds.some((c) => c.type === 'Established' && c.status === 'True')) return res.body;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${name} never became Established`);
}

const post = (t: TestControlPlane, path: string, body: unknown, query?: Record<string, string>) =>
  raw(t, { method: 'POST', path, body, contentType: 'application/json', query });

test('a CRD is validated, defaulted, accepted and established', async () => {
  const t = await startControlPlane();
  try {
    const bad = widgetCrd();
    (bad.spec as { versions: { schema: unknown }[] }).versions[0].schema = { openAPIV3Schema: { properties: {} } };
    const refused = await post(t, CRD_PATH, bad);
    assert.equal(refused.status, 422);
    assert.match(refused.body.message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.type: Required value: must not be empty at the root/);
    const created = await post(t, CRD_PATH, widgetCrd());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.spec.names.singular, 'widget');
    assert.equal(created.body.spec.names.listKind, 'WidgetList');
    assert.deepEqual(created.body.spec.conversion, { strategy: 'None' });
    const crd = await established(t, 'widgets.example.com');
    const conds = (crd.status as { conditions: { type: string; reason: string }[] }).conditions;
    assert.deepEqual(conds.map((c) => [c.type, c.reason]), [['NamesAccepted', 'NoConflicts'], ['Established', 'InitialNamesAccepted']]);
    assert.deepEqual((crd.status as { storedVersions: string[] }).storedVersions, ['v1']);
    assert.equal((crd.status as { acceptedNames: { kind: string } }).acceptedNames.kind, 'Widget');
  } finally {
    await t.stop();
  }
});

test('custom resources: validation, defaults, pruning, versions, subresources, discovery, OpenAPI and cleanup', async () => {
  const t = await startControlPlane();
  try {
    assert.equal((await post(t, CRD_PATH, widgetCrd())).status, 201);
    await established(t, 'widgets.example.com');
    const path = '/apis/example.com/v1/namespaces/default/widgets';
    const invalid = await post(t, path, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w0' }, spec: { size: 0 } });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.message, 'Widget.example.com "w0" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1');
    const typed = await post(t, path, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w0' }, spec: { size: 'big' } });
    assert.match(typed.body.message, /spec\.size: Invalid value: "string": spec\.size in body must be of type integer: "string"/);

    const strict = await post(t, path, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 2, bogus: 1 } }, { fieldValidation: 'Strict' });
    assert.equal(strict.status, 400);
    assert.equal(strict.body.message, 'strict decoding error: unknown field "spec.bogus"');
    const made = await post(t, path, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 2, bogus: 1 }, status: { phase: 'x' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.spec, { size: 2, replicas: 1, color: 'red' });
    assert.equal(made.body.status, undefined, 'status is reset on create with the status subresource');
    assert.equal(made.body.metadata.generation, 1);

    // Conversion None: the same object through v1beta1, apiVersion rewritten.
    const beta = await raw(t, { method: 'GET', path: '/apis/example.com/v1beta1/namespaces/default/widgets/w1' });
    assert.equal(beta.body.apiVersion, 'example.com/v1beta1');

    // Strategic merge patch is refused; merge patch bumps the generation on spec change only.
    const smp = await raw(t, { method: 'PATCH', path: `${path}/w1`, body: { spec: { size: 3 } }, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(smp.status, 415);
    assert.equal(smp.body.message, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
    const merged = await raw(t, { method: 'PATCH', path: `${path}/w1`, body: { spec: { size: 3 } }, contentType: 'application/merge-patch+json' });
    assert.equal(merged.body.metadata.generation, 2);
    const status = await raw(t, { method: 'PATCH', path: `${path}/w1/status`, body: { status: { replicas: 1, phase: 'Ready' }, spec: { size: 9 } }, contentType: 'application/merge-patch+json' });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.deepEqual(status.body.status, { replicas: 1, phase: 'Ready' });
    assert.equal(status.body.spec.size, 3, 'status writes leave spec alone');
    assert.equal(status.body.metadata.generation, 2);

    // Scale subresource.
    const scale = await raw(t, { method: 'PATCH', path: `${path}/w1/scale`, body: { spec: { replicas: 4 } }, contentType: 'application/merge-patch+json' });
    assert.equal(scale.status, 200, JSON.stringify(scale.body));
    assert.deepEqual([scale.body.kind, scale.body.spec.replicas, scale.body.status.replicas], ['Scale', 4, 1]);

    // Table with printer columns.
    const table = await raw(t, { method: 'GET', path, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.deepEqual(table.body.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Size', 'Color']);
    assert.deepEqual(table.body.rows[0].cells, ['w1', 3, 'red']);

    // Discovery and OpenAPI.
    const list = await raw(t, { method: 'GET', path: '/apis/example.com/v1' });
    const names = list.body.resources.map((r: { name: string }) => r.name);
    assert.deepEqual(names, ['widgets', 'widgets/status', 'widgets/scale']);
    assert.deepEqual(list.body.resources[0].shortNames, ['wd']);
    const group = await raw(t, { method: 'GET', path: '/apis/example.com' });
    assert.deepEqual(group.body.preferredVersion, { groupVersion: 'example.com/v1', version: 'v1' });
    const v3 = await raw(t, { method: 'GET', path: '/openapi/v3/apis/example.com/v1' });
    const widget = v3.body.components.schemas['com.example.v1.Widget'];
    assert.deepEqual(Object.keys(widget.properties), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    assert.equal(widget.properties.spec.properties.size.minimum, 1);
    const v3root = await raw(t, { method: 'GET', path: '/openapi/v3' });
    assert.ok(v3root.body.paths['apis/example.com/v1']);

    // Deleting the CRD removes its resources, then the CRD and its endpoints.
    const del = await raw(t, { method: 'DELETE', path: `${CRD_PATH}/widgets.example.com` });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    // The cleanup finalizer runs in the CRD controller, and the resource's endpoints go when the server's CRD
    // informer sees the deletion (as kube's crdHandler follows its lister): wait for both by time, not by a count of
    // polls (a loaded machine makes each poll slower).
    const gone = async () => (await Promise.all([`${CRD_PATH}/widgets.example.com`, path, '/apis/example.com/v1']
      .map(async (p) => (await raw(t, { method: 'GET', path: p })).status))).every((s) => s === 404);
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !(await gone());) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal((await raw(t, { method: 'GET', path: `${CRD_PATH}/widgets.example.com` })).status, 404);
    assert.equal((await raw(t, { method: 'GET', path })).status, 404);
    assert.equal((await raw(t, { method: 'GET', path: '/apis/example.com/v1' })).status, 404);
    // Recreated, nothing of the old instances is left.
    assert.equal((await post(t, CRD_PATH, widgetCrd())).status, 201);
    await established(t, 'widgets.example.com');
    assert.equal((await raw(t, { method: 'GET', path })).body.items.length, 0);
  } finally {
    await t.stop();
  }
});

test('a second CRD asking for names already accepted in its group is not accepted', async () => {
  const t = await startControlPlane();
  try {
    assert.equal((await post(t, CRD_PATH, widgetCrd())).status, 201);
    await established(t, 'widgets.example.com');
    const other = widgetCrd();
    other.metadata.name = 'gadgets.example.com';
    (other.spec as { names: { plural: string } }).names.plural = 'gadgets';
    assert.equal((await post(t, CRD_PATH, other)).status, 201);
    let cond: { status: string; reason: string; message: string } | undefined;
    for (let i = 0; i < 200 && !cond; i++) {
      const got = await raw(t, { method: 'GET', path: `${CRD_PATH}/gadgets.example.com` });
      cond = got.body.status?.conditions?.find((c: { type: string }) => c.type === 'NamesAccepted');
      if (!cond) await new Promise((r) => setTimeout(r, 10));
    }
    // The naming controller checks plural, singular, short names, kind, then list kind; the last conflict is reported.
    assert.deepEqual(cond && [cond.status, cond.reason, cond.message], ['False', 'ListKindConflict', '"WidgetList" is already in use']);
    assert.equal((await raw(t, { method: 'GET', path: '/apis/example.com/v1/gadgets' })).status, 404);
  } finally {
    await t.stop();
  }
});
