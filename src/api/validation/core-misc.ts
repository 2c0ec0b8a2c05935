// Validation for the smaller core/v1 kinds: Namespace, Node, ConfigMap, Secret, ServiceAccount
// (kubernetes pkg/apis/core/validation/validation.go).

import type { ConfigMap, Namespace, Node, Secret, ServiceAccount, Taint } from 'kubernetes-types/core/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { validateLabelName } from './labels.js';
import type { KubeObject, ObjectMeta } from '../types.js';
import { isConfigMapKey, isQualifiedName, isValidLabelValue, nameIsDNSLabel, nameIsDNSSubdomain } from './names.js';
import { deepEqual, validateObjectMeta } from './object-meta.js';
import { validateTaintEffect } from './pod-spec.js';

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
