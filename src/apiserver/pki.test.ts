// The cluster PKI: ECDSA certificates that chain to the CA, with the names and usages TLS clients check, signed by
// an RSA CA too (data directories made before the switch keep theirs).

import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { describe, it } from 'node:test';
import { createCa, issueCert, loadOrCreatePki, SERVER_DNS } from './pki.js';
import { buildCertificate } from './x509.js';

describe('cluster PKI', () => {
  it('issues an ECDSA CA, serving and client certificates that chain and carry the expected names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wk-pki-'));
    try {
      const pki = loadOrCreatePki(dir, ['127.0.0.1', '10.96.0.1']);
      const ca = new X509Certificate(pki.ca.cert);
      const server = new X509Certificate(pki.server.cert);
      const admin = new X509Certificate(pki.admin.cert);
      assert.ok(ca.ca && ca.verify(ca.publicKey), 'self-signed CA');
      assert.equal(ca.publicKey.asymmetricKeyType, 'ec');
      for (const leaf of [server, admin]) {
        assert.ok(leaf.verify(ca.publicKey) && leaf.checkIssued(ca), leaf.subject);
        assert.equal(leaf.ca, false);
      }
      assert.equal(server.subject, 'CN=kube-apiserver');
      assert.ok(server.checkHost('kubernetes.default.svc.cluster.local') && server.checkIP('10.96.0.1'));
      assert.equal(server.subjectAltName, [...SERVER_DNS.map((d) => `DNS:${d}`), 'IP Address:127.0.0.1', 'IP Address:10.96.0.1'].join(', '));
      // kube-apiserver's x509 authenticator: CN is the user, O the groups.
      assert.equal(admin.subject, 'CN=kubernetes-admin\nO=system:masters');
      assert.deepEqual(admin.keyUsage, ['1.3.6.1.5.5.7.3.2']);
      assert.deepEqual(server.keyUsage, ['1.3.6.1.5.5.7.3.1']);
      // A second load reads the same files instead of making new ones.
      assert.equal(loadOrCreatePki(dir, ['127.0.0.1']).server.cert, pki.server.cert);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an RSA CA (from an older data directory) still signs new leaves, with sha256WithRSAEncryption', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = Date.now();
    const rsaCa = {
      cert: buildCertificate({
        publicKey, signingKey: privateKey, subject: { cn: 'old-ca' }, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000),
        extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, critical: true }],
      }),
      key: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    };
    const leaf = new X509Certificate(issueCert(rsaCa, { cn: 'someone', orgs: ['a', 'b'] }).cert);
    const ca = new X509Certificate(rsaCa.cert);
    assert.ok(leaf.verify(ca.publicKey) && leaf.checkIssued(ca));
    assert.equal(leaf.issuer, 'CN=old-ca');
    assert.equal(leaf.subject, 'CN=someone\nO=a\nO=b');
  });

  it('completes a mutual-TLS handshake: the client trusts the server, the server reads the client certificate', async () => {
    const ca = createCa();
    const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: ['localhost'], ips: ['127.0.0.1'] } });
    const client = issueCert(ca, { cn: 'jane', orgs: ['devs'] });
    const srv = createServer({ cert: server.cert, key: server.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (s) => {
      s.end(JSON.stringify((s as TLSSocket).getPeerCertificate().subject));
    });
    srv.listen(0, '127.0.0.1');
    await once(srv, 'listening');
    try {
      const port = (srv.address() as { port: number }).port;
      const sock = connect({ host: '127.0.0.1', port, ca: ca.cert, cert: client.cert, key: client.key, servername: 'localhost' });
      let text = '';
      sock.on('data', (d: Buffer) => (text += d.toString()));
      await once(sock, 'end');
      assert.deepEqual(JSON.parse(text), { CN: 'jane', O: 'devs' });
    } finally {
      srv.close();
    }
  });
});
