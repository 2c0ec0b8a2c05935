// Certificates for a cluster: a self-signed CA, the API server's serving certificate and client certificates
// (CN = user, O = groups, as kube-apiserver's x509 authenticator reads them). Generated once per data directory.

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

export interface CertPair {
  cert: string;
  key: string;
}

export interface ClusterPki {
  ca: CertPair;
  server: CertPair;
  admin: CertPair;
}

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

function newKey(): { pem: string; forgeKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  // Node's native RSA key generation is ~100x faster than forge's pure-JS one.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem);
  return { pem, forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

function baseCert(publicKey: forge.pki.rsa.PublicKey, cn: string, orgs: string[]): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + TEN_YEARS_MS);
  cert.setSubject([{ name: 'commonName', value: cn }, ...orgs.map((o) => ({ name: 'organizationName', value: o }))]);
  return cert;
}

export function createCa(cn = 'winkube-ca'): CertPair {
  const k = newKey();
  const cert = baseCert(k.publicKey, cn, []);
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(k.forgeKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: k.pem };
}

export function issueCert(ca: CertPair, opts: { cn: string; orgs?: string[]; server?: { dns: string[]; ips: string[] } }): CertPair {
  const k = newKey();
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const caKey = forge.pki.privateKeyFromPem(ca.key);
  const cert = baseCert(k.publicKey, opts.cn, opts.orgs ?? []);
  cert.setIssuer(caCert.subject.attributes);
  const ext: object[] = [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: !!opts.server, clientAuth: !opts.server },
  ];
  if (opts.server) {
    ext.push({
      name: 'subjectAltName',
      altNames: [...opts.server.dns.map((value) => ({ type: 2, value })), ...opts.server.ips.map((ip) => ({ type: 7, ip }))],
    });
  }
  cert.setExtensions(ext);
  cert.sign(caKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: k.pem };
}

export const SERVER_DNS = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];

/** Loads the cluster's certificates from `<dir>/pki`, creating any that are missing. */
export function loadOrCreatePki(dir: string, serverIps: string[]): ClusterPki {
  const pki = join(dir, 'pki');
  mkdirSync(pki, { recursive: true, mode: 0o700 });
  const pair = (name: string, make: () => CertPair): CertPair => {
    const certPath = join(pki, `${name}.crt`);
    const keyPath = join(pki, `${name}.key`);
    if (existsSync(certPath) && existsSync(keyPath)) return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
    const p = make();
    writeFileSync(keyPath, p.key, { mode: 0o600 });
    writeFileSync(certPath, p.cert);
    return p;
  };
  const ca = pair('ca', () => createCa());
  const server = pair('apiserver', () => issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: serverIps } }));
  const admin = pair('admin', () => issueCert(ca, { cn: 'kubernetes-admin', orgs: ['system:masters'] }));
  return { ca, server, admin };
}
