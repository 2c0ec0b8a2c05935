// Strategies for events (core/v1 and events.k8s.io/v1), leases, endpointslices, runtimeclasses and
// priorityclasses (kubernetes pkg/registry/core/event, events/v1/conversion.go, coordination, discovery,
// node and scheduling registries).

import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import type { RuntimeClass } from 'kubernetes-types/node/v1.js';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1.js';
import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import {
  validateCoreEvent, validateEndpointSlice, validateEndpointSliceUpdate, validateEventsV1Event, validateLease,
  validatePriorityClass, validatePriorityClassUpdate, validateRuntimeClass,
} from '../validation/cluster-misc.js';
import { deepEqual, validateImmutable } from '../validation/object-meta.js';
import { as, updateValidator } from './common.js';

const field = (o: KubeObject, ...path: string[]): string => {
  let v: unknown = o;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v === undefined || v === null ? '' : String(v);
};

/** pkg/registry/core/event/strategy.go ToSelectableFields. */
const coreEventFields: Record<string, (o: KubeObject) => string> = {
  'involvedObject.kind': (o) => field(o, 'involvedObject', 'kind'),
  'involvedObject.namespace': (o) => field(o, 'involvedObject', 'namespace'),
  'involvedObject.name': (o) => field(o, 'involvedObject', 'name'),
  'involvedObject.uid': (o) => field(o, 'involvedObject', 'uid'),
  'involvedObject.apiVersion': (o) => field(o, 'involvedObject', 'apiVersion'),
  'involvedObject.resourceVersion': (o) => field(o, 'involvedObject', 'resourceVersion'),
  'involvedObject.fieldPath': (o) => field(o, 'involvedObject', 'fieldPath'),
  reason: (o) => field(o, 'reason'),
  reportingComponent: (o) => field(o, 'reportingComponent'),
  source: (o) => field(o, 'source', 'component') || field(o, 'reportingComponent'),
  type: (o) => field(o, 'type'),
};

export const eventStrategy = {
  validate: validateCoreEvent,
  validateUpdate: (obj: KubeObject, old: KubeObject) => [
    ...validateCoreEvent(obj),
    ...validateImmutable(obj.metadata.name, old.metadata.name, 'metadata.name'),
  ],
  fieldSelectors: coreEventFields,
} satisfies Strategy;

/** events.k8s.io/v1 field labels (pkg/apis/events/v1/conversion.go), read from the v1 shape. */
export const eventsV1Strategy = {
  validate: validateEventsV1Event,
  validateUpdate: updateValidator(() => []),
  fieldSelectors: {
    'regarding.kind': (o: KubeObject) => field(o, 'regarding', 'kind'),
    'regarding.namespace': (o: KubeObject) => field(o, 'regarding', 'namespace'),
    'regarding.name': (o: KubeObject) => field(o, 'regarding', 'name'),
    'regarding.uid': (o: KubeObject) => field(o, 'regarding', 'uid'),
    'regarding.apiVersion': (o: KubeObject) => field(o, 'regarding', 'apiVersion'),
    'regarding.resourceVersion': (o: KubeObject) => field(o, 'regarding', 'resourceVersion'),
    'regarding.fieldPath': (o: KubeObject) => field(o, 'regarding', 'fieldPath'),
    reason: (o: KubeObject) => field(o, 'reason'),
    reportingController: (o: KubeObject) => field(o, 'reportingController'),
    type: (o: KubeObject) => field(o, 'type'),
  },
} satisfies Strategy;

const validateL = (obj: KubeObject) => validateLease(as<Lease>(obj));
export const leaseStrategy = { validate: validateL, validateUpdate: updateValidator(validateL) } satisfies Strategy;

/** SetDefaults_EndpointPort (discovery/v1): protocol TCP, name "". */
function defaultEndpointSlice(obj: KubeObject): void {
  for (const p of as<EndpointSlice>(obj).ports ?? []) {
    const port = p as { protocol?: string; name?: string };
    port.protocol ||= 'TCP';
    port.name ??= '';
  }
}
const validateES = (obj: KubeObject) => validateEndpointSlice(as<EndpointSlice>(obj));
export const endpointSliceStrategy = {
  prepareForCreate: (obj: KubeObject) => { obj.metadata.generation = 1; },
  // Everything but metadata is "spec" here; label changes count too (endpointslice strategy PrepareForUpdate).
  prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    const { metadata: m, ...rest } = obj;
    const { metadata: o, ...oldRest } = old;
    const changed = !deepEqual(rest, oldRest) || !deepEqual(m.labels, o.labels);
    m.generation = (o.generation ?? 1) + (changed ? 1 : 0);
  },
  defaults: defaultEndpointSlice,
  validate: validateES,
  validateUpdate: updateValidator(validateES, (obj, old) => validateEndpointSliceUpdate(as<EndpointSlice>(obj), as<EndpointSlice>(old))),
} satisfies Strategy;

const validateRC = (obj: KubeObject) => validateRuntimeClass(as<RuntimeClass>(obj));
export const runtimeClassStrategy = {
  validate: validateRC,
  validateUpdate: updateValidator(validateRC, (obj, old) => validateImmutable(obj.handler, old.handler, 'handler')),
} satisfies Strategy;

const validatePC = (obj: KubeObject) => validatePriorityClass(as<PriorityClass>(obj));
export const priorityClassStrategy = {
  defaults(obj: KubeObject): void {
    obj.preemptionPolicy ??= 'PreemptLowerPriority';
  },
  validate: validatePC,
  validateUpdate: updateValidator(() => [], (obj, old) => validatePriorityClassUpdate(as<PriorityClass>(obj), as<PriorityClass>(old))),
} satisfies Strategy;
