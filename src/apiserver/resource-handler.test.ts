import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { STRATEGIES } from '../api/strategies/index.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import type { ServerRequest } from './interfaces.js';
import { isWatchResponse } from './interfaces.js';

// Malformed requests the API fuzz (test/integration/api-fuzz.test.ts) found answered with a 500, a crash or a
// success, each now with the Status kube-apiserver gives.

const NS = 'default';
const ADMIN = { name: 'admin', groups: ['system:masters'] };
let cp: ControlPlane;

async function call(req: Omit<ServerRequest, 'user'>): Promise<{ status: number; body: { kind?: string; reason?: string; message?: string; code?: number } }> {
  const res = await cp.api.handle({ ...req, user: ADMIN });
  if (isWatchResponse(res)) throw new Error(`${req.method} ${req.path}: unexpected watch`);
  return res as { status: number; body: { reason?: string; message?: string } };
}

before(async () => {
  cp = new ControlPlane({ clock: new FakeClock(Date.parse('2025-01-01T00:00:00Z')), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  const client = cp.client();
  for (const [path, body] of [
    [`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'default' } }],
    [`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'cm' }, data: { a: 'b' } }],
    [`/api/v1/namespaces/${NS}/endpoints`, { metadata: { name: 'ep' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }],
    [`/apis/apps/v1/namespaces/${NS}/deployments`, { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } }],
    [`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } }],
  ] as const) {
    const res = await client.transport.request({ method: 'POST', path, body });
    assert.equal(res.status, 201, path);
  }
});
after(() => cp.stop());

interface Case {
  name: string;
  req: Omit<ServerRequest, 'user'>;
  code: number;
  reason: string;
  message?: string | RegExp;
}

const JSON_TYPE = 'application/json';
const cm = `/api/v1/namespaces/${NS}/configmaps`;
const NOT_ALLOWED = 'the server does not allow this method on the requested resource';

const cases: Case[] = [
  // go-restful has no route for these methods on these paths: apimachinery errors.NewGenericServerResponse(405).
  { name: 'namespaces have no deletecollection', req: { method: 'DELETE', path: '/api/v1/namespaces' }, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  { name: 'POST to an object', req: { method: 'POST', path: `${cm}/cm`, body: '{}', contentType: JSON_TYPE }, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  { name: 'PUT to a collection', req: { method: 'PUT', path: cm, body: '{}', contentType: JSON_TYPE }, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  { name: 'POST across all namespaces', req: { method: 'POST', path: '/api/v1/configmaps', body: '{}', contentType: JSON_TYPE }, code: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED },
  // apiserver handlers/rest.go transformDecodeError around encoding/json's UnmarshalTypeError.
  {
    name: 'a create with a wrongly typed field', req: { method: 'POST', path: cm, body: '{"metadata":{"name":"x"},"data":{"a":5}}', contentType: JSON_TYPE }, code: 400, reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  },
  {
    name: 'a pod whose containers are an object (was a 500)', req: { method: 'POST', path: `/api/v1/namespaces/${NS}/pods`, body: '{"metadata":{"name":"q"},"spec":{"containers":{"name":"c"}}}', contentType: JSON_TYPE },
    code: 400, reason: 'BadRequest', message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
  },
  {
    name: 'apiVersion that is an object (String() of it threw)', req: { method: 'POST', path: cm, body: '{"apiVersion":{"toString":{}},"metadata":{"name":"y"}}', contentType: JSON_TYPE },
    code: 400, reason: 'BadRequest', message: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string',
  },
  { name: 'a body in text/plain', req: { method: 'POST', path: cm, body: '{"metadata":{"name":"z"}}', contentType: 'text/plain' }, code: 415, reason: 'UnsupportedMediaType' },
  // apiserver handlers/patch.go applyPatchToCurrentObject: a patch that leaves a wrong type is 422 on `patch`.
  {
    name: 'a merge patch that leaves a wrong type', req: { method: 'PATCH', path: `${cm}/cm`, body: '{"data":{"a":5}}', contentType: 'application/merge-patch+json' },
    code: 422, reason: 'Invalid', message: /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal number into Go struct field ConfigMap.data of type string$/,
  },
  {
    name: 'an apply configuration with a wrong type', req: { method: 'PATCH', path: `${cm}/cm`, query: { fieldManager: 'm' }, body: 'data:\n  a: [1]', contentType: 'application/apply-patch+yaml' },
    code: 400, reason: 'BadRequest', message: /^failed to create typed patch object \(\/; \/v1, Kind=ConfigMap\): \.data\[a\]: expected string, got array$/,
  },
  {
    name: 'a null list item where a struct goes reaches defaulting as {} (was a 500)', req: { method: 'PUT', path: `/api/v1/namespaces/${NS}/endpoints/ep`, body: '{"metadata":{"name":"ep"},"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[null]}]}', contentType: JSON_TYPE },
    code: 422, reason: 'Invalid', message: /subsets\[0\]\.ports\[0\]\.port: Invalid value: 0: must be between 1 and 65535, inclusive/,
  },
  {
    name: 'a pod without containers passes ServiceAccount admission to validation (was a 500)', req: { method: 'POST', path: `/api/v1/namespaces/${NS}/pods`, body: '{"metadata":{"name":"r"},"spec":{}}', contentType: JSON_TYPE },
    code: 422, reason: 'Invalid', message: /spec\.containers: Required value/,
  },
  {
    name: 'a selector requirement without a key (was a 500)', req: { method: 'POST', path: `/apis/apps/v1/namespaces/${NS}/deployments`, body: JSON.stringify({ metadata: { name: 'e' }, spec: { selector: { matchExpressions: [null] }, template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } }), contentType: JSON_TYPE },
    code: 422, reason: 'Invalid', message: /spec\.selector\.matchExpressions\[0\]\.key: Invalid value: ""/,
  },
  // Subresources decode their own kinds the same way.
  { name: 'an empty Scale', req: { method: 'PUT', path: `/apis/apps/v1/namespaces/${NS}/deployments/d/scale`, body: '', contentType: JSON_TYPE }, code: 400, reason: 'BadRequest', message: 'the body of the request was empty' },
  {
    name: 'a Scale with a string replica count', req: { method: 'PUT', path: `/apis/apps/v1/namespaces/${NS}/deployments/d/scale`, body: '{"spec":{"replicas":"two"}}', contentType: JSON_TYPE },
    code: 400, reason: 'BadRequest', message: 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
  },
  {
    name: 'a Binding whose target name is a number (bound the pod to node "5")', req: { method: 'POST', path: `/api/v1/namespaces/${NS}/pods/p/binding`, body: '{"target":{"name":5}}', contentType: JSON_TYPE },
    code: 400, reason: 'BadRequest', message: 'Binding in version "v1" cannot be handled as a Binding: json: cannot unmarshal number into Go struct field ObjectReference.target.name of type string',
  },
  {
    name: 'an Eviction whose deleteOptions are a string', req: { method: 'POST', path: `/api/v1/namespaces/${NS}/pods/p/eviction`, body: '{"metadata":{"name":"p"},"deleteOptions":"x"}', contentType: JSON_TYPE },
    code: 400, reason: 'BadRequest', message: 'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field Eviction.deleteOptions of type v1.DeleteOptions',
  },
  {
    name: 'DeleteOptions with a string grace period (was ignored)', req: { method: 'DELETE', path: `${cm}/cm`, query: { dryRun: 'All' }, body: '{"gracePeriodSeconds":"x"}', contentType: JSON_TYPE },
    code: 400, reason: 'BadRequest', message: 'DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
  },
  {
    name: 'a YAML !!binary body (was stored as a Buffer)', req: { method: 'PUT', path: `${cm}/cm`, body: '!!binary aGk=', contentType: 'application/yaml' },
    code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type ConfigMap\)/,
  },
];

test('malformed requests get the Status kube-apiserver gives', async () => {
  for (const c of cases) {
    const { status, body } = await call(c.req);
    assert.equal(status, c.code, `${c.name}: ${JSON.stringify(body)}`);
    assert.equal(body.kind, 'Status', c.name);
    assert.equal(body.code, c.code, c.name);
    assert.equal(body.reason, c.reason, c.name);
    if (typeof c.message === 'string') assert.equal(body.message, c.message, c.name);
    else if (c.message) assert.match(body.message ?? '', c.message, c.name);
  }
  // Nothing the refused requests touched changed.
  const got = await call({ method: 'GET', path: `${cm}/cm` });
  assert.deepEqual((got.body as { data?: unknown }).data, { a: 'b' });
  assert.equal((await call({ method: 'GET', path: '/api/v1/namespaces/default' })).status, 200);
});

test('watch=true on one object is a plain get (RequestInfoFactory only watches collections)', async () => {
  const res = await cp.api.handle({ method: 'GET', path: `${cm}/cm`, query: { watch: 'true' }, user: ADMIN });
  assert.ok(!isWatchResponse(res));
  assert.equal(res.status, 200);
  assert.equal((res.body as { metadata: { name: string } }).metadata.name, 'cm');
});

// A merge patch of pods/status shares the stored spec (copy-on-write) and checks only what it sets
// (resource-handler.ts patch): the outcome must be what a full copy and a full check give.
test('a merge patch of pods/status: stored parts kept, the patch checked, bad input refused as before', async () => {
  const path = `/api/v1/namespaces/${NS}/pods/p/status`;
  const merge = (body: unknown, query?: Record<string, string>) => cp.api.handle({
    method: 'PATCH', path, body, contentType: 'application/merge-patch+json', user: ADMIN, ...(query ? { query } : {}),
  }) as Promise<{ status: number; body: { spec?: unknown; status?: { phase?: string; podIP?: string }; message?: string }; headers?: Record<string, string> }>;
  const before = (await call({ method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p` })).body as { spec?: unknown };
  const ok = await merge({ status: { phase: 'Running', podIP: '10.1.0.5' } });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.status?.phase, 'Running');
  assert.deepEqual(ok.body.spec, before.spec, 'the spec is the stored one');
  // A spec change sent to /status is dropped, as the status strategy does.
  const specTry = await merge({ spec: { activeDeadlineSeconds: 5 }, status: { podIP: '10.1.0.6' } });
  assert.equal(specTry.status, 200);
  assert.deepEqual(specTry.body.spec, before.spec);
  const wrongType = await merge({ status: { podIP: 5 } });
  assert.equal(wrongType.status, 422);
  assert.match(wrongType.body.message ?? '', /json: cannot unmarshal number into Go struct field PodStatus\.status\.podIP of type string/);
  const unknown = await merge({ status: { bogus: 1 } }, { fieldValidation: 'Strict' });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.message, 'strict decoding error: unknown field "status.bogus"');
  const after = (await call({ method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p` })).body as { status?: { podIP?: string } };
  assert.equal(after.status?.podIP, '10.1.0.6', 'refused patches changed nothing');
});
