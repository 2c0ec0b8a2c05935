// Validation of apiregistration.k8s.io/v1 APIService with kube-aggregator's paths and messages
// (staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/validation/validation.go).

import { fieldErr, type FieldError } from '../errors.js';
import type { KubeObject } from '../types.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum, nameIsPathSegment } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

export interface ApiServiceSpec {
  service?: { namespace?: string; name?: string; port?: number } | null;
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  /** Base64 of the PEM bundle, as JSON carries []byte. */
  caBundle?: string;
  groupPriorityMinimum?: number;
  versionPriority?: number;
}

export interface ApiServiceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export type ApiService = KubeObject & { spec?: ApiServiceSpec; status?: { conditions?: ApiServiceCondition[] } };

/** The length in bytes of a []byte field sent as base64 (the validator reports `N bytes`). */
function byteLength(b64: string): number {
  return Buffer.from(b64, 'base64').length;
}

/** ValidateAPIService. */
export function validateApiService(obj: KubeObject): FieldError[] {
  const svc = obj as ApiService;
  const spec = svc.spec ?? {};
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const requiredName = `${version}.${group}`;
  const errs = validateObjectMeta(svc.metadata, (name, prefix) => {
    const minimal = nameIsPathSegment(name, prefix);
    if (minimal.length) return minimal;
    // The name *must* be version.group: it is how the aggregator finds the APIService for a request.
    return name === requiredName ? [] : [`must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`];
  });
  if (!group && version !== 'v1') errs.push(fieldErr.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) for (const msg of isDNS1123Subdomain(group)) errs.push(fieldErr.invalid('spec.group', group, msg));
  for (const msg of isDNS1035Label(version)) errs.push(fieldErr.invalid('spec.version', version, msg));
  const gpm = spec.groupPriorityMinimum ?? 0;
  if (gpm <= 0 || gpm > 20000) errs.push(fieldErr.invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
  const vp = spec.versionPriority ?? 0;
  if (vp <= 0 || vp > 1000) errs.push(fieldErr.invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  if (!spec.service) {
    if (spec.caBundle) errs.push(fieldErr.invalid('spec.caBundle', `${byteLength(spec.caBundle)} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) errs.push(fieldErr.invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (!spec.service.namespace) errs.push(fieldErr.required('spec.service.namespace'));
  if (!spec.service.name) errs.push(fieldErr.required('spec.service.name'));
  const port = spec.service.port ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(fieldErr.invalid('spec.service.port', port, `port is not valid: ${portErrs.join(', ')}`));
  if (spec.insecureSkipTLSVerify && spec.caBundle) errs.push(fieldErr.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

/** ValidateAPIServiceUpdate: metadata rules of an update, then everything of a create. */
export function validateApiServiceUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateApiService(obj).filter((e) => !e.field.startsWith('metadata.'))];
}

/** ValidateAPIServiceStatusUpdate: condition statuses are True, False or Unknown. */
export function validateApiServiceStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
  ((obj as ApiService).status?.conditions ?? []).forEach((c, i) => {
    if (!['True', 'False', 'Unknown'].includes(c.status)) errs.push(fieldErr.notSupported(`status.conditions[${i}].status`, c.status, ['True', 'False', 'Unknown']));
  });
  return errs;
}
