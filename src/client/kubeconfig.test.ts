// Tests for kubeconfig loading: context choice, -data vs file fields, tokens, server URL defaults, client-go's errors.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { stringify } from 'yaml';
import { KubeconfigError, loadKubeconfig, parseKubeconfig } from './kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'ca.crt'), 'CA-PEM');
writeFileSync(join(dir, 'token'), '  file-token\n');
const b64 = (s: string) => Buffer.from(s).toString('base64');

type Doc = Record<string, unknown>;
function config(cluster: Doc, user: Doc, extra: Doc = {}): string {
  return stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'c', cluster }, { name: 'other', cluster: { server: 'https://10.0.0.9:6443' } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'team' } }, { name: 'alt', context: { cluster: 'other', user: 'u' } }],
    'current-context': 'ctx',
    ...extra,
  });
}

test('the current context resolves data fields, files relative to the kubeconfig, and the namespace', () => {
  const path = join(dir, 'config');
  writeFileSync(path, config({ server: 'https://127.0.0.1:6443', 'certificate-authority': 'ca.crt' },
    { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') }));
  const t = loadKubeconfig(path);
  assert.deepEqual(t, {
    contextName: 'ctx', clusterName: 'c', userName: 'u', namespace: 'team', server: 'https://127.0.0.1:6443',
    ca: 'CA-PEM', cert: 'CERT', key: 'KEY', insecureSkipTlsVerify: false, tlsServerName: undefined,
  });
  assert.equal(loadKubeconfig(path, { context: 'alt' }).server, 'https://10.0.0.9:6443');
});

const ok: [string, Doc, Doc, Partial<ReturnType<typeof parseKubeconfig>>][] = [
  ['inline token', { server: 'https://h:6443' }, { token: 'abc' }, { token: 'abc' }],
  ['tokenFile is read and trimmed', { server: 'https://h:6443' }, { tokenFile: join(dir, 'token') }, { token: 'file-token' }],
  ['an inline token wins over tokenFile', { server: 'https://h:6443' }, { token: 'inline', tokenFile: join(dir, 'token') }, { token: 'inline' }],
  ['insecure-skip-tls-verify', { server: 'https://h:6443', 'insecure-skip-tls-verify': true }, {}, { insecureSkipTlsVerify: true }],
  ['a bare host with TLS settings gets https', { server: 'h:6443', 'insecure-skip-tls-verify': true }, {}, { server: 'https://h:6443' }],
  ['a bare host without TLS settings gets http', { server: 'h:8080' }, { token: 't' }, { server: 'http://h:8080' }],
  ['a path prefix is kept', { server: 'https://h/k8s/clusters/c1/' }, {}, { server: 'https://h/k8s/clusters/c1' }],
  ['basic auth', { server: 'https://h' }, { username: 'me', password: 'pw' }, { username: 'me', password: 'pw' }],
];

for (const [name, cluster, user, want] of ok) {
  test(`resolves: ${name}`, () => {
    const t = parseKubeconfig(config(cluster, user), { baseDir: dir });
    for (const [k, v] of Object.entries(want)) assert.deepEqual(t[k as keyof typeof t], v, k);
  });
}

const bad: [string, string, RegExp | string][] = [
  ['empty file', '', 'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable'],
  ['no current context', config({ server: 'https://h' }, {}, { 'current-context': '' }), 'no context chosen'],
  ['unknown context', config({ server: 'https://h' }, {}, { 'current-context': 'nope' }), 'invalid configuration: context was not found for specified context: nope'],
  ['cluster without server', config({ 'certificate-authority-data': b64('x') }, {}), 'invalid configuration: no server found for cluster "c"'],
  ['empty cluster', config({}, {}), 'invalid configuration: cluster has no server defined'],
  ['cert without key', config({ server: 'https://h' }, { 'client-certificate-data': b64('C') }),
    'invalid configuration: client-key-data or client-key must be specified for u to use the clientCert authentication method.'],
  ['missing CA file', config({ server: 'https://h', 'certificate-authority': 'missing.crt' }, {}),
    `invalid configuration: unable to read certificate-authority ${join(dir, 'missing.crt')} for c due to open ${join(dir, 'missing.crt')}: no such file or directory`],
  ['token and basic auth', config({ server: 'https://h' }, { token: 't', username: 'a', password: 'b' }),
    'invalid configuration: more than one authentication method found for u; found [token basicAuth], only one is allowed'],
  ['several errors are bracketed', config({ server: 'https://h', 'certificate-authority': 'ca.crt', 'certificate-authority-data': b64('x') },
    { 'client-certificate-data': b64('C') }),
  'invalid configuration: [client-key-data or client-key must be specified for u to use the clientCert authentication method., ' +
    'certificate-authority-data and certificate-authority are both specified for c. certificate-authority-data will override.]'],
  ['CA with insecure', config({ server: 'https://h', 'certificate-authority-data': b64('x'), 'insecure-skip-tls-verify': true }, {}),
    'specifying a root certificates file with the insecure flag is not allowed'],
  ['duplicate names', stringify({ clusters: [{ name: 'a', cluster: {} }, { name: 'a', cluster: {} }] }), /duplicate name "a"/],
  ['not YAML', 'a: [b', /^error loading config: /],
];

for (const [name, text, msg] of bad) {
  test(`rejects: ${name}`, () => {
    assert.throws(() => parseKubeconfig(text, { baseDir: dir }), (err: Error) => {
      assert.ok(err instanceof KubeconfigError);
      if (typeof msg === 'string') assert.equal(err.message, msg);
      else assert.match(err.message, msg);
      return true;
    });
  });
}

test('a missing kubeconfig file names the path', () => {
  assert.throws(() => loadKubeconfig(join(dir, 'nope')), { message: `stat ${join(dir, 'nope')}: no such file or directory` });
});
