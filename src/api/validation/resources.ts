// Resource names and quantities: container requests/limits (requests <= limits), quota and limit-range names
// (kubernetes pkg/apis/core/validation/validation.go ValidateResourceRequirements, validateResourceName;
// pkg/apis/core/helper/helpers.go IsNativeResource, IsOvercommitAllowed, IsExtendedResourceName).

import { FieldError, fieldErr } from '../errors.js';
import { compareQuantity, formatQuantity, QUANTITY_FORMAT_ERROR, tryParseQuantity, type Quantity } from '../quantity.js';
import { isQualifiedName } from './names.js';
import { IS_NEGATIVE } from './object-meta.js';

const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
export const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

const isHugePages = (name: string) => name.startsWith('hugepages-');
const isQuotaHugePages = (name: string) => isHugePages(name) || name.startsWith('requests.hugepages-');

/** IsNativeResource: unqualified, or in the kubernetes.io domain. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** IsExtendedResourceName: a qualified name outside kubernetes.io, e.g. `example.com/gpu`. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** Requests may be below limits only for native, non-hugepage resources. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePages(name);
}

function isStandardResourceName(name: string): boolean {
  return STANDARD_RESOURCES.has(name) || isQuotaHugePages(name);
}

/** validateResourceName. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => fieldErr.invalid(path, name, m));
  if (errs.length) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(fieldErr.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(fieldErr.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldErr.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/**
 * Parses a quantity field. kube rejects a malformed quantity while decoding the body (a 400 with
 * QUANTITY_FORMAT_ERROR); here it surfaces as a field error at its path so the caller sees where.
 */
export function parseQuantityField(raw: unknown, path: string, errs: FieldError[]): Quantity | undefined {
  const q = tryParseQuantity(raw);
  if (!q) errs.push(fieldErr.invalid(path, raw ?? null, QUANTITY_FORMAT_ERROR));
  return q;
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(name: string, q: Quantity, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.nano < 0n) errs.push(fieldErr.invalid(path, formatQuantity(q), IS_NEGATIVE));
  if ((INTEGER_RESOURCES.has(name) || isExtendedResourceName(name)) && q.nano % 1_000_000_000n !== 0n) {
    errs.push(fieldErr.invalid(path, formatQuantity(q), 'must be an integer'));
  }
  return errs;
}

type ResourceList = Record<string, string | number> | undefined;

/** ValidateResourceRequirements for one container (`path` is ...containers[i].resources). */
export function validateResourceRequirements(res: { limits?: ResourceList; requests?: ResourceList } | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  const limits = new Map<string, Quantity>();
  let cpuOrMemory = false;
  let hugePages = false;
  for (const name of Object.keys(res?.limits ?? {}).sort()) {
    const p = `${limPath}[${name}]`;
    errs.push(...validateContainerResourceName(name, p));
    const q = parseQuantityField(res!.limits![name], p, errs);
    if (!q) continue;
    errs.push(...validateResourceQuantityValue(name, q, p));
    limits.set(name, q);
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    if (isHugePages(name)) hugePages = true;
  }
  for (const name of Object.keys(res?.requests ?? {}).sort()) {
    const p = `${reqPath}[${name}]`;
    errs.push(...validateContainerResourceName(name, p));
    const q = parseQuantityField(res!.requests![name], p, errs);
    if (!q) continue;
    errs.push(...validateResourceQuantityValue(name, q, p));
    const limit = limits.get(name);
    if (limit) {
      const cmp = compareQuantity(q, limit);
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(fieldErr.invalid(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
      } else if (cmp > 0) {
        errs.push(fieldErr.invalid(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
      }
    } else if (!isOvercommitAllowed(name) && !(res?.limits && name in res.limits)) {
      errs.push(fieldErr.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    if (isHugePages(name)) hugePages = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(fieldErr.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}
