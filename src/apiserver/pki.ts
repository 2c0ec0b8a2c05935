// Certificates for a cluster: a self-signed CA, the API server's serving certificate and client certificates
// (CN = user, O = groups, as kube-apiserver's x509 authenticator reads them). Generated once per data directory.

import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCertificate, subjectOf } from './x509.js';

export interface CertPair {
  cert: string;
  key: string;
}

export interface ClusterPki {
  ca: CertPair;
  server: CertPair;
  admin: CertPair;
  /** The API server's client certificate towards kubelets (kube-apiserver --kubelet-client-certificate). */
  kubeletClient: CertPair;
  /** The node agents' kubelet serving certificate (loopback addresses; kubelets serve on 127.0.0.1). */
  kubeletServer: CertPair;
}

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/**
 * ECDSA P-256 keys, as kubeadm makes with --encryption-algorithm=ECDSA-P256: generating one takes about a
 * millisecond, where an RSA-2048 key took ~300 ms (three of them were most of a cold `winkube up`). kubectl, the
 * Python client and Node's TLS all accept them.
 */
function newKey(): { privateKey: KeyObject; publicKey: KeyObject; pem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, publicKey, pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

function validity(): { notBefore: Date; notAfter: Date } {
  // A minute back, so a client whose clock is slightly behind still accepts a fresh certificate.
  return { notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + TEN_YEARS_MS) };
}

export function createCa(cn = 'winkube-ca'): CertPair {
  const k = newKey();
  const cert = buildCertificate({
    publicKey: k.publicKey, signingKey: k.privateKey, subject: { cn }, ...validity(), subjectKeyId: true,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert, key: k.pem };
}

/** A leaf certificate signed by `ca` (whose key may be RSA, in data directories made by older builds). */
export function issueCert(ca: CertPair, opts: { cn: string; orgs?: string[]; server?: { dns: string[]; ips: string[] } }): CertPair {
  const k = newKey();
  const extensions: object[] = [
    { name: 'basicConstraints', cA: false, critical: true },
    // keyEncipherment only means something for RSA keys; an ECDSA key signs (digitalSignature).
    { name: 'keyUsage', digitalSignature: true, critical: true },
    { name: 'extKeyUsage', serverAuth: !!opts.server, clientAuth: !opts.server },
  ];
  if (opts.server) {
    extensions.push({
      name: 'subjectAltName',
      altNames: [...opts.server.dns.map((value) => ({ type: 2, value })), ...opts.server.ips.map((ip) => ({ type: 7, ip }))],
    });
  }
  const cert = buildCertificate({
    publicKey: k.publicKey, signingKey: createPrivateKey(ca.key), subject: { cn: opts.cn, orgs: opts.orgs },
    issuer: subjectOf(ca.cert), ...validity(), extensions,
  });
  return { cert, key: k.pem };
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
  const kubeletClient = pair('apiserver-kubelet-client', () => issueCert(ca, { cn: 'kube-apiserver-kubelet-client', orgs: ['system:masters'] }));
  const kubeletServer = pair('kubelet', () => issueCert(ca, { cn: 'winkube-kubelet', server: { dns: ['localhost'], ips: ['127.0.0.1', '::1'] } }));
  return { ca, server, admin, kubeletClient, kubeletServer };
}
