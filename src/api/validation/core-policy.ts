// Validation for Endpoints, LimitRange and ResourceQuota (kubernetes pkg/apis/core/validation/validation.go
// validateEndpointSubsets, ValidateLimitRange, ValidateResourceQuota).

import { isIP } from 'node:net';
import type { EndpointSubset, LimitRange, ResourceQuota } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { formatQuantity, type Quantity } from '../quantity.js';
import type { ObjectMeta } from '../types.js';
import { SUPPORTED_PORT_PROTOCOLS, validateDNS1123Label } from './containers.js';
import { isDNS1123Subdomain, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import { parseQuantityField, STANDARD_QUOTA_RESOURCES, validateResourceName, validateResourceQuantityValue } from './resources.js';
import { INVALID_IP } from './service.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;

/** validateEndpointSubsets. */
export function validateEndpoints(ep: { metadata?: unknown; subsets?: EndpointSubset[] }): FieldError[] {
  const errs = validateObjectMeta(meta(ep), nameIsDNSSubdomain);
  (ep.subsets ?? []).forEach((ss, i) => {
    const at = `subsets[${i}]`;
    if (!ss.addresses?.length && !ss.notReadyAddresses?.length) errs.push(fieldErr.required(at, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [field, list] of [['addresses', ss.addresses], ['notReadyAddresses', ss.notReadyAddresses]] as const) {
      (list ?? []).forEach((a, j) => {
        const ap = `${at}.${field}[${j}]`;
        if (!isIP(a.ip ?? '')) errs.push(fieldErr.invalid(`${ap}.ip`, a.ip ?? '', INVALID_IP));
        if (a.hostname) errs.push(...validateDNS1123Label(a.hostname, `${ap}.hostname`));
        if (a.nodeName) for (const m of isDNS1123Subdomain(a.nodeName)) errs.push(fieldErr.invalid(`${ap}.nodeName`, a.nodeName, m));
      });
    }
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => {
      const pp = `${at}.ports[${j}]`;
      if (ports.length > 1 && !p.name) errs.push(fieldErr.required(`${pp}.name`));
      else if (p.name) errs.push(...validateDNS1123Label(p.name, `${pp}.name`));
      for (const m of isValidPortNum(p.port)) errs.push(fieldErr.invalid(`${pp}.port`, p.port ?? 0, m));
      if (!p.protocol) errs.push(fieldErr.required(`${pp}.protocol`));
      else if (!SUPPORTED_PORT_PROTOCOLS.includes(p.protocol)) errs.push(fieldErr.notSupported(`${pp}.protocol`, p.protocol, SUPPORTED_PORT_PROTOCOLS));
    });
  });
  return errs;
}

const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

/** ValidateLimitRange: type names, and min <= defaultRequest <= default <= max per resource. */
export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs = validateObjectMeta(meta(lr), nameIsDNSSubdomain);
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const at = `spec.limits[${i}]`;
    const type = item.type ?? '';
    for (const m of isQualifiedName(type)) errs.push(fieldErr.invalid(`${at}.type`, type, m));
    if (type && !type.includes('/') && !LIMIT_TYPES.has(type)) errs.push(fieldErr.invalid(`${at}.type`, type, 'must be a standard limit type or fully qualified'));
    if (types.has(type)) errs.push(fieldErr.duplicate(`${at}.type`, type));
    types.add(type);
    const parsed: Record<string, Map<string, Quantity>> = {};
    for (const field of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const) {
      parsed[field] = new Map();
      for (const [k, raw] of Object.entries(item[field] ?? {})) {
        const p = `${at}.${field}[${k}]`;
        errs.push(...validateResourceName(k, p));
        const q = parseQuantityField(raw, p, errs);
        if (q) parsed[field].set(k, q);
      }
    }
    if (type === 'Pod') {
      if (Object.keys(item.default ?? {}).length) errs.push(fieldErr.forbidden(`${at}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(item.defaultRequest ?? {}).length) errs.push(fieldErr.forbidden(`${at}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    }
    const keys = new Set(Object.values(parsed).flatMap((m) => [...m.keys()]));
    const f = formatQuantity;
    for (const k of [...keys].sort()) {
      const min = parsed.min.get(k), max = parsed.max.get(k), def = parsed.default.get(k), dreq = parsed.defaultRequest.get(k);
      const ratio = parsed.maxLimitRequestRatio.get(k);
      const gt = (a: Quantity, b: Quantity) => a.nano > b.nano;
      if (min && max && gt(min, max)) errs.push(fieldErr.invalid(`${at}.min[${k}]`, f(min), `min value ${f(min)} is greater than max value ${f(max)}`));
      if (dreq && min && gt(min, dreq)) errs.push(fieldErr.invalid(`${at}.defaultRequest[${k}]`, f(dreq), `min value ${f(min)} is greater than default request value ${f(dreq)}`));
      if (dreq && max && gt(dreq, max)) errs.push(fieldErr.invalid(`${at}.defaultRequest[${k}]`, f(dreq), `default request value ${f(dreq)} is greater than max value ${f(max)}`));
      if (dreq && def && gt(dreq, def)) errs.push(fieldErr.invalid(`${at}.defaultRequest[${k}]`, f(dreq), `default request value ${f(dreq)} is greater than default limit value ${f(def)}`));
      if (def && min && gt(min, def)) errs.push(fieldErr.invalid(`${at}.default[${k}]`, f(min), `min value ${f(min)} is greater than default value ${f(def)}`));
      if (def && max && gt(def, max)) errs.push(fieldErr.invalid(`${at}.default[${k}]`, f(max), `default value ${f(def)} is greater than max value ${f(max)}`));
      if (ratio && ratio.nano < 1_000_000_000n) errs.push(fieldErr.invalid(`${at}.maxLimitRequestRatio[${k}]`, f(ratio), `ratio ${f(ratio)} is less than 1`));
    }
  });
  return errs;
}

/** ValidateResourceQuota: standard quota resource names with valid quantities. */
export function validateResourceQuota(rq: ResourceQuota): FieldError[] {
  const errs = validateObjectMeta(meta(rq), nameIsDNSSubdomain);
  const check = (list: Record<string, string> | undefined, path: string) => {
    for (const k of Object.keys(list ?? {}).sort()) {
      const p = `${path}[${k}]`;
      errs.push(...validateResourceName(k, p));
      if (!k.includes('/') && !STANDARD_QUOTA_RESOURCES.has(k) && !k.startsWith('hugepages-') && !k.startsWith('requests.hugepages-')) {
        errs.push(fieldErr.invalid(p, k, 'must be a standard resource for quota'));
      }
      const q = parseQuantityField(list![k], p, errs);
      if (q) errs.push(...validateResourceQuantityValue(k, q, p));
    }
  };
  check(rq.spec?.hard, 'spec.hard');
  check(rq.status?.hard, 'status.hard');
  check(rq.status?.used, 'status.used');
  return errs;
}
