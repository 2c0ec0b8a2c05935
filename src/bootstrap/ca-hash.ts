// kubeadm's CA pin (cmd/kubeadm/app/util/pubkeypin): "sha256:" + hex SHA-256 of the CA's DER SubjectPublicKeyInfo.

import { createHash, X509Certificate } from 'node:crypto';

export function caCertHash(pem: string): string {
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

/** Whether any certificate in a PEM bundle matches one of the pins (kubeadm accepts several). */
export function caMatchesPins(pemBundle: string, pins: string[]): boolean {
  const certs = pemBundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const want = new Set(pins.map((p) => p.toLowerCase()));
  return certs.some((c) => want.has(caCertHash(c)));
}
