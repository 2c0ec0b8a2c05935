// The windows-gmsa webhook program: main.go's env and panics, ServeHTTP's routing, and its API calls made with the
// pod's projected token through the container's network (a scripted API server at the `kubernetes` Service here).

import test from 'node:test';
import assert from 'node:assert/strict';
import type { HttpClientRequest, HttpClientResponse } from '../interfaces.js';
import { createCa, issueCert } from '../../../apiserver/pki.js';
import { fakeEnv, run, until, type FakeEnv } from '../testing/fake-env.js';

const ca = createCa('t');
const serving = issueCert(ca, { cn: 'gmsa-webhook.kube-system.svc', server: { dns: ['gmsa-webhook.kube-system.svc'], ips: [] } });
const BIN = '/admission-webhook/admission-webhook';
const ENV = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', TLS_CRT: '/tls/crt', TLS_KEY: '/tls/key', LOG_LEVEL: 'info' };

/** A webhook container whose API server answers from `api` (method + path → response). */
function webhookEnv(api: (req: HttpClientRequest) => HttpClientResponse, env: Record<string, string> = ENV): FakeEnv & { calls: HttpClientRequest[] } {
  const e = fakeEnv({ toolset: 'distroless', extras: ['gmsa-webhook'], env });
  e.fs.mount('/tls', new Map([['crt', serving.cert], ['key', serving.key]]), { readOnly: true });
  e.fs.mount('/var/run/secrets/kubernetes.io/serviceaccount', new Map([['token', 'tok-1'], ['namespace', 'kube-system']]), { readOnly: true });
  const calls: HttpClientRequest[] = [];
  e.network.http = async (req) => {
    calls.push(req);
    return new URL(req.url).hostname === '10.96.0.1' ? api(req) : { error: 'unreachable' };
  };
  return Object.assign(e, { calls });
}

const json = (status: number, body: unknown): HttpClientResponse => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });

async function post(env: FakeEnv, path: string, body: unknown, method = 'POST', contentType = 'application/json') {
  const l = env.listening.find((x) => x.port === 443)!;
  const r = await l.handler!({ method, path, headers: { 'content-type': contentType }, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), remoteAddress: '172.18.0.2', remotePort: 1, localAddress: '10.244.0.9', localPort: 443 });
  return { status: r.status, text: r.body.toString() };
}

const gmsaPod = { metadata: { name: 'iis' }, spec: { serviceAccountName: 'gmsa-user', securityContext: { windowsOptions: { gmsaCredentialSpecName: 'webapp1' } }, containers: [{ name: 'iis', image: 'i' }] } };
const reviewOf = (object: unknown, operation = 'CREATE') => ({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request: { uid: 'u-1', kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'apps', operation, object } });

test('gmsa webhook: serves HTTPS on 443 with the mounted certificate; /health, /info and the HTTP refusals', async () => {
  const env = webhookEnv(() => json(404, {}));
  const ctl = new AbortController();
  const done = run(env, [BIN, '--cert-reload=false'], { signal: ctl.signal });
  await until(() => env.listening.some((l) => l.port === 443));
  const l = env.listening.find((x) => x.port === 443)!;
  assert.equal(l.tls?.cert, serving.cert);
  assert.equal(l.program, 'admission-webhook');
  assert.equal((await post(env, '/health', '', 'GET')).status, 204);
  assert.deepEqual(await post(env, '/info', '', 'GET'), { status: 200, text: '{"version":"v0.13.0"}' });
  assert.equal((await post(env, '/nope', '')).status, 404);
  assert.equal((await post(env, '/mutate', '', 'GET')).status, 405);
  assert.equal((await post(env, '/validate', '{}', 'POST', 'text/plain')).status, 415);
  const bad = JSON.parse((await post(env, '/validate', '{')).text);
  assert.deepEqual(bad.response, { uid: '', allowed: false, status: { metadata: {}, message: 'unable to unmarshall JSON body as an admission review: unexpected end of JSON input', code: 400 } });
  assert.equal(JSON.parse((await post(env, '/validate', '{}')).text).response.status.message, 'no \'Request\' field in JSON body');
  ctl.abort('SIGTERM');
  const out = await done;
  assert.match(out.stdout, /level=info msg="starting webhook server at port 443"/);
});

test('gmsa webhook: /mutate reads the GMSACredentialSpec and /validate asks a LocalSubjectAccessReview, with the pod token', async () => {
  const env = webhookEnv((req) => {
    const path = new URL(req.url).pathname;
    if (req.method === 'GET' && path === '/apis/windows.k8s.io/v1/gmsacredentialspecs/webapp1') {
      return json(200, { apiVersion: 'windows.k8s.io/v1', kind: 'GMSACredentialSpec', metadata: { name: 'webapp1' }, credspec: { DomainJoinConfig: { NetBiosName: 'CONTOSO', DnsName: 'contoso.com' }, CmsPlugins: ['ActiveDirectory'] } });
    }
    if (req.method === 'GET') return json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'gmsacredentialspecs.windows.k8s.io "nope" not found', reason: 'NotFound', code: 404 });
    const sar = JSON.parse(req.body!.toString()) as { spec: { user: string; resourceAttributes: Record<string, string> } };
    return json(201, { ...sar, status: { allowed: sar.spec.user === 'system:serviceaccount:apps:gmsa-user' } });
  });
  const ctl = new AbortController();
  const done = run(env, [BIN], { signal: ctl.signal });
  await until(() => env.listening.some((l) => l.port === 443));

  const mutated = JSON.parse((await post(env, '/mutate', reviewOf(gmsaPod))).text);
  assert.equal(mutated.apiVersion, 'admission.k8s.io/v1');
  assert.equal(mutated.response.uid, 'u-1');
  const patch = JSON.parse(Buffer.from(mutated.response.patch, 'base64').toString());
  assert.deepEqual(patch, [{ op: 'add', path: '/spec/securityContext/windowsOptions/gmsaCredentialSpec', value: '{"CmsPlugins":["ActiveDirectory"],"DomainJoinConfig":{"DnsName":"contoso.com","NetBiosName":"CONTOSO"}}' }]);
  assert.equal(env.calls[0].headers?.Authorization, 'Bearer tok-1');

  assert.deepEqual(JSON.parse((await post(env, '/validate', reviewOf(gmsaPod))).text).response, { uid: 'u-1', allowed: true });
  const sar = JSON.parse(env.calls.at(-1)!.body!.toString());
  assert.equal(new URL(env.calls.at(-1)!.url).pathname, '/apis/authorization.k8s.io/v1/namespaces/apps/localsubjectaccessreviews');
  assert.deepEqual(sar.spec, {
    resourceAttributes: { namespace: 'apps', verb: 'use', group: 'windows.k8s.io', version: 'v1', resource: 'gmsacredentialspecs', name: 'webapp1' },
    user: 'system:serviceaccount:apps:gmsa-user', groups: ['system:serviceaccounts', 'system:serviceaccounts:apps'],
  });
  const other = { ...gmsaPod, spec: { ...gmsaPod.spec, serviceAccountName: 'default' } };
  assert.equal(JSON.parse((await post(env, '/validate', reviewOf(other))).text).response.status.message, 'service account "default" is not authorized to `use` GMSA cred spec "webapp1"');
  const unknown = { ...gmsaPod, spec: { ...gmsaPod.spec, securityContext: { windowsOptions: { gmsaCredentialSpecName: 'nope' } } } };
  assert.deepEqual(JSON.parse((await post(env, '/mutate', reviewOf(unknown))).text).response.status, { metadata: {}, message: 'cred spec nope does not exist', code: 404 });
  ctl.abort('SIGTERM');
  const out = await done;
  assert.match(out.stdout, /level=info msg="refusing to admit with code 404: cred spec nope does not exist"/);
});

test('gmsa webhook: an unreachable API server is a denial naming Go\'s dial error', async () => {
  const env = webhookEnv(() => json(200, {}));
  env.network.http = async () => ({ error: 'refused' });
  const ctl = new AbortController();
  const done = run(env, [BIN], { signal: ctl.signal });
  await until(() => env.listening.some((l) => l.port === 443));
  const r = JSON.parse((await post(env, '/mutate', reviewOf(gmsaPod))).text).response;
  assert.deepEqual(r.status, { metadata: {}, message: 'unable to retrieve the contents of cred spec webapp1: Get "https://10.96.0.1:443/apis/windows.k8s.io/v1/gmsacredentialspecs/webapp1": dial tcp 10.96.0.1:443: connect: connection refused', code: 500 });
  ctl.abort('SIGTERM');
  await done;
});

test('gmsa webhook: set-up failures panic as main.go does; --version', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ ...ENV, KUBERNETES_SERVICE_HOST: '' }, /^panic: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined\n/],
    [{ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, /^panic: TLS_CRT env var not found\n/],
    [{ ...ENV, TLS_CRT: '/nope/crt' }, /^panic: open \/nope\/crt: no such file or directory\n/],
    [{ ...ENV, RANDOM_HOSTNAME: 'maybe' }, /^panic: unable to parse environment variable RANDOM_HOSTNAME with value maybe to bool\n/],
  ];
  for (const [env, want] of cases) {
    const r = await run(webhookEnv(() => json(200, {}), env), [BIN]);
    assert.equal(r.code, 2, JSON.stringify(env));
    assert.match(r.stderr, want);
  }
  const v = await run(webhookEnv(() => json(200, {})), [BIN, '--version']);
  assert.equal(v.stdout, 'windows-gmsa-webhook vv0.13.0\n');
  const bad = await run(webhookEnv(() => json(200, {})), [BIN, '--port=1']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^flag provided but not defined: -port\n/);
});
