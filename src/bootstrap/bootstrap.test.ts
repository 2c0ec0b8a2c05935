import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { createCa, issueCert } from '../apiserver/pki.js';
import { caCertHash, caMatchesPins } from './ca-hash.js';
import { buildCsr, parseCsr } from './csr.js';
import { detachedSignature, detachedSignatureValid } from './jws.js';
import { generateToken, parseToken, tokenFromSecret, tokenSecret, TOKEN_PATTERN } from './token.js';

test('detached JWS: header {"alg","kid"}, no payload, HS256 with the zero-padded secret', () => {
  const sig = detachedSignature('content', 'abcdef', '0123456789abcdef');
  const [header, payload, mac] = sig.split('.');
  assert.equal(Buffer.from(header, 'base64url').toString(), '{"alg":"HS256","kid":"abcdef"}');
  assert.equal(payload, '');
  assert.ok(mac.length > 0);
  assert.ok(detachedSignatureValid(sig, 'content', 'abcdef', '0123456789abcdef'));
  assert.ok(!detachedSignatureValid(sig, 'content!', 'abcdef', '0123456789abcdef'));
  assert.ok(!detachedSignatureValid(sig, 'content', 'abcdef', '0123456789abcdeX'));
});

test('CA pin: sha256 of the public key info; a bundle matches when any certificate does', () => {
  const ca = createCa();
  const other = createCa('other');
  const pin = caCertHash(ca.cert);
  assert.match(pin, /^sha256:[0-9a-f]{64}$/);
  assert.ok(caMatchesPins(other.cert + ca.cert, [pin.toUpperCase().replace('SHA256', 'sha256')]));
  assert.ok(!caMatchesPins(other.cert, [pin]));
  // The pin names the key, not the certificate: a leaf with another key differs.
  assert.notEqual(caCertHash(issueCert(ca, { cn: 'x' }).cert), pin);
});

test('CSR round trip: subject, SANs and key survive; a tampered request is refused', () => {
  for (const type of ['ec', 'rsa'] as const) {
    const { privateKey, publicKey } = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = buildCsr({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['localhost'], ips: ['127.0.0.1', '::1'] }, privateKey);
    const x = parseCsr(pem);
    assert.equal(x.cn, 'system:node:n1');
    assert.deepEqual(x.orgs, ['system:nodes']);
    assert.deepEqual(x.dns, ['localhost']);
    assert.deepEqual(x.ips, ['127.0.0.1', '::1']);
    assert.deepEqual(x.publicKey.export({ type: 'spki', format: 'der' }), publicKey.export({ type: 'spki', format: 'der' }));
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const good = buildCsr({ cn: 'system:node:a' }, privateKey);
  const body = Buffer.from(good.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  body[body.indexOf(Buffer.from('system:node:a')) + 12] = 'b'.charCodeAt(0);
  const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${body.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
  assert.throws(() => parseCsr(tampered), /signature is invalid/);
});

test('bootstrap tokens: format, Secret fields, expiry', () => {
  const t = generateToken();
  assert.match(`${t.id}.${t.secret}`, TOKEN_PATTERN);
  assert.throws(() => parseToken('ABCDEF.0123456789abcdef'), /was not of the form/);
  const now = Date.parse('2026-01-01T00:00:00Z');
  const secret = tokenSecret(t, { now, ttlMs: 3600_000 });
  assert.equal(secret.metadata.name, `bootstrap-token-${t.id}`);
  const data = (secret as unknown as { data: Record<string, string> }).data;
  assert.equal(Buffer.from(data['auth-extra-groups'], 'base64').toString(), 'system:bootstrappers:kubeadm:default-node-token');
  assert.equal(Buffer.from(data.expiration, 'base64').toString(), '2026-01-01T01:00:00Z');
  assert.deepEqual([...tokenFromSecret(secret, now)!.usages].sort(), ['authentication', 'signing']);
  assert.equal(tokenFromSecret(secret, now + 3600_000), undefined);
});
