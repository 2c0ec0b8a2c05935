// Stamps who asked for a certificate on a new CertificateSigningRequest (pkg/registry/certificates/certificates
// strategy.go PrepareForCreate: spec.username, uid, groups and extra come from the request, never from the body).

import type { AdmissionPlugin } from './interfaces.js';

export const NAME = 'CertificateSigningRequestRequester';

export function certificateSigningRequestRequester(): AdmissionPlugin {
  return {
    name: NAME,
    admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.subresource || attrs.decl.group !== 'certificates.k8s.io' || attrs.decl.plural !== 'certificatesigningrequests') return;
      const obj = attrs.object as { spec?: Record<string, unknown> } | undefined;
      if (!obj) return;
      const spec = (obj.spec ??= {});
      spec.username = attrs.user.name;
      spec.groups = [...attrs.user.groups];
      delete spec.uid;
      delete spec.extra;
    },
  };
}
