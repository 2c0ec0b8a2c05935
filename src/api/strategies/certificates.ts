// certificates.k8s.io/v1 CertificateSigningRequest (pkg/registry/certificates/certificates/strategy.go and
// pkg/apis/certificates/validation): spec is immutable, conditions change only through /approval, the issued
// certificate only through /status. The requester's identity is stamped by admission (it needs the request's user).

import { FieldError } from '../errors.js';
import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';

interface Condition { type?: string; status?: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string }
interface CsrSpec { request?: string; signerName?: string; usages?: string[]; username?: string; groups?: string[]; uid?: string; expirationSeconds?: number }
type Csr = KubeObject & { spec?: CsrSpec; status?: { conditions?: Condition[]; certificate?: string } };

const csr = (o: KubeObject) => o as Csr;

function validateCsr(obj: KubeObject): FieldError[] {
  const { spec, status } = csr(obj);
  const errs: FieldError[] = [];
  if (!spec?.request) errs.push(new FieldError('Required', 'spec.request', '', ''));
  else if (!Buffer.from(spec.request, 'base64').toString().includes('-----BEGIN CERTIFICATE REQUEST-----')) {
    errs.push(new FieldError('Invalid', 'spec.request', '<omitted>', 'PEM block type must be CERTIFICATE REQUEST'));
  }
  if (!spec?.signerName) errs.push(new FieldError('Required', 'spec.signerName', '', ''));
  else if (!/^[a-z0-9.-]+\/[a-zA-Z0-9.-]+$/.test(spec.signerName)) {
    errs.push(new FieldError('Invalid', 'spec.signerName', spec.signerName, 'must be a fully qualified domain and path of the form \'example.com/signer-name\''));
  }
  if (spec?.expirationSeconds !== undefined && spec.expirationSeconds < 600) {
    errs.push(new FieldError('Invalid', 'spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  const types = new Set((status?.conditions ?? []).map((c) => c.type));
  if (types.has('Approved') && types.has('Denied')) {
    errs.push(new FieldError('Invalid', 'status.conditions', 'Approved', 'Approved and Denied conditions are mutually exclusive'));
  }
  return errs;
}

export const certificateSigningRequestStrategy = {
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx): void {
    const n = csr(obj);
    const o = csr(old);
    // Every write keeps the spec (it is what was asked for).
    n.spec = o.spec;
    if (ctx.subresource === 'approval') n.status = { ...n.status, certificate: o.status?.certificate };
    else if (ctx.subresource === 'status') n.status = { ...n.status, conditions: o.status?.conditions };
    else n.status = o.status;
    for (const c of n.status?.conditions ?? []) c.status ??= 'True';
  },
  validate: validateCsr,
  validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    const n = csr(obj).status;
    const o = csr(old).status;
    // The certificate, once issued, stays (strategy.go: "updates may not change the certificate").
    if (o?.certificate && n?.certificate !== o.certificate) return [new FieldError('Forbidden', 'status.certificate', '', 'updates may not modify existing certificate content')];
    return [];
  },
  fieldSelectors: { 'spec.signerName': (o: KubeObject) => csr(o).spec?.signerName },
} satisfies Strategy;
