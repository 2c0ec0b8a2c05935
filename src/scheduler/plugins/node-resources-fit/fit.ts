// The NodeResourcesFit filter arithmetic: which requested resources a node cannot hold
// (plugins/noderesources/fit.go fitsRequest).

import type { NodeInfo } from '../../framework/node-info.js';
import { HOT } from '../../framework/node-rows.js';
import type { Resource } from '../../framework/resource.js';

export interface InsufficientResource {
  resource: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

/** fitsRequest(...).length === 0 without building the list: the per-node fast path of the filter. */
export function fits(req: Resource, node: NodeInfo, ignored: ReadonlySet<string>): boolean {
  if (!rowFits(req, node.hot, node.hotBase)) return false;
  if (req.scalar.size === 0) return true;
  const alloc = node.allocatable, used = node.requested;
  for (const [name, q] of req.scalar) {
    if (q === 0 || ignored.has(name)) continue;
    if (q > (alloc.scalar.get(name) ?? 0) - (used.scalar.get(name) ?? 0)) return false;
  }
  return true;
}

/** The pod count, cpu, memory and ephemeral-storage part of `fits`, from the node's row (node-rows.ts). */
export function rowFits(req: Resource, h: Float64Array, b: number): boolean {
  if (h[b + FREE_PODS]! < 1) return false;
  if (req.milliCPU > 0 && req.milliCPU > h[b + FREE_CPU]!) return false;
  if (req.memory > 0 && req.memory > h[b + FREE_MEMORY]!) return false;
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > h[b + FREE_EPHEMERAL]!) return false;
  return true;
}
// Module-level copies: the per-node functions then read constants, not another module's binding.
const { FREE_PODS, FREE_CPU, FREE_MEMORY, FREE_EPHEMERAL } = HOT;

/** Every shortfall, in kube's order: pod count, cpu, memory, ephemeral-storage, then extended resources. */
export function fitsRequest(req: Resource, node: NodeInfo, ignored: ReadonlySet<string> = new Set()): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = node.allocatable, used = node.requested;
  const allowedPods = alloc.allowedPodNumber;
  if (node.pods.size + 1 > allowedPods) {
    out.push({ resource: 'pods', reason: 'Too many pods', requested: 1, used: node.pods.size, capacity: allowedPods });
  }
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && req.scalar.size === 0) return out;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) {
    out.push({ resource: 'cpu', reason: 'Insufficient cpu', requested: req.milliCPU, used: used.milliCPU, capacity: alloc.milliCPU });
  }
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) {
    out.push({ resource: 'memory', reason: 'Insufficient memory', requested: req.memory, used: used.memory, capacity: alloc.memory });
  }
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    out.push({ resource: 'ephemeral-storage', reason: 'Insufficient ephemeral-storage', requested: req.ephemeralStorage, used: used.ephemeralStorage, capacity: alloc.ephemeralStorage });
  }
  for (const [name, q] of req.scalar) {
    if (q === 0 || ignored.has(name)) continue;
    const capacity = alloc.scalar.get(name) ?? 0, inUse = used.scalar.get(name) ?? 0;
    if (q > capacity - inUse) out.push({ resource: name, reason: `Insufficient ${name}`, requested: q, used: inUse, capacity });
  }
  return out;
}
