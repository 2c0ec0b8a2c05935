// CRD validation ratcheting (CRDValidationRatcheting, GA in 1.33) against an in-process control plane: a schema
// tightened after objects were stored lets updates through that leave the now-invalid parts as they were
// (apiextensions-apiserver pkg/apiserver/validation/ratcheting.go, pkg/registry/customresource/validator.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GADGETS = '/apis/example.com/v1/namespaces/default/gadgets';

function crd(minSize?: number): KubeObject {
  const size = minSize === undefined ? { type: 'integer' } : { type: 'integer', minimum: minSize };
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          size: size,
          label: { type: 'string', ...(minSize === undefined ? {} : { 'x-kubernetes-validations': [{ rule: 'self.size() <= 3', message: 'label too long' }] }) },
          note: { type: 'string' },
        },
      },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const send = (t: TestControlPlane, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, query?: Record<string, string>) =>
  raw(t, { method, path, body, contentType: body === undefined ? undefined : 'application/json', query });

/** Polls until `probe` answers `status` (a CRD change reaches the served resource asynchronously). */
async function until(t: TestControlPlane, status: number, probe: () => Promise<{ status: number }>): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if ((await probe()).status === status) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never answered ${status}`);
}

test('updates may keep invalid parts unchanged after the schema was tightened; changed parts must validate', async () => {
  const t = await startControlPlane();
  try {
    assert.equal((await send(t, 'POST', CRD_PATH, crd())).status, 201);
    const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 0, label: 'toolong', note: 'a' } };
    await until(t, 201, () => send(t, 'POST', GADGETS, gadget));

    // Tighten: size >= 1 and a CEL rule on label; both stored values are now invalid.
    const current = (await send(t, 'GET', `${CRD_PATH}/gadgets.example.com`)).body;
    assert.equal((await send(t, 'PUT', `${CRD_PATH}/gadgets.example.com`, { ...crd(1), metadata: current.metadata })).status, 200);
    await until(t, 422, () => send(t, 'POST', GADGETS, { ...gadget, metadata: { name: 'probe' } }, { dryRun: 'All' }));

    const stored = (await send(t, 'GET', `${GADGETS}/g`)).body;
    const noteOnlyRes = await t.client.transport.request({ method: 'PUT', path: `${GADGETS}/g`, body: { ...stored, spec: { ...stored.spec, note: 'b' } }, contentType: 'application/json' });
    const noteOnly = { status: noteOnlyRes.status, body: noteOnlyRes.body } as Awaited<ReturnType<typeof send>>;
    assert.equal(noteOnly.status, 200, JSON.stringify(noteOnly.body));
    // Ratcheted errors are dropped silently: kube-openapi's ratcheting validator keeps them only as Result.Warnings,
    // which ValidateCustomResourceUpdate never reads, ratcheted CEL rules are skipped, and the strategy's
    // WarningsOnUpdate only warns about finalizer names (customresource/strategy.go, validation/validation.go).
    assert.equal(noteOnlyRes.headers?.warning ?? noteOnlyRes.headers?.Warning, undefined, 'no Warning header for ratcheted errors');

    const changed = await send(t, 'PUT', `${GADGETS}/g`, { ...noteOnly.body, spec: { ...noteOnly.body.spec, size: -1 } });
    assert.equal(changed.status, 422);
    assert.equal(changed.body.message, 'Gadget.example.com "g" is invalid: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 1');

    const relabel = await send(t, 'PUT', `${GADGETS}/g`, { ...noteOnly.body, spec: { ...noteOnly.body.spec, label: 'longer' } });
    assert.equal(relabel.status, 422);
    assert.equal(relabel.body.message, 'Gadget.example.com "g" is invalid: spec.label: Invalid value: "string": label too long');

    // A create is not an update: nothing ratchets.
    const fresh = await send(t, 'POST', GADGETS, { ...gadget, metadata: { name: 'g2' } });
    assert.equal(fresh.status, 422);
  } finally {
    await t.stop();
  }
});
