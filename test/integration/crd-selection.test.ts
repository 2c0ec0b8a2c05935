// Selecting custom resources, against an in-process control plane (and, for converted versions, a real HTTPS
// conversion webhook on 127.0.0.1):
// - CRD selectableFields in field selectors of lists and watches, and kube's 400 for other fields
//   (apiextensions-apiserver pkg/registry/customresource/strategy.go GetAttrs, pkg/apiserver/conversion/converter.go
//   ConvertFieldLabel: metadata.namespace only for namespaced resources);
// - watches of a converted version select on the converted objects, an object leaving the selection arriving as
//   DELETED (apiserver pkg/storage/cacher/cache_watcher.go over each version's watch cache);
// - converted revisions are reused, as each served version's watch cache keeps them, until the CRD changes.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeObject, WatchEvent } from '../../src/api/types.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
type Review = { apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] } };

let t: TestControlPlane;
let server: https.Server;
let port = 0;
const reviews: { path: string; review: Review }[] = [];
const ca = createCa('selection-test-ca');

/** v1 `color` ↔ v2 `colour`; objects converted to v2 carry the label `colour=<value>`. */
function convert(review: Review): unknown {
  const to = review.request.desiredAPIVersion;
  const objs = review.request.objects.map((o) => {
    const { color, colour, ...rest } = o as { color?: string; colour?: string; metadata: { labels?: Record<string, string> } };
    const value = color ?? colour;
    if (to.endsWith('/v2')) return { ...rest, apiVersion: to, colour: value, metadata: { ...rest.metadata, labels: { ...rest.metadata.labels, colour: value ?? '' } } };
    const labels = { ...rest.metadata.labels };
    delete labels.colour;
    return { ...rest, apiVersion: to, color: value, metadata: { ...rest.metadata, labels } };
  });
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
      reviews.push({ path: req.url ?? '', review });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(convert(review)));
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

async function establish(obj: KubeObject, probe: string): Promise<void> {
  const created = await raw(t, { method: 'POST', path: CRD_PATH, body: obj, contentType: 'application/json' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if ((await raw(t, { method: 'GET', path: probe })).status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('CRD never served');
}

/** Events of a watch until `done` holds for them. */
async function watchUntil(path: string, query: Record<string, string>, act: () => Promise<void>, done: (evs: WatchEvent[]) => boolean): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const stream = await t.client.transport.watch({ method: 'GET', path, query: { watch: 'true', ...query } }, (ev) => events.push(ev));
  try {
    await act();
    for (const deadline = Date.now() + 10_000; !done(events) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
    return events;
  } finally {
    stream.stop();
  }
}

const names = (evs: WatchEvent[]) => evs.map((e) => [e.type, e.object.metadata.name]);
const itemNames = (r: { body: { items: KubeObject[] } }) => r.body.items.map((o) => o.metadata.name);

test('selectableFields select in lists and watches; other fields are kube\'s 400', async () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' }, ready: { type: 'boolean' } } } } };
  const crd = (plural: string, scope: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com', scope, names: { plural, kind: plural[0].toUpperCase() + plural.slice(1, -1) },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.ready' }] }],
    },
  });
  const base = '/apis/example.com/v1/namespaces/default/widgets';
  await establish(crd('widgets', 'Namespaced') as KubeObject, base);
  const stored = await raw(t, { method: 'GET', path: `${CRD_PATH}/widgets.example.com` });
  assert.deepEqual(stored.body.spec.versions[0].selectableFields, [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.ready' }]);
  const make = (name: string, spec: Record<string, unknown>) => raw(t, { method: 'POST', path: base, contentType: 'application/json', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec } });
  for (const [n, spec] of [['a', { color: 'blue', size: 1, ready: true }], ['b', { color: 'red', size: 3 }], ['c', { color: 'blue', size: 3, ready: false }], ['d', {}]] as const) {
    assert.equal((await make(n, spec)).status, 201);
  }
  const list = (fieldSelector: string) => raw(t, { method: 'GET', path: base, query: { fieldSelector } });
  const cases: [string, string[]][] = [
    ['spec.color=blue', ['a', 'c']], ['spec.color!=blue', ['b', 'd']], ['spec.size=3', ['b', 'c']], ['spec.color=blue,spec.size=3', ['c']],
    ['spec.ready=true', ['a']], ['spec.ready=false', ['c']], ['spec.color=', ['d']], ['metadata.name=b', ['b']], ['metadata.namespace=default,spec.size=1', ['a']],
  ];
  for (const [sel, want] of cases) assert.deepEqual(itemNames(await list(sel)), want, sel);
  const bad = await list('spec.shape=round');
  assert.deepEqual([bad.status, bad.body.reason, bad.body.message], [400, 'BadRequest', 'field label not supported: spec.shape']);

  // A watch: the object leaves the selection (DELETED), comes back (ADDED), changes within it (MODIFIED).
  const patch = (name: string, spec: Record<string, unknown>) => raw(t, { method: 'PATCH', path: `${base}/${name}`, contentType: 'application/merge-patch+json', body: { spec } });
  const evs = await watchUntil(base, { fieldSelector: 'spec.color=blue' }, async () => {
    await patch('a', { color: 'red' });
    await patch('b', { color: 'blue' });
    await patch('b', { size: 4 });
    await patch('d', { size: 9 });
  }, (e) => e.length >= 5);
  assert.deepEqual(names(evs), [['ADDED', 'a'], ['ADDED', 'c'], ['DELETED', 'a'], ['ADDED', 'b'], ['MODIFIED', 'b']]);

  // Cluster-scoped custom resources have no metadata.namespace to select on (crConverter.ConvertFieldLabel).
  await establish(crd('gadgets', 'Cluster') as KubeObject, '/apis/example.com/v1/gadgets');
  const ns = await raw(t, { method: 'GET', path: '/apis/example.com/v1/gadgets', query: { fieldSelector: 'metadata.namespace=default' } });
  assert.deepEqual([ns.status, ns.body.message], [400, 'field label not supported: metadata.namespace']);
  const ok = await raw(t, { method: 'GET', path: '/apis/example.com/v1/gadgets', query: { fieldSelector: 'metadata.name=x,spec.color=blue' } });
  assert.equal(ok.status, 200);
  const nsOk = await raw(t, { method: 'GET', path: '/apis/example.com/v1/widgets', query: { fieldSelector: 'metadata.namespace=default' } });
  assert.equal(nsOk.status, 200);
});

test('a converted version selects on converted objects in watches, and converts each revision once', async () => {
  const webhook = (path: string) => ({
    strategy: 'Webhook',
    webhook: { clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle: Buffer.from(ca.cert).toString('base64') }, conversionReviewVersions: ['v1'] },
  });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'paints.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'paints', kind: 'Paint' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { color: { type: 'string' } } } } },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { colour: { type: 'string' } } } }, selectableFields: [{ jsonPath: '.colour' }] },
      ],
      conversion: webhook('/convert'),
    },
  };
  const v1 = '/apis/stable.example.com/v1/namespaces/default/paints';
  const v2 = '/apis/stable.example.com/v2/namespaces/default/paints';
  await establish(crd as unknown as KubeObject, v1);
  for (const [n, color] of [['a', 'blue'], ['b', 'red'], ['c', 'blue']]) {
    const r = await raw(t, { method: 'POST', path: v1, contentType: 'application/json', body: { apiVersion: 'stable.example.com/v1', kind: 'Paint', metadata: { name: n }, color } });
    assert.equal(r.status, 201);
  }
  // The v2-only field is refused in v1, where it is not selectable.
  assert.equal((await raw(t, { method: 'GET', path: v1, query: { fieldSelector: 'colour=blue' } })).status, 400);
  const setColor = (name: string, color: string) => raw(t, { method: 'PATCH', path: `${v1}/${name}`, contentType: 'application/merge-patch+json', body: { color } });

  for (const query of [{ fieldSelector: 'colour=blue' }, { labelSelector: 'colour=blue' }] as Record<string, string>[]) {
    const evs = await watchUntil(v2, query, async () => {
      await setColor('a', 'red');
      await setColor('b', 'blue');
      await setColor('a', 'green');
      await setColor('b', 'blue2');
      await setColor('c', 'blue');
      await setColor('b', 'blue');
    }, (e) => e.length >= 6);
    const what = JSON.stringify(query);
    assert.deepEqual(names(evs), [['ADDED', 'a'], ['ADDED', 'c'], ['DELETED', 'a'], ['ADDED', 'b'], ['DELETED', 'b'], ['ADDED', 'b']], what);
    // The DELETED object is the converted one that left the selection.
    assert.deepEqual([evs[2].object.apiVersion, (evs[2].object as { colour?: string }).colour, evs[2].object.metadata.labels?.colour], ['stable.example.com/v2', 'red', 'red'], what);
    if (query.fieldSelector) for (const n of ['a', 'b']) await setColor(n, n === 'a' ? 'blue' : 'red');
  }

  // Every current revision was converted to v2 by the last watch: lists and gets of them make no new call.
  reviews.length = 0;
  const first = await raw(t, { method: 'GET', path: v2, query: { fieldSelector: 'colour=blue' } });
  assert.deepEqual(itemNames(first), ['b', 'c']);
  assert.equal((await raw(t, { method: 'GET', path: `${v2}/a` })).body.colour, 'green');
  await raw(t, { method: 'GET', path: v2 });
  assert.equal(reviews.length, 0, 'converted revisions are reused');
  // A new revision is converted once, however often it is read.
  await setColor('c', 'teal');
  for (let i = 0; i < 3; i++) assert.equal((await raw(t, { method: 'GET', path: `${v2}/c` })).body.colour, 'teal');
  await raw(t, { method: 'GET', path: v2 });
  assert.deepEqual(reviews.map((r) => r.review.request.objects.map((o) => (o.metadata as { name: string }).name)), [['c']]);

  // A CRD update of spec.conversion starts afresh: the new webhook converts everything once more.
  const cur = await raw(t, { method: 'GET', path: `${CRD_PATH}/paints.stable.example.com` });
  cur.body.spec.conversion = webhook('/convert-again');
  assert.equal((await raw(t, { method: 'PUT', path: `${CRD_PATH}/paints.stable.example.com`, contentType: 'application/json', body: cur.body })).status, 200);
  reviews.length = 0;
  for (const deadline = Date.now() + 10_000; !reviews.some((r) => r.path.startsWith('/convert-again')) && Date.now() < deadline;) {
    await raw(t, { method: 'GET', path: v2 });
    await new Promise((r) => setTimeout(r, 10));
  }
  const again = reviews.filter((r) => r.path.startsWith('/convert-again'));
  assert.deepEqual(again[0]?.review.request.objects.length, 3, 'the new webhook converts every object');
  const n = again.length;
  await raw(t, { method: 'GET', path: v2 });
  assert.equal(reviews.filter((r) => r.path.startsWith('/convert-again')).length, n, 'and only once');
});
