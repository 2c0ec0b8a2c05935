// Validation for Events (core/v1 and events.k8s.io/v1), Leases, EndpointSlices, RuntimeClasses and
// PriorityClasses (kubernetes pkg/apis/core/validation/events.go, coordination/validation,
// discovery/validation, node/validation, scheduling/validation).

import { isIP } from 'node:net';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import type { RuntimeClass } from 'kubernetes-types/node/v1.js';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import type { KubeObject, ObjectMeta } from '../types.js';
import { SUPPORTED_PORT_PROTOCOLS, validateDNS1123Label } from './containers.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from './names.js';
import { validateImmutable, validateObjectMeta } from './object-meta.js';
import { validatePreemptionPolicy, validateTolerations } from './pod-spec.js';
import { validateLabels } from './labels.js';

const meta = (o: { metadata?: unknown }) => o.metadata as ObjectMeta | undefined;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * legacyValidateEvent for the core/v1 shape (what kubectl, kubelet and client-go recorders send). Old-style
 * events (no eventTime) only need their namespace to agree with involvedObject's.
 */
export function validateCoreEvent(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const involved = (ev.involvedObject ?? {}) as Record<string, unknown>;
  const invNs = str(involved.namespace);
  if (!ev.eventTime) {
    if (!invNs ? ns !== '' && ns !== 'default' : ns !== invNs) {
      errs.push(fieldErr.invalid('involvedObject.namespace', invNs, 'does not match event.namespace'));
    }
  } else {
    if (!invNs && ns !== 'default' && ns !== 'kube-system') errs.push(fieldErr.invalid('involvedObject.namespace', invNs, 'does not match event.namespace'));
    errs.push(...newStyleEventFields(ev, 'reportingComponent', str(ev.reportingComponent), str(ev.message)));
  }
  for (const m of isDNS1123Subdomain(ns)) errs.push(fieldErr.invalid('namespace', ns, m));
  return errs;
}

function newStyleEventFields(ev: KubeObject, controllerField: string, controller: string, note: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!controller) errs.push(fieldErr.required(controllerField));
  for (const m of isQualifiedName(controller)) errs.push(fieldErr.invalid(controllerField, controller, m));
  const instance = str(ev.reportingInstance);
  if (!instance) errs.push(fieldErr.required('reportingInstance'));
  if (instance.length > 128) errs.push(fieldErr.invalid('reportingInstance', '', 'can have at most 128 characters'));
  const action = str(ev.action);
  if (!action) errs.push(fieldErr.required('action'));
  if (action.length > 128) errs.push(fieldErr.invalid('action', '', 'can have at most 128 characters'));
  const reason = str(ev.reason);
  if (!reason) errs.push(fieldErr.required('reason'));
  if (reason.length > 128) errs.push(fieldErr.invalid('reason', '', 'can have at most 128 characters'));
  if (note.length > 1024) errs.push(fieldErr.invalid('message', '', 'can have at most 1024 characters'));
  return errs;
}

/** ValidateEventCreate for events.k8s.io/v1 (strict: eventTime, type, and no deprecated fields). */
export function validateEventsV1Event(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const regarding = (ev.regarding ?? {}) as Record<string, unknown>;
  if (!str(regarding.namespace) && ns !== 'default' && ns !== 'kube-system' && ev.eventTime) {
    errs.push(fieldErr.invalid('involvedObject.namespace', '', 'does not match event.namespace'));
  }
  errs.push(...newStyleEventFields(ev, 'reportingController', str(ev.reportingController), str(ev.note)));
  for (const m of isDNS1123Subdomain(ns)) errs.push(fieldErr.invalid('namespace', ns, m));
  errs.push(...validateObjectMeta(meta(ev), nameIsDNSSubdomain));
  if (!ev.eventTime) errs.push(fieldErr.required('eventTime'));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(fieldErr.invalid('type', '', `has invalid value: ${str(ev.type)}`));
  if (ev.deprecatedFirstTimestamp) errs.push(fieldErr.invalid('firstTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedLastTimestamp) errs.push(fieldErr.invalid('lastTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedCount) errs.push(fieldErr.invalid('count', '', 'needs to be unset'));
  const src = (ev.deprecatedSource ?? {}) as Record<string, unknown>;
  if (src.component || src.host) errs.push(fieldErr.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** ValidateLease. */
export function validateLease(l: Lease): FieldError[] {
  const errs = validateObjectMeta(meta(l), nameIsDNSSubdomain);
  const d = l.spec?.leaseDurationSeconds;
  if (d !== undefined && d <= 0) errs.push(fieldErr.invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  const t = l.spec?.leaseTransitions;
  if (t !== undefined && t < 0) errs.push(fieldErr.invalid('spec.leaseTransitions', t, 'must be greater than or equal to 0'));
  return errs;
}

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

/** ValidateEndpointSlice. */
export function validateEndpointSlice(es: EndpointSlice): FieldError[] {
  const errs = validateObjectMeta(meta(es), nameIsDNSSubdomain);
  const at = es.addressType;
  if (!at) errs.push(fieldErr.required('addressType'));
  else if (!ADDRESS_TYPES.includes(at)) errs.push(fieldErr.notSupported('addressType', at, ADDRESS_TYPES));
  const eps = es.endpoints ?? [];
  if (eps.length > 1000) errs.push(fieldErr.tooMany('endpoints', eps.length, 1000));
  eps.forEach((ep, i) => {
    const ap = `endpoints[${i}].addresses`;
    const addrs = ep.addresses ?? [];
    if (addrs.length === 0) errs.push(fieldErr.required(ap, 'must contain at least 1 address'));
    else if (addrs.length > 100) errs.push(fieldErr.tooMany(ap, addrs.length, 100));
    addrs.forEach((a, j) => {
      if (at === 'IPv4' && isIP(a) !== 4) errs.push(fieldErr.invalid(`${ap}[${j}]`, a, 'must be a valid IPv4 address'));
      if (at === 'IPv6' && isIP(a) !== 6) errs.push(fieldErr.invalid(`${ap}[${j}]`, a, 'must be a valid IPv6 address'));
      if (at === 'FQDN') for (const m of isDNS1123Subdomain(a)) errs.push(fieldErr.invalid(`${ap}[${j}]`, a, m));
    });
    if (ep.nodeName) for (const m of isDNS1123Subdomain(ep.nodeName)) errs.push(fieldErr.invalid(`endpoints[${i}].nodeName`, ep.nodeName, m));
    if (ep.hostname) errs.push(...validateDNS1123Label(ep.hostname, `endpoints[${i}].hostname`));
  });
  const names = new Set<string>();
  (es.ports ?? []).forEach((p, i) => {
    const pp = `ports[${i}]`;
    const name = p.name ?? '';
    if (name) errs.push(...validateDNS1123Label(name, `${pp}.name`));
    if (names.has(name)) errs.push(fieldErr.duplicate(`${pp}.name`, name));
    names.add(name);
    if (!p.protocol) errs.push(fieldErr.required(`${pp}.protocol`));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(p.protocol)) errs.push(fieldErr.notSupported(`${pp}.protocol`, p.protocol, SUPPORTED_PORT_PROTOCOLS));
  });
  return errs;
}

export function validateEndpointSliceUpdate(es: EndpointSlice, old: EndpointSlice): FieldError[] {
  return ADDRESS_TYPES.includes(old.addressType) ? validateImmutable(es.addressType, old.addressType, 'addressType') : [];
}

/** ValidateRuntimeClass: the handler is a DNS label (no separate Required: an empty one fails the regex). */
export function validateRuntimeClass(rc: RuntimeClass): FieldError[] {
  const errs = validateObjectMeta(meta(rc), nameIsDNSSubdomain);
  const handler = rc.handler ?? '';
  for (const m of isDNS1123Label(handler)) errs.push(fieldErr.invalid('handler', handler, m));
  if (rc.scheduling) {
    errs.push(...validateLabels(rc.scheduling.nodeSelector, 'scheduling.nodeSelector'));
    errs.push(...validateTolerations(rc.scheduling.tolerations, 'scheduling.tolerations'));
  }
  return errs;
}

const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
export const HIGHEST_USER_PRIORITY = 1000000000;

/** ValidatePriorityClass: `system-` names are reserved; user values at most one billion. */
export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs = validateObjectMeta(meta(pc), nameIsDNSSubdomain);
  const name = pc.metadata?.name ?? '';
  if (name.startsWith('system-')) {
    const known = SYSTEM_PRIORITY_CLASSES[name];
    let why = '';
    if (known === undefined) why = `${name} is not a known system priority class`;
    else if (known !== pc.value) why = `value of ${name} PriorityClass must be ${known}`;
    else if (pc.globalDefault) why = `globalDefault of ${name} PriorityClass must be false`;
    if (why) errs.push(fieldErr.forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`));
  } else if (pc.value > HIGHEST_USER_PRIORITY) {
    errs.push(fieldErr.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined) errs.push(...validatePreemptionPolicy(pc.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}

export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if (pc.value !== old.value) errs.push(fieldErr.forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutable(pc.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}
