import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, test } from 'node:test';
import { STRATEGIES } from '../api/strategies/index.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { RealClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { HttpFrontEnd } from './http-server.js';
import { createCa, issueCert, SERVER_DNS, type CertPair } from './pki.js';

// Request targets and response headers the API fuzz (test/integration/api-fuzz.test.ts) turned into 500s.

let cp: ControlPlane;
let front: HttpFrontEnd;
let ca: CertPair;
let admin: CertPair;

before(async () => {
  cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
  await cp.start();
  ca = createCa();
  const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } });
  admin = issueCert(ca, { cn: 'admin', orgs: ['system:masters'] });
  front = new HttpFrontEnd({ api: cp.api, logger: silentLogger, tls: { cert: server.cert, key: server.key, ca: ca.cert }, port: 0 });
  await front.listen();
  const made = await cp.client().transport.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'cm' } } });
  assert.equal(made.status, 201);
});

after(async () => {
  await front.close();
  await cp.stop();
});

function request(method: string, path: string, body?: string, contentType?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: front.port, path, method, ca: ca.cert, cert: admin.cert, key: admin.key,
      headers: contentType ? { 'content-type': contentType } : {},
    }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a request target URL parsing refuses ("//") gets a Status, not a 500', async () => {
  const res = await request('OPTIONS', '//');
  assert.equal(res.status, 405);
  assert.equal(JSON.parse(res.body).reason, 'MethodNotAllowed');
});

test('".." segments are not resolved after authorisation: they name nothing', async () => {
  const res = await request('GET', '/api/v1/namespaces/default/configmaps/../secrets');
  assert.equal(res.status, 404);
  assert.equal(JSON.parse(res.body).reason, 'NotFound');
});

test('a Warning header naming a field with a line break and non-Latin-1 text goes out as UTF-8, not as a 500', async () => {
  const res = await request('PATCH', '/api/v1/namespaces/default/configmaps/cm', '{"data":{"a":"b"},"💥\\nx":1}', 'application/merge-patch+json');
  assert.equal(res.status, 200, res.body);
  const warning = Buffer.from(String(res.headers.warning), 'latin1').toString('utf8');
  assert.equal(warning, '299 - "unknown field \\"💥 x\\""');
});
