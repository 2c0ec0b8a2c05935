// `agnhost crd-conversion-webhook` as upstream behaves: in-cluster config and TLS from the mounted files, /crdconvert
// converting stable.example.com v1 hostPort <-> v2 host/port (converter/example_converter.go), ConversionReview v1
// and v1beta1 answered in kind, failures as a Failure result.

import test from 'node:test';
import assert from 'node:assert/strict';
import { createCa, issueCert } from '../../../apiserver/pki.js';
import { fakeEnv, run, until, type FakeEnv } from '../testing/fake-env.js';
import { convertExample } from './agnhost-crd-conversion.js';

const ca = createCa('t');
const serving = issueCert(ca, { cn: 'c', server: { dns: ['c.default.svc'], ips: [] } });
const IN_CLUSTER = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };

const cr = (apiVersion: string, fields: Record<string, unknown>) => ({ apiVersion, kind: 'E2e-test-crd-webhook-0001-crd', metadata: { name: 'cr1', uid: 'u' }, ...fields });

test('convertExample: the e2e converter\'s rules', () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown> | string][] = [
    ['v1 -> v2 splits hostPort', cr('stable.example.com/v1', { hostPort: 'localhost:8080' }), 'stable.example.com/v2', { host: 'localhost', port: '8080' }],
    ['v2 -> v1 joins host and port', cr('stable.example.com/v2', { host: 'h', port: '1' }), 'stable.example.com/v1', { hostPort: 'h:1' }],
    ['v2 -> v1 with only a host', cr('stable.example.com/v2', { host: 'h' }), 'stable.example.com/v1', { hostPort: 'h:' }],
    ['v1 without hostPort stays as it is', cr('stable.example.com/v1', { other: 1 }), 'stable.example.com/v2', { other: 1 }],
    ['a malformed hostPort', cr('stable.example.com/v1', { hostPort: 'a:b:c' }), 'stable.example.com/v2', 'invalid hostPort value `a:b:c`'],
    ['to the same version', cr('stable.example.com/v1', {}), 'stable.example.com/v1', 'conversion from a version to itself should not call the webhook: stable.example.com/v1'],
    ['to an unknown version', cr('stable.example.com/v1', {}), 'stable.example.com/v3', 'unexpected conversion version "stable.example.com/v3"'],
    ['from an unknown version', cr('stable.example.com/v9', {}), 'stable.example.com/v1', 'unexpected conversion version "stable.example.com/v9"'],
  ];
  for (const [name, obj, to, want] of cases) {
    const r = convertExample(obj, to);
    if (typeof want === 'string') {
      assert.deepEqual(r.status, { metadata: {}, status: 'Failure', message: want }, name);
      continue;
    }
    assert.equal(r.status.status, 'Success', name);
    const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = r.obj!;
    assert.deepEqual(rest, want, name);
  }
  assert.throws(() => convertExample(cr('stable.example.com/v1', { hostPort: 8080 }), 'stable.example.com/v2'), /interface \{\} is int64, not string/);
});

async function post(env: FakeEnv, body: unknown, contentType = 'application/json', path = '/crdconvert') {
  const l = env.listening.find((x) => x.port === 9443)!;
  const r = await l.handler!({ method: 'POST', path, headers: { 'content-type': contentType }, body: Buffer.from(JSON.stringify(body)), remoteAddress: '172.18.0.2', remotePort: 1, localAddress: '10.244.1.5', localPort: 9443 });
  return { status: r.status, text: r.body.toString() };
}

test('agnhost crd-conversion-webhook: serves /crdconvert over TLS and answers each ConversionReview version in kind', async () => {
  const env = fakeEnv({ toolset: 'alpine', extras: ['agnhost'], env: IN_CLUSTER });
  env.fs.mount('/certs', new Map([['tls.crt', serving.cert], ['tls.key', serving.key]]), { readOnly: true });
  const ctl = new AbortController();
  const done = run(env, ['/agnhost', 'crd-conversion-webhook', '--tls-cert-file=/certs/tls.crt', '--tls-private-key-file=/certs/tls.key', '--port=9443'], { signal: ctl.signal });
  await until(() => env.listening.some((l) => l.port === 9443));
  assert.equal(env.listening.find((l) => l.port === 9443)!.tls?.cert, serving.cert);
  for (const version of ['v1', 'v1beta1']) {
    const review = { kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`, request: { uid: 'r1', desiredAPIVersion: 'stable.example.com/v2', objects: [cr('stable.example.com/v1', { hostPort: 'localhost:80' })] } };
    const r = await post(env, review);
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.text), {
      kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`, request: { uid: '', desiredAPIVersion: '', objects: null },
      response: { uid: 'r1', convertedObjects: [cr('stable.example.com/v2', { host: 'localhost', port: '80' })], result: { metadata: {}, status: 'Success' } },
    }, version);
  }
  const failed = JSON.parse((await post(env, { kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1', request: { uid: 'r2', desiredAPIVersion: 'stable.example.com/v2', objects: [cr('stable.example.com/v1', { hostPort: 'x' })] } })).text);
  assert.deepEqual(failed.response, { uid: 'r2', convertedObjects: null, result: { metadata: {}, status: 'Failure', message: 'invalid hostPort value `x`' } });
  const wrongType = await post(env, {}, 'application/json; charset=utf-8');
  assert.deepEqual([wrongType.status, wrongType.text], [400, 'invalid Content-Type header `application/json; charset=utf-8`\n']);
  assert.equal((await post(env, {}, 'application/json', '/convert')).status, 404);
  ctl.abort('SIGTERM');
  await done;
});

test('agnhost crd-conversion-webhook: outside a cluster, or without its key pair, it exits as klog.Fatal does', async () => {
  const outside = await run(fakeEnv({ toolset: 'alpine', extras: ['agnhost'] }), ['/agnhost', 'crd-conversion-webhook', '--tls-cert-file=/c/tls.crt', '--tls-private-key-file=/c/tls.key']);
  assert.equal(outside.code, 255);
  assert.match(outside.stderr, /unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined/);
  const noCert = await run(fakeEnv({ toolset: 'alpine', extras: ['agnhost'], env: IN_CLUSTER }), ['/agnhost', 'crd-conversion-webhook', '--tls-cert-file=/c/tls.crt', '--tls-private-key-file=/c/tls.key']);
  assert.equal(noCert.code, 255);
  assert.match(noCert.stderr, /open \/c\/tls\.crt: no such file or directory/);
});
