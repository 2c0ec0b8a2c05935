// CRD conversion webhooks against an in-process control plane and a real HTTPS webhook on 127.0.0.1: the CRD's
// conversion validation, objects stored in the storage version and converted on reads, lists (one review) and
// watches, and kube's texts when the webhook fails or answers wrongly
// (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go; validation/validation.go).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeObject, WatchEvent } from '../../src/api/types.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';
import { convertExample } from '../../src/node/shell/servers/agnhost-crd-conversion.js';
import { raw, startControlPlane, type TestControlPlane } from './helpers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
type Review = { kind: string; apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };
/** How the webhook answers a review: the default converts as agnhost's example converter does. */
type Answer = (review: Review) => unknown;

const convertAll: Answer = (review) => {
  const out = review.request.objects.map((o) => convertExample(o as unknown as Record<string, unknown>, review.request.desiredAPIVersion));
  const failed = out.find((r) => r.status.status !== 'Success');
  return {
    kind: 'ConversionReview', apiVersion: review.apiVersion,
    response: { uid: review.request.uid, convertedObjects: failed ? null : out.map((r) => ({ ...r.obj, apiVersion: review.request.desiredAPIVersion })), result: failed?.status ?? { status: 'Success' } },
  };
};

let t: TestControlPlane;
let server: https.Server;
let port = 0;
let answer: Answer = convertAll;
const reviews: Review[] = [];
const ca = createCa('conversion-test-ca');

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

const schema = { type: 'object', properties: { hostPort: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' } } };

function crd(plural: string, conversion: unknown): KubeObject {
  const kind = plural[0].toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.stable.example.com` },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced', names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }, { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema } }],
      conversion,
    },
  };
}

const webhook = (reviewVersions = ['v1', 'v1beta1'], url = `https://127.0.0.1:${port}/convert`) => ({
  strategy: 'Webhook', webhook: { clientConfig: { url, caBundle: Buffer.from(ca.cert).toString('base64') }, conversionReviewVersions: reviewVersions },
});

async function establish(obj: KubeObject): Promise<void> {
  const created = await raw(t, { method: 'POST', path: CRD_PATH, body: obj, contentType: 'application/json' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const r = await raw(t, { method: 'GET', path: `/apis/stable.example.com/v2/namespaces/default/${(obj.spec as { names: { plural: string } }).names.plural}` });
    if (r.status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('CRD never served');
}

const path = (plural: string, version: string, name = '') => `/apis/stable.example.com/${version}/namespaces/default/${plural}${name ? `/${name}` : ''}`;
const get = (plural: string, version: string, name = '') => raw(t, { method: 'GET', path: path(plural, version, name) });
const create = (plural: string, version: string, body: Record<string, unknown>) =>
  raw(t, { method: 'POST', path: path(plural, version), contentType: 'application/json', body: { apiVersion: `stable.example.com/${version}`, kind: plural[0].toUpperCase() + plural.slice(1, -1), ...body } });

/** A new revision of an object through the storage version (no conversion): converted revisions are reused, so a test
 * that changes how the webhook answers gives the object a revision it has not converted yet. */
let touches = 0;
async function touch(plural: string, name: string): Promise<void> {
  const r = await raw(t, { method: 'PATCH', path: path(plural, 'v1', name), contentType: 'application/merge-patch+json', body: { metadata: { annotations: { touched: String(++touches) } } } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

test('the CRD\'s conversion is validated with kube\'s paths and messages', async () => {
  const cases: [string, unknown, boolean, RegExp][] = [
    ['Webhook without a webhook', { strategy: 'Webhook' }, false, /spec\.conversion\.webhookClientConfig: Required value: required when strategy is set to Webhook, spec\.conversion\.conversionReviewVersions: Required value\]/],
    ['both url and service', { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a/b', service: { namespace: 'n', name: 's' } }, conversionReviewVersions: ['v1'] } }, false, /spec\.conversion\.webhookClientConfig: Required value: exactly one of url or service is required/],
    ['an http URL', { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://a/b' }, conversionReviewVersions: ['v1'] } }, false, /spec\.conversion\.webhookClientConfig\.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https:\/\/host\[\/path\]/],
    ['a service without a namespace', { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 's' } }, conversionReviewVersions: ['v1'] } }, false, /spec\.conversion\.webhookClientConfig\.service\.namespace: Required value/],
    ['no review version it speaks', { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a/b' }, conversionReviewVersions: ['v2'] } }, false, /spec\.conversion\.conversionReviewVersions: Invalid value: \[\]string\{"v2"\}: must include at least one of v1, v1beta1/],
    ['a duplicate review version', { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a/b' }, conversionReviewVersions: ['v1', 'v1'] } }, false, /spec\.conversion\.conversionReviewVersions\[1\]: Invalid value: "v1": duplicate version/],
    ['None with a client config', { strategy: 'None', webhook: { clientConfig: { url: 'https://a/b' } } }, false, /spec\.conversion\.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook/],
    ['None with review versions', { strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } }, false, /spec\.conversion\.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook/],
    ['an unknown strategy', { strategy: 'Magic' }, false, /spec\.conversion\.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"/],
    ['Webhook with preserveUnknownFields', { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a/b' }, conversionReviewVersions: ['v1'] } }, true, /spec\.conversion\.strategy: Invalid value: "Webhook": must be None if spec\.preserveUnknownFields is true/],
  ];
  for (const [name, conversion, preserve, want] of cases) {
    const obj = crd('badthings', conversion);
    if (preserve) (obj.spec as Record<string, unknown>).preserveUnknownFields = true;
    const r = await raw(t, { method: 'POST', path: CRD_PATH, body: obj, contentType: 'application/json' });
    assert.equal(r.status, 422, name);
    assert.match(r.body.message, want, name);
  }
  // A Service reference gets port 443 (SetDefaults_ServiceReference).
  const ok = await raw(t, { method: 'POST', path: CRD_PATH, query: { dryRun: 'All' }, contentType: 'application/json',
    body: crd('svcthings', { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'default', name: 'conv', path: '/crdconvert' } }, conversionReviewVersions: ['v1'] } }) });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.spec.conversion.webhook.clientConfig.service, { namespace: 'default', name: 'conv', path: '/crdconvert', port: 443 });
});

test('objects are stored in the storage version; reads, lists and watches in another version go through the webhook', async () => {
  await establish(crd('crontabs', webhook()));
  reviews.length = 0;
  assert.equal((await create('crontabs', 'v1', { metadata: { name: 'a', labels: { app: 'x' } }, hostPort: 'localhost:80' })).status, 201);
  assert.equal(reviews.length, 0, 'a write in the storage version needs no conversion');
  const made = await create('crontabs', 'v2', { metadata: { name: 'b' }, host: 'example.com', port: '443' });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.deepEqual([made.body.apiVersion, made.body.host, made.body.port, made.body.hostPort], ['stable.example.com/v2', 'example.com', '443', undefined]);
  // In: v2 -> v1 before the write; out: v1 -> v2 for the answer.
  assert.deepEqual(reviews.map((r) => [r.apiVersion, r.request.desiredAPIVersion, r.request.objects.length]), [
    ['apiextensions.k8s.io/v1', 'stable.example.com/v1', 1], ['apiextensions.k8s.io/v1', 'stable.example.com/v2', 1],
  ]);
  const rs = t.cp.api.storeFor('stable.example.com', 'crontabs')!;
  const stored = rs.decode(rs.cache.get(rs.key('default', 'b'))!);
  assert.deepEqual([stored.apiVersion, (stored as { hostPort?: string }).hostPort], ['stable.example.com/v1', 'example.com:443']);

  const a2 = await get('crontabs', 'v2', 'a');
  assert.deepEqual([a2.status, a2.body.apiVersion, a2.body.host, a2.body.port, a2.body.hostPort, a2.body.metadata.labels], [200, 'stable.example.com/v2', 'localhost', '80', undefined, { app: 'x' }]);
  // Both were converted to v2 above (the get, the create's answer): those revisions are not sent again.
  reviews.length = 0;
  assert.equal((await get('crontabs', 'v2')).body.items.length, 2);
  assert.equal(reviews.length, 0, 'converted revisions are reused');
  await touch('crontabs', 'a');
  await touch('crontabs', 'b');
  reviews.length = 0;
  const list = await get('crontabs', 'v2');
  assert.deepEqual(list.body.items.map((o: Record<string, unknown>) => [o.apiVersion, o.host, o.port]), [['stable.example.com/v2', 'localhost', '80'], ['stable.example.com/v2', 'example.com', '443']]);
  assert.deepEqual(reviews.map((r) => r.request.objects.length), [2], 'a list is converted in one review');
  reviews.length = 0;
  const v1 = await get('crontabs', 'v1');
  assert.deepEqual(v1.body.items.map((o: Record<string, unknown>) => o.hostPort), ['localhost:80', 'example.com:443']);
  assert.equal(reviews.length, 0);

  // A watch in v2 sees its events converted, in order.
  const events: WatchEvent[] = [];
  const stream = await t.client.transport.watch({ method: 'GET', path: path('crontabs', 'v2'), query: { watch: 'true' } }, (ev) => events.push(ev));
  assert.equal((await create('crontabs', 'v1', { metadata: { name: 'c' }, hostPort: 'h:1' })).status, 201);
  for (const deadline = Date.now() + 10_000; events.length < 3 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
  stream.stop();
  assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name, (e.object as { host?: string }).host]), [['ADDED', 'a', 'localhost'], ['ADDED', 'b', 'example.com'], ['ADDED', 'c', 'h']]);
});

test('a webhook may change labels and annotations; other metadata changes are ignored', async () => {
  answer = (review) => {
    const out = convertAll(review) as { response: { convertedObjects: KubeObject[] } };
    for (const o of out.response.convertedObjects) o.metadata = { ...o.metadata, labels: { converted: 'yes' }, generation: 99, finalizers: ['x/y'] };
    return out;
  };
  try {
    await touch('crontabs', 'a');
    const r = await get('crontabs', 'v2', 'a');
    assert.deepEqual([r.body.metadata.labels, r.body.metadata.generation, r.body.metadata.finalizers], [{ converted: 'yes' }, 1, undefined]);
  } finally {
    answer = convertAll;
  }
});

test('failures and wrong answers are kube\'s 500s with the conversion webhook\'s texts', async () => {
  const gvk = 'stable.example.com/v1, Kind=Crontab';
  const cases: [string, Answer, string][] = [
    ['a Failure result', (r) => ({ kind: 'ConversionReview', apiVersion: r.apiVersion, response: { uid: r.request.uid, result: { status: 'Failure', message: 'nope' } } }),
      `conversion webhook for ${gvk} failed: nope`],
    ['a Failure without a message', (r) => ({ kind: 'ConversionReview', apiVersion: r.apiVersion, response: { uid: r.request.uid, result: { status: 'Failure' } } }),
      `conversion webhook for ${gvk} failed: response.result.status was 'Failure', not 'Success'`],
    ['another uid', (r) => ({ ...(convertAll(r) as object), response: { ...(convertAll(r) as { response: object }).response, uid: 'other' } }),
      `conversion webhook for ${gvk} failed: expected response.uid="UID", got "other"`],
    ['another kind of review', (r) => ({ ...(convertAll(r) as object), apiVersion: 'apiextensions.k8s.io/v1beta1' }),
      `conversion webhook for ${gvk} failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview`],
    ['no response', (r) => ({ kind: 'ConversionReview', apiVersion: r.apiVersion }), `conversion webhook for ${gvk} failed: no response provided`],
    ['too many objects', (r) => {
      const out = convertAll(r) as { response: { convertedObjects: unknown[] } };
      out.response.convertedObjects.push(out.response.convertedObjects[0]);
      return out;
    }, `conversion webhook for ${gvk} returned 2 objects, expected 1`],
    ['a renamed object', (r) => {
      const out = convertAll(r) as { response: { convertedObjects: KubeObject[] } };
      out.response.convertedObjects[0].metadata = { ...out.response.convertedObjects[0].metadata, name: 'zzz' };
      return out;
    }, `conversion webhook for ${gvk} returned invalid object: must have the same name: a != zzz`],
    ['the wrong version', (r) => {
      const out = convertAll(r) as { response: { convertedObjects: KubeObject[] } };
      out.response.convertedObjects[0].apiVersion = 'stable.example.com/v1';
      return out;
    }, `conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)`],
    ['an invalid label', (r) => {
      const out = convertAll(r) as { response: { convertedObjects: KubeObject[] } };
      out.response.convertedObjects[0].metadata = { ...out.response.convertedObjects[0].metadata, labels: { 'bad key!': 'x' } };
      return out;
    }, 'conversion webhook for stable.example.com/v1, Kind=Crontab returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters'],
  ];
  try {
    for (const [name, a, want] of cases) {
      answer = a;
      await touch('crontabs', 'a');
      const r = await get('crontabs', 'v2', 'a');
      assert.equal(r.status, 500, name);
      // StatusReasonUnknown (""): metav1.Status omits it.
      assert.equal(r.body.reason, undefined, name);
      const uid = reviews.at(-1)!.request.uid;
      assert.ok(r.body.message.startsWith(want.replace('UID', uid)), `${name}: ${r.body.message}`);
    }
    // A watch whose event cannot be converted ends with the failure as an ERROR event.
    answer = cases[0][1];
    await touch('crontabs', 'a');
    const events: WatchEvent[] = [];
    const stream = await t.client.transport.watch({ method: 'GET', path: path('crontabs', 'v2'), query: { watch: 'true' } }, (ev) => events.push(ev));
    for (const deadline = Date.now() + 10_000; !events.length && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
    stream.stop();
    assert.deepEqual(events.map((e) => [e.type, (e.object as unknown as { code: number; message: string }).code, (e.object as unknown as { message: string }).message]),
      [['ERROR', 500, `conversion webhook for ${gvk} failed: nope`]]);
  } finally {
    answer = convertAll;
  }
  // The webhook gone: the rest client's transport error behind kube's wrapper, for reads and writes alike.
  await establish(crd('gonethings', webhook(['v1'], 'https://127.0.0.1:1/convert')));
  const want = 'conversion webhook for stable.example.com/v2, Kind=Gonething failed: Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused';
  const w = await create('gonethings', 'v2', { metadata: { name: 'x' }, host: 'h', port: '1' });
  assert.deepEqual([w.status, w.body.message], [500, want]);
});

test('a webhook that offers only v1beta1 gets a v1beta1 ConversionReview, whose answer is not checked for its uid', async () => {
  await establish(crd('betathings', webhook(['v1beta1'])));
  assert.equal((await create('betathings', 'v1', { metadata: { name: 'a' }, hostPort: 'b:2' })).status, 201);
  answer = (r) => ({ ...(convertAll(r) as object), response: { ...(convertAll(r) as { response: object }).response, uid: 'ignored' } });
  try {
    reviews.length = 0;
    const r = await get('betathings', 'v2', 'a');
    assert.deepEqual([r.status, r.body.host, r.body.port], [200, 'b', '2']);
    assert.equal(reviews[0].apiVersion, 'apiextensions.k8s.io/v1beta1');
  } finally {
    answer = convertAll;
  }
});
