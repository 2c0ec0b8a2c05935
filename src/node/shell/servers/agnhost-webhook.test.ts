// `agnhost webhook` as upstream behaves: TLS from the mounted files, AdmissionReview handlers, content-type rule.

import test from 'node:test';
import assert from 'node:assert/strict';
import { createCa, issueCert } from '../../../apiserver/pki.js';
import { fakeEnv, run, until, type FakeEnv } from '../testing/fake-env.js';

const ca = createCa('t');
const serving = issueCert(ca, { cn: 'w', server: { dns: ['w.default.svc'], ips: [] } });

async function review(env: FakeEnv, path: string, request: Record<string, unknown>, contentType = 'application/json') {
  const l = env.listening.find((x) => x.port === 8443)!;
  const body = Buffer.from(JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request: { uid: 'u1', ...request } }));
  const r = await l.handler!({ method: 'POST', path, headers: { 'content-type': contentType }, body, remoteAddress: '172.18.0.3', remotePort: 1, localAddress: '10.244.1.5', localPort: 8443 });
  return { status: r.status, text: r.body.toString(), json: () => JSON.parse(r.body.toString()) as { response: Record<string, unknown> } };
}

const podReq = (containers: string[], labels: Record<string, string> = {}) => ({
  resource: { group: '', version: 'v1', resource: 'pods' }, operation: 'CREATE',
  object: { metadata: { name: 'p', labels }, spec: { containers: containers.map((name) => ({ name })) } },
});

test('agnhost webhook: serves TLS with the mounted certificate and answers as upstream', async () => {
  const env = fakeEnv({ toolset: 'alpine', extras: ['agnhost'] });
  env.fs.mount('/certs', new Map([['tls.crt', serving.cert], ['tls.key', serving.key]]), { readOnly: true });
  const ctl = new AbortController();
  const done = run(env, ['/agnhost', 'webhook', '--tls-cert-file=/certs/tls.crt', '--tls-private-key-file=/certs/tls.key', '--port=8443'], { signal: ctl.signal });
  await until(() => env.listening.some((l) => l.port === 8443));
  assert.equal(env.listening.find((l) => l.port === 8443)!.tls?.cert, serving.cert);

  assert.deepEqual((await review(env, '/always-deny', {})).json().response, { uid: 'u1', allowed: false, status: { metadata: {}, message: 'this webhook denies all requests' } });
  assert.deepEqual((await review(env, '/pods', podReq(['ok']))).json().response, { uid: 'u1', allowed: true });
  assert.deepEqual((await review(env, '/pods', podReq(['webhook-disallow']))).json().response.status, { metadata: {}, message: 'the pod contains unwanted container name;' });
  const label = (await review(env, '/add-label', { object: { metadata: { name: 'c' } } })).json().response;
  assert.equal(label.patchType, 'JSONPatch');
  assert.deepEqual(JSON.parse(Buffer.from(label.patch as string, 'base64').toString()), [{ op: 'add', path: '/metadata/labels', value: { 'added-label': 'yes' } }]);
  const cm = await review(env, '/configmaps', { resource: { group: '', version: 'v1', resource: 'configmaps' }, operation: 'CREATE', object: { data: { 'webhook-e2e-test': 'webhook-disallow' } } });
  assert.deepEqual(cm.json().response.status, { metadata: {}, reason: 'the configmap contains unwanted key and value' });
  // A wrong content type gets an empty 200, which the API server cannot decode.
  const wrong = await review(env, '/always-deny', {}, 'text/plain');
  assert.equal(wrong.status, 200);
  assert.equal(wrong.text, '');
  ctl.abort('SIGTERM');
  await done;
});

test('agnhost webhook: missing certificate files are fatal', async () => {
  const env = fakeEnv({ toolset: 'alpine', extras: ['agnhost'] });
  const r = await run(env, ['/agnhost', 'webhook', '--tls-cert-file=/nope/tls.crt', '--tls-private-key-file=/nope/tls.key']);
  assert.equal(r.code, 255);
  assert.match(r.stderr, /open \/nope\/tls\.crt: no such file or directory/);
});
