// The emulated e2e sample-apiserver's HTTP answers: a watch streamed as JSON lines (Tables for kubectl get -w with
// the columns in the first event only), the stream ended when the program stops, and the OpenAPI of its types.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpRequest, HttpResponse } from '../../interfaces.js';
import { sampleApiserverHandler } from './sample-apiserver.js';
import { WardleStore } from './wardle-store.js';

const req = (path: string, accept = 'application/json'): HttpRequest => ({
  method: 'GET', path, headers: { accept }, body: Buffer.alloc(0), remoteAddress: '10.244.0.1', remotePort: 1, localAddress: '10.244.0.5', localPort: 443,
});

function open(res: HttpResponse): { lines: () => Record<string, any>[]; ended: () => boolean; stop: () => void } {
  assert.ok(res.stream, 'a streamed answer');
  const out: string[] = [];
  let ended = false;
  const stop = res.stream({ write: (c) => out.push(String(c)), end: () => (ended = true) });
  return { lines: () => out.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)), ended: () => ended, stop };
}

const flunders = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';

test('watch=true streams ADDED/MODIFIED/DELETED with kind and apiVersion; stopping closes the store\'s watch', async () => {
  const store = new WardleStore(() => 0);
  store.create('flunders', 'default', { metadata: { name: 'a' } });
  const res = await sampleApiserverHandler(store)(req(`${flunders}?watch=true`));
  assert.equal(res.status, 200);
  assert.equal(res.headers['Content-Type'], 'application/json');
  const w = open(res);
  store.create('flunders', 'default', { metadata: { name: 'b' } });
  store.delete('flunders', 'default', 'a');
  assert.deepEqual(w.lines().map((e) => `${e.type} ${e.object.kind} ${e.object.apiVersion} ${e.object.metadata.name}`), [
    'ADDED Flunder wardle.example.com/v1alpha1 a', 'ADDED Flunder wardle.example.com/v1alpha1 b', 'DELETED Flunder wardle.example.com/v1alpha1 a',
  ]);
  w.stop();
  assert.equal(store.watching, 0);
});

test('kubectl get -w: Table events, column definitions in the first only; fieldSelector narrows to one name', async () => {
  const store = new WardleStore(() => 0);
  store.create('flunders', 'default', { metadata: { name: 'a' } });
  store.create('flunders', 'default', { metadata: { name: 'b' } });
  const res = await sampleApiserverHandler(store)(req(`${flunders}?watch=1&fieldSelector=metadata.name%3Db`, 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'));
  const w = open(res);
  store.update('flunders', 'default', 'b', { metadata: { name: 'b', labels: { x: 'y' } } });
  const events = w.lines();
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.kind} ${e.object.rows[0].cells[0]} ${e.object.columnDefinitions.length}`), ['ADDED Table b 2', 'MODIFIED Table b 0']);
  w.stop();
});

test('the program stopping ends its open watches', async () => {
  const store = new WardleStore(() => 0);
  const stopped = new AbortController();
  const w = open(await sampleApiserverHandler(store, stopped.signal)(req(`${flunders}?watch=true`)));
  assert.equal(store.watching, 1);
  stopped.abort('SIGTERM');
  assert.equal(w.ended(), true);
  assert.equal(store.watching, 0);
});

test('OpenAPI: v3 lists both versions; each document has its kinds with group-version-kind; v2 has them all', async () => {
  const h = sampleApiserverHandler(new WardleStore(() => 0));
  const body = async (path: string) => JSON.parse((await h(req(path))).body.toString());
  const root = await body('/openapi/v3');
  assert.deepEqual(Object.keys(root.paths), ['apis/wardle.example.com/v1alpha1', 'apis/wardle.example.com/v1beta1']);
  assert.match(root.paths['apis/wardle.example.com/v1alpha1'].serverRelativeURL, /^\/openapi\/v3\/apis\/wardle\.example\.com\/v1alpha1\?hash=[0-9A-F]{128}$/);
  const v1alpha1 = await body('/openapi/v3/apis/wardle.example.com/v1alpha1');
  const flunder = v1alpha1.components.schemas['io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder'];
  assert.deepEqual(flunder['x-kubernetes-group-version-kind'], [{ group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' }]);
  assert.equal(flunder.description, 'Flunder is an example type with a spec and a status.');
  assert.ok(v1alpha1.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'], 'the references resolve');
  assert.deepEqual(Object.keys(v1alpha1.components.schemas['io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.FlunderSpec'].properties), ['reference', 'referenceType']);
  const v1beta1 = await body('/openapi/v3/apis/wardle.example.com/v1beta1');
  assert.deepEqual(Object.keys(v1beta1.components.schemas['io.k8s.sample-apiserver.pkg.apis.wardle.v1beta1.FlunderSpec'].properties), ['fischerReference', 'flunderReference', 'referenceType']);
  assert.equal(v1beta1.components.schemas['io.k8s.sample-apiserver.pkg.apis.wardle.v1beta1.Fischer'], undefined, 'fischers are v1alpha1 only');
  assert.equal((await h(req('/openapi/v3/apis/wardle.example.com/v2'))).status, 404);
  const v2 = await body('/openapi/v2');
  assert.equal(v2.swagger, '2.0');
  assert.equal(v2.definitions['io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder'].properties.metadata.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  assert.ok(v2.paths['/apis/wardle.example.com/v1beta1/namespaces/{namespace}/flunders/{name}']);
});
