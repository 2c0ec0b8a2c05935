// Transport failures in the words Go's net/http and crypto/tls use, since kube-apiserver's messages embed them
// (`Post "https://…": dial tcp 10.244.1.5:443: connect: connection refused`, `… x509: certificate signed by unknown
// authority`, `context deadline exceeded`).

import type { PeerCertificate } from 'node:tls';

/** A failure whose message is already the Go text. */
export class EgressError extends Error {
  constructor(message: string, readonly kind: 'dial' | 'tls' | 'timeout' | 'io' = 'io') {
    super(message);
    this.name = 'EgressError';
  }
}

export const DEADLINE_EXCEEDED = 'context deadline exceeded';

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_SIGNATURE_FAILURE',
]);

/** x509.HostnameError: the names the certificate is valid for, or the legacy Common Name complaint. */
function hostnameError(cert: PeerCertificate | undefined, host: string): string {
  const names = (cert?.subjectaltname ?? '').split(', ').filter(Boolean).map((s) => s.replace(/^(DNS|IP Address):/, ''));
  if (!names.length) return 'x509: certificate relies on legacy Common Name field, use SANs instead';
  return `x509: certificate is valid for ${names.join(', ')}, not ${host}`;
}

/** Translates a Node socket/TLS error for a connection to `addr` (host:port) named `host` in TLS. */
export function goTransportError(err: unknown, addr: string, host: string): EgressError {
  if (err instanceof EgressError) return err;
  const e = err as NodeJS.ErrnoException & { cert?: PeerCertificate };
  const verify = (msg: string) => new EgressError(`tls: failed to verify certificate: ${msg}`, 'tls');
  switch (e.code) {
    case 'ECONNREFUSED': return new EgressError(`dial tcp ${addr}: connect: connection refused`, 'dial');
    case 'EHOSTUNREACH': case 'ENETUNREACH': return new EgressError(`dial tcp ${addr}: connect: no route to host`, 'dial');
    case 'ENOTFOUND': case 'EAI_AGAIN': return new EgressError(`dial tcp: lookup ${host}: no such host`, 'dial');
    case 'ETIMEDOUT': case 'ABORT_ERR': return new EgressError(DEADLINE_EXCEEDED, 'timeout');
    case 'ECONNRESET': return new EgressError(`read tcp ${addr}: read: connection reset by peer`);
    case 'ERR_TLS_CERT_ALTNAME_INVALID': return verify(hostnameError(e.cert, host));
    case 'CERT_HAS_EXPIRED': return verify('x509: certificate has expired or is not yet valid');
    case 'CERT_NOT_YET_VALID': return verify('x509: certificate has expired or is not yet valid');
  }
  if (e.code && UNKNOWN_AUTHORITY.has(e.code)) return verify('x509: certificate signed by unknown authority');
  if (e.message === 'socket hang up') return new EgressError('EOF');
  return new EgressError(e.message ?? String(err));
}
