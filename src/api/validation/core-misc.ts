// Validation for the smaller core/v1 kinds: Namespace, Node, ConfigMap, Secret, ServiceAccount, Endpoints,
// LimitRange, ResourceQuota (kubernetes pkg/apis/core/validation/validation.go).

import { isIP } from 'node:net';
import type {
  ConfigMap, EndpointSubset, LimitRange, Namespace, Node, ResourceQuota, Secret, ServiceAccount, Taint,
} from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { validateLabelName } from '../labels.js';
import { formatQuantity, type Quantity } from '../quantity.js';
import type { KubeObject, ObjectMeta } from '../types.js';
import { SUPPORTED_PORT_PROTOCOLS, validateDNS1123Label } from './containers.js';
import { isConfigMapKey, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPortNum, nameIsDNSLabel, nameIsDNSSubdomain } from './names.js';
import { deepEqual, validateObjectMeta } from './object-meta.js';
import { validateTaintEffect } from './pod-spec.js';
import { parseQuantityField, STANDARD_QUOTA_RESOURCES, validateResourceName, validateResourceQuantityValue } from './resources.js';
import { INVALID_IP } from './service.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;
export const MAX_SECRET_SIZE = 1024 * 1024;
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** ValidateNamespace: a DNS label name; spec.finalizers standard or fully qualified. */
export function validateNamespace(ns: Namespace): FieldError[] {
  const errs = validateObjectMeta(meta(ns), nameIsDNSLabel);
  for (const f of ns.spec?.finalizers ?? []) {
    for (const m of isQualifiedName(f)) errs.push(fieldErr.invalid('spec.finalizers', f, m));
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push(fieldErr.invalid('spec.finalizers', f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

/** ValidateNamespaceStatusUpdate: the phase follows deletionTimestamp. */
export function validateNamespaceStatus(ns: Namespace): FieldError[] {
  const phase = ns.status?.phase ?? '';
  if (!ns.metadata?.deletionTimestamp) {
    return phase === 'Active' ? [] : [fieldErr.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [fieldErr.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** validateNodeTaints: keys, values, effects, unique by key and effect. */
function validateTaints(taints: Taint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((t, i) => {
    const at = `${path}[${i}]`;
    errs.push(...validateLabelName(t.key, `${at}.key`));
    const vm = isValidLabelValue(t.value ?? '');
    if (vm.length) errs.push(fieldErr.invalid(`${at}.value`, t.value ?? '', vm.join(';')));
    errs.push(...validateTaintEffect(t.effect, false, `${at}.effect`));
    const key = `${t.effect}\u0000${t.key}`;
    if (seen.has(key)) errs.push(new FieldError('Duplicate', at, t, 'taints must be unique by key and effect pair'));
    seen.add(key);
  });
  return errs;
}

/** ValidateNode. */
export function validateNode(node: Node): FieldError[] {
  const errs = validateObjectMeta(meta(node), nameIsDNSSubdomain);
  errs.push(...validateTaints(node.spec?.taints, 'spec.taints'));
  return errs;
}

/** ValidateNodeUpdate: podCIDRs and providerID may only go from unset to set. */
export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = validateNode(node).filter((e) => !e.field.startsWith('metadata.'));
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  if (oldCIDRs.length > 0 && !deepEqual(oldCIDRs, node.spec?.podCIDRs ?? [])) {
    errs.push(fieldErr.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  if (old.spec?.providerID && old.spec.providerID !== node.spec?.providerID) {
    errs.push(fieldErr.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
}

/** Byte length of a base64 `data` value once decoded. */
const decodedLength = (b64: string) => Buffer.from(b64, 'base64').length;

/** ValidateConfigMap. */
export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = validateObjectMeta(meta(cm), nameIsDNSSubdomain);
  let total = 0;
  for (const [k, v] of Object.entries(cm.data ?? {})) {
    for (const m of isConfigMapKey(k)) errs.push(fieldErr.invalid(`data[${k}]`, k, m));
    if (cm.binaryData && k in cm.binaryData) errs.push(fieldErr.invalid(`data[${k}]`, k, 'duplicate of key present in binaryData'));
    total += Buffer.byteLength(v);
  }
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) {
    for (const m of isConfigMapKey(k)) errs.push(fieldErr.invalid(`binaryData[${k}]`, k, m));
    if (cm.data && k in cm.data) errs.push(fieldErr.invalid(`binaryData[${k}]`, k, 'duplicate of key present in data'));
    total += decodedLength(v);
  }
  if (total > MAX_SECRET_SIZE) errs.push(fieldErr.tooLong('', '', MAX_SECRET_SIZE));
  return errs;
}

/** Immutable ConfigMaps and Secrets: `immutable` stays true and the payload fields stay as they are. */
export function validateImmutablePayload(obj: KubeObject, old: KubeObject, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(fieldErr.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) if (!deepEqual(obj[f], old[f])) errs.push(fieldErr.forbidden(f, 'field is immutable when `immutable` is set'));
  return errs;
}

/** ValidateSecret, with the per-type required keys. */
export function validateSecret(s: Secret): FieldError[] {
  const errs = validateObjectMeta(meta(s), nameIsDNSSubdomain);
  const data = s.data ?? {};
  let total = 0;
  for (const [k, v] of Object.entries(data)) {
    for (const m of isConfigMapKey(k)) errs.push(fieldErr.invalid(`data[${k}]`, k, m));
    total += decodedLength(v);
  }
  if (total > MAX_SECRET_SIZE) errs.push(fieldErr.tooLong('data', '', MAX_SECRET_SIZE));
  const need = (key: string) => { if (!(key in data)) errs.push(fieldErr.required(`data[${key}]`)); };
  const jsonKey = (key: string) => {
    if (!(key in data)) { errs.push(fieldErr.required(`data[${key}]`)); return; }
    try { JSON.parse(Buffer.from(data[key], 'base64').toString('utf8')); } catch (e) {
      errs.push(fieldErr.invalid(`data[${key}]`, '<secret contents redacted>', (e as Error).message));
    }
  };
  switch (s.type) {
    case 'kubernetes.io/service-account-token':
      if (!s.metadata?.annotations?.['kubernetes.io/service-account.name']) {
        errs.push(fieldErr.required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    case 'kubernetes.io/dockercfg': jsonKey('.dockercfg'); break;
    case 'kubernetes.io/dockerconfigjson': jsonKey('.dockerconfigjson'); break;
    case 'kubernetes.io/basic-auth':
      if (!('username' in data) && !('password' in data)) { need('username'); need('password'); }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data['ssh-privatekey']) errs.push(fieldErr.required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls': need('tls.crt'); need('tls.key'); break;
  }
  return errs;
}

export function validateServiceAccount(sa: ServiceAccount): FieldError[] {
  return validateObjectMeta(meta(sa), nameIsDNSSubdomain);
}

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
