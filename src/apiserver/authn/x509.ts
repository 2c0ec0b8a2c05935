// The client-certificate authenticator (apiserver pkg/authentication/request/x509): CN is the user name, each O a
// group, for a certificate the TLS handshake verified against the cluster CA.

import { NO_OPINION, type AuthnRequest, type AuthnResult, type RequestAuthenticator } from './interfaces.js';

export const NAME = 'x509';

export function x509Authenticator(): RequestAuthenticator {
  return {
    name: NAME,
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const cert = req.clientCertificate;
      if (!cert?.cn) return NO_OPINION;
      return { code: 'Authenticated', user: { name: cert.cn, groups: [...cert.orgs] } };
    },
  };
}
