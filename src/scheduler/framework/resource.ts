// Resource arithmetic: node allocatable and pod requests in the integer units kube-scheduler uses
// (framework/types.go Resource; k8s.io/component-helpers/resource PodRequests).

import type { Container, Pod } from '../types.js';
import { milliValue as qMilli, tryParseQuantity, unitValue } from '../../api/quantity.js';

// A cluster uses a handful of distinct quantity strings ("100m", "128Mi", "110"), and the shared parser is exact
// (BigInt nano-units), so each string is converted once. Bounded in case a workload varies them endlessly.
const MAX_MEMO = 4096;
const milliMemo = new Map<string | number, number>();
const unitMemo = new Map<string | number, number>();

function convert(memo: Map<string | number, number>, s: string | number, f: typeof unitValue): number {
  let v = memo.get(s);
  if (v === undefined) {
    const q = tryParseQuantity(s);
    // Malformed quantities cannot pass API validation; count them as 0 rather than failing the cycle.
    v = q ? f(q) : 0;
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(s, v);
  }
  return v;
}

/** Quantity.MilliValue(): cpu in millicores, rounded up. */
const milliValue = (s: string | number): number => convert(milliMemo, s, qMilli);
/** Quantity.Value(): bytes or counts, rounded up. */
const value = (s: string | number): number => convert(unitMemo, s, unitValue);

/** cpu in millicores, memory and ephemeral-storage in bytes, pods as a count, everything else (extended) in `scalar`. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  allowedPodNumber: number;
  scalar: Map<string, number>;
}

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: new Map() };
}

/** Requests the scheduler ignores (they are not node resources). */
function isScalar(name: string): boolean {
  return name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage' && name !== 'pods';
}

export function resourceFromList(list: Readonly<Record<string, unknown>> | undefined): Resource {
  const r = emptyResource();
  if (!list) return r;
  for (const [name, q] of Object.entries(list)) {
    const s = q as string | number;
    switch (name) {
      case 'cpu': r.milliCPU = milliValue(s); break;
      case 'memory': r.memory = value(s); break;
      case 'ephemeral-storage': r.ephemeralStorage = value(s); break;
      case 'pods': r.allowedPodNumber = value(s); break;
      default: if (isScalar(name)) r.scalar.set(name, value(s));
    }
  }
  return r;
}

export function addTo(into: Resource, r: Resource, sign = 1): void {
  into.milliCPU += sign * r.milliCPU;
  into.memory += sign * r.memory;
  into.ephemeralStorage += sign * r.ephemeralStorage;
  for (const [k, v] of r.scalar) into.scalar.set(k, (into.scalar.get(k) ?? 0) + sign * v);
}

function maxInto(into: Resource, r: Resource): void {
  into.milliCPU = Math.max(into.milliCPU, r.milliCPU);
  into.memory = Math.max(into.memory, r.memory);
  into.ephemeralStorage = Math.max(into.ephemeralStorage, r.ephemeralStorage);
  for (const [k, v] of r.scalar) into.scalar.set(k, Math.max(into.scalar.get(k) ?? 0, v));
}

function clone(r: Resource): Resource {
  return { ...r, scalar: new Map(r.scalar) };
}

/** Defaults for containers without requests, used only for scoring (pkg/scheduler/util/pod_resources.go). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

function containerRequests(c: Container, nonZero: boolean): Resource {
  const r = resourceFromList(c.resources?.requests as Record<string, unknown> | undefined);
  if (nonZero) {
    const req = c.resources?.requests ?? {};
    if (!('cpu' in req)) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (!('memory' in req)) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/** A pod's requests, remembered against its frozen containers array (with the init containers and overhead seen). */
interface Remembered {
  initContainers: unknown;
  overhead: unknown;
  plain?: Resource;
  nonZero?: Resource;
}
const remembered = new WeakMap<object, Remembered>();

/**
 * What a pod asks of a node: max(sum of app containers + sidecars, the peak any init container reaches while the
 * sidecars started before it run) + overhead. `nonZero` substitutes the scoring defaults for missing cpu/memory.
 * The result is read-only. A cycle asks several times for one pod (PreFilter, PreScore, assume, the bound pod's
 * arrival), and every revision of a pod shares its frozen containers with the last, so the answer is remembered
 * against that array; frozen means it cannot have changed since.
 */
export function podRequests(pod: Pod, nonZero = false): Resource {
  const spec = pod.spec;
  const containers = spec?.containers;
  const init = spec?.initContainers, overhead = spec?.overhead;
  if (!containers || !Object.isFrozen(containers) || (init && !Object.isFrozen(init)) || (overhead && !Object.isFrozen(overhead))) {
    return computePodRequests(pod, nonZero);
  }
  let m = remembered.get(containers);
  if (!m || m.initContainers !== init || m.overhead !== overhead) {
    m = { initContainers: init, overhead };
    remembered.set(containers, m);
  }
  if (nonZero) return (m.nonZero ??= computePodRequests(pod, true));
  return (m.plain ??= computePodRequests(pod, false));
}

function computePodRequests(pod: Pod, nonZero: boolean): Resource {
  const reqs = emptyResource();
  for (const c of pod.spec?.containers ?? []) addTo(reqs, containerRequests(c, nonZero));
  const sidecars = emptyResource();
  const initPeak = emptyResource();
  for (const ic of pod.spec?.initContainers ?? []) {
    const r = containerRequests(ic, nonZero);
    let during: Resource;
    if (ic.restartPolicy === 'Always') {
      // A sidecar keeps running, so it counts towards the steady state and towards every later init container.
      addTo(reqs, r);
      addTo(sidecars, r);
      during = clone(sidecars);
    } else {
      during = clone(r);
      addTo(during, sidecars);
    }
    maxInto(initPeak, during);
  }
  maxInto(reqs, initPeak);
  const overhead = pod.spec?.overhead as Record<string, unknown> | undefined;
  if (overhead) addTo(reqs, resourceFromList(overhead));
  return reqs;
}
