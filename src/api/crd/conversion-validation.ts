// Validation of a CRD's spec.conversion with kube's internal field paths (webhookClientConfig, conversionReviewVersions)
// and messages (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go validateCustomResourceConversion;
// the URL, service and CA bundle rules are staging/src/k8s.io/apiserver/pkg/util/webhook/validation.go).

import { X509Certificate } from 'node:crypto';
import { FieldError, fieldErr } from '../errors.js';
import { validateWebhookService, validateWebhookURL } from '../validation/admission-registration.js';
import { GoValue } from '../validation/go-value.js';
import { isDNS1035Label } from '../validation/names.js';
import { goStrings } from '../validation/object-meta.js';
import type { Crd, CrdConversion } from './types.js';

/** The ConversionReview versions this server speaks (acceptedConversionReviewVersions). */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const STRATEGIES = ['None', 'Webhook'];
const PATH = 'spec.conversion';

/** `%#v` of a []byte, as field.Invalid prints a caBundle. */
const goBytes = (b: Buffer) => new GoValue(b.toString('base64'), `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`);

/** cert.ParseCertsPEM: at least one CERTIFICATE block, each one a parseable certificate. */
export function caBundleError(bundle: Buffer): string | undefined {
  const blocks = [...bundle.toString('latin1').matchAll(/-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g)];
  let certs = 0;
  for (const [, type, body] of blocks) {
    if (type !== 'CERTIFICATE') continue;
    try {
      new X509Certificate(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
    } catch {
      return 'x509: malformed certificate';
    }
    certs++;
  }
  return certs ? undefined : 'data does not contain any valid RSA or ECDSA certificates';
}

function validateReviewVersions(versions: string[] | undefined): FieldError[] {
  const path = `${PATH}.conversionReviewVersions`;
  const list = versions ?? [];
  if (!list.length) return [fieldErr.required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErr.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(fieldErr.invalid(`${path}[${i}]`, v, m));
  });
  if (!list.some((v) => CONVERSION_REVIEW_VERSIONS.includes(v))) {
    errs.push(fieldErr.invalid(path, goStrings(list), `must include at least one of ${CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

/**
 * spec.conversion on create and update. The caBundle is checked apart (caBundleErrors), on updates only: kube allows
 * an invalid one on create and while the old CRD is not Established or already had one (allowInvalidCABundle).
 */
export function validateConversion(crd: Crd): FieldError[] {
  const conv: CrdConversion | undefined = crd.spec?.conversion;
  if (!conv) return [];
  const errs: FieldError[] = [];
  // v1 defaults preserveUnknownFields to false; only an explicit true forbids a converter.
  if (conv.strategy !== 'None' && crd.spec.preserveUnknownFields === true) {
    errs.push(fieldErr.invalid(`${PATH}.strategy`, conv.strategy ?? '', 'must be None if spec.preserveUnknownFields is true'));
  }
  if (!conv.strategy) errs.push(fieldErr.required(`${PATH}.strategy`));
  else if (!STRATEGIES.includes(conv.strategy)) errs.push(fieldErr.notSupported(`${PATH}.strategy`, conv.strategy, STRATEGIES));
  const cc = conv.webhook?.clientConfig;
  const ccPath = `${PATH}.webhookClientConfig`;
  if (conv.strategy === 'Webhook') {
    if (!cc) errs.push(fieldErr.required(ccPath, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldErr.required(ccPath, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(`${ccPath}.url`, cc.url));
      else errs.push(...validateWebhookService(`${ccPath}.service`, cc.service!));
    }
    errs.push(...validateReviewVersions(conv.webhook?.conversionReviewVersions));
  } else {
    if (cc) errs.push(fieldErr.forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (conv.webhook?.conversionReviewVersions?.length) {
      errs.push(fieldErr.forbidden(`${PATH}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}

/** ValidateCABundle of a Webhook conversion's caBundle. */
export function caBundleErrors(crd: Crd): FieldError[] {
  const conv = crd.spec?.conversion;
  const bundle = conv?.strategy === 'Webhook' ? conv.webhook?.clientConfig?.caBundle : undefined;
  if (!bundle) return [];
  const bytes = Buffer.from(bundle, 'base64');
  const bad = caBundleError(bytes);
  return bad ? [fieldErr.invalid(`${PATH}.webhookClientConfig.caBundle`, goBytes(bytes), bad)] : [];
}

/** allowInvalidCABundle's inverse: an Established CRD whose bundle was valid must keep a valid one. */
export function mustKeepValidCaBundle(old: Crd): boolean {
  if (!old.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return false;
  const bundle = old.spec?.conversion?.webhook?.clientConfig?.caBundle;
  if (!bundle) return true;
  return caBundleError(Buffer.from(bundle, 'base64')) === undefined;
}
