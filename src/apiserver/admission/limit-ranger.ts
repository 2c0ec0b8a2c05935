// LimitRanger admission: containers get the namespace LimitRanges' default requests and limits, and pods and
// PersistentVolumeClaims must stay within their min, max and maxLimitRequestRatio
// (plugin/pkg/admission/limitranger/admission.go).

import type { Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import { aggregateMessage, StatusError } from '../../api/errors.js';
import type { Quantity } from '../../api/quantity.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from './interfaces.js';
import { podTotals } from './pod-resources.js';
import { fmt, parseList, type ResourceList } from './resource-list.js';

export const NAME = 'LimitRanger';
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type Target = 'pod' | 'pvc';

/** Pods on create and PVCs on create or update; never subresources or objects already being deleted (SupportsAttributes). */
function targetOf(a: AdmissionAttributes): Target | undefined {
  if (a.decl.group !== '' || a.subresource || !a.object) return undefined;
  if (a.oldObject?.metadata.deletionTimestamp) return undefined;
  // Pod containers are immutable, so pod updates are not checked again.
  if (a.decl.plural === 'pods') return a.operation === 'CREATE' ? 'pod' : undefined;
  if (a.decl.plural === 'persistentvolumeclaims' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) return 'pvc';
  return undefined;
}

function limitRanges(a: AdmissionAttributes, lookup: AdmissionLookup): LimitRange[] {
  return lookup.list('', 'limitranges', a.namespace) as unknown as LimitRange[];
}

// ---- defaults (PodMutateLimitFunc) ----

function defaultRequirements(lr: LimitRange): { requests: Record<string, string>; limits: Record<string, string> } {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  return { requests, limits };
}

/** Fills missing requests/limits of one container; returns the annotation parts naming what it set. */
function mergeContainer(c: Container, defaults: ReturnType<typeof defaultRequirements>, kind: string): string[] {
  const resources = (c.resources ??= {});
  const limits = (resources.limits ??= {});
  const requests = (resources.requests ??= {});
  const setLimits = Object.keys(defaults.limits).filter((k) => !(k in limits));
  const setRequests = Object.keys(defaults.requests).filter((k) => !(k in requests));
  for (const k of setLimits) limits[k] = defaults.limits[k];
  for (const k of setRequests) requests[k] = defaults.requests[k];
  const notes: string[] = [];
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${kind} ${c.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${kind} ${c.name}`);
  return notes;
}

export function applyDefaults(lr: LimitRange, pod: Pod): void {
  const defaults = defaultRequirements(lr);
  const notes = [
    ...(pod.spec?.containers ?? []).flatMap((c) => mergeContainer(c, defaults, 'container')),
    ...(pod.spec?.initContainers ?? []).flatMap((c) => mergeContainer(c, defaults, 'init container')),
  ];
  if (!notes.length) return;
  pod.metadata ??= {};
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

// ---- constraints (minConstraint, maxConstraint, maxRequestConstraint, limitRequestRatioConstraint) ----

/** kube compares at milli precision, rounding up (requestLimitEnforcedValues). */
const milli = (q: Quantity | undefined): bigint => (q ? (q.nano + (q.nano > 0n ? 999_999n : 0n)) / 1_000_000n : 0n);

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  if (!req) return `minimum ${name} usage per ${type} is ${fmt(enforced)}.  No request is specified`;
  if (milli(req) < milli(enforced)) return `minimum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  if (lim && milli(lim) < milli(enforced)) return `minimum ${name} usage per ${type} is ${fmt(enforced)}, but limit is ${fmt(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  if (!lim) return `maximum ${name} usage per ${type} is ${fmt(enforced)}.  No limit is specified`;
  if (milli(lim) > milli(enforced)) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but limit is ${fmt(lim)}`;
  if (req && milli(req) > milli(enforced)) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  return undefined;
}

/** For PVCs, whose limits are not user input: the max applies to the request. */
function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  if (!req) return `maximum ${name} usage per ${type} is ${fmt(enforced)}.  No request is specified`;
  if (milli(req) > milli(enforced)) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = milli(requests.get(name));
  const lim = milli(limits.get(name));
  if (req === 0n) return `${name} max limit to request ratio per ${type} is ${fmt(enforced)}, but no request is specified or request is 0`;
  if (lim === 0n) return `${name} max limit to request ratio per ${type} is ${fmt(enforced)}, but no limit is specified or limit is 0`;
  const ratio = Number(lim) / Number(req);
  if (ratio * 1000 > Number(milli(enforced))) {
    return `${name} max limit to request ratio per ${type} is ${fmt(enforced)}, but provided ratio is ${ratio.toFixed(6)}`;
  }
  return undefined;
}

function checkItem(item: LimitRangeItem, requests: ResourceList, limits: ResourceList): string[] {
  const errs: (string | undefined)[] = [];
  for (const [k, v] of parseList(item.min)) errs.push(minConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of parseList(item.max)) errs.push(maxConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of parseList(item.maxLimitRequestRatio)) errs.push(ratioConstraint(item.type, k, v, requests, limits));
  return errs.filter((e): e is string => e !== undefined);
}

export function validatePod(lr: LimitRange, pod: Pod): string[] {
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        errs.push(...checkItem(item, parseList(c.resources?.requests), parseList(c.resources?.limits)));
      }
    } else if (item.type === 'Pod') {
      errs.push(...checkItem(item, podTotals(pod, 'requests'), podTotals(pod, 'limits')));
    }
  }
  return errs;
}

export function validateClaim(lr: LimitRange, pvc: PersistentVolumeClaim): string[] {
  const errs: (string | undefined)[] = [];
  const requests = parseList(pvc.spec?.resources?.requests);
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of parseList(item.min)) errs.push(minConstraint(item.type, k, v, requests, new Map()));
    for (const [k, v] of parseList(item.max)) errs.push(maxRequestConstraint(item.type, k, v, requests));
  }
  return errs.filter((e): e is string => e !== undefined);
}

export function limitRanger(): AdmissionPlugin {
  return {
    name: NAME,
    admit(a, lookup) {
      if (targetOf(a) !== 'pod') return;
      for (const lr of limitRanges(a, lookup)) applyDefaults(lr, a.object as unknown as Pod);
    },
    validate(a, lookup) {
      const target = targetOf(a);
      if (!target) return;
      for (const lr of limitRanges(a, lookup)) {
        const errs = target === 'pod' ? validatePod(lr, a.object as unknown as Pod) : validateClaim(lr, a.object as unknown as PersistentVolumeClaim);
        if (errs.length) throw StatusError.forbidden('', a.decl.plural, a.name, aggregateMessage(errs));
      }
    },
  };
}
