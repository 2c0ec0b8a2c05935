// Resource scoring shared by NodeResourcesFit (LeastAllocated / MostAllocated) and BalancedAllocation
// (plugins/noderesources/resource_allocation.go, least_allocated.go, most_allocated.go, balanced_allocation.go).

import type { NodeInfo } from '../../framework/node-info.js';
import { HOT } from '../../framework/node-rows.js';
import type { Resource } from '../../framework/resource.js';
import { MAX_NODE_SCORE } from '../../interfaces.js';

export interface ResourceSpec {
  name: string;
  weight: number;
}

export const DEFAULT_RESOURCES: readonly ResourceSpec[] = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];

function pick(r: Resource, name: string): number {
  switch (name) {
    case 'cpu': return r.milliCPU;
    case 'memory': return r.memory;
    case 'ephemeral-storage': return r.ephemeralStorage;
    default: return r.scalar.get(name) ?? 0;
  }
}

/**
 * [allocatable, requested-after-placing-the-pod] per resource. `useRequested` false means cpu/memory use the
 * non-zero defaults (as LeastAllocated does); an extended resource the pod does not ask for is left out (0, 0).
 */
export function allocatableAndRequested(node: NodeInfo, pod: Resource, specs: readonly ResourceSpec[], useRequested: boolean): [number[], number[]] {
  const alloc: number[] = [], req: number[] = [];
  for (const { name } of specs) {
    const podReq = pick(pod, name);
    const base = !useRequested && (name === 'cpu' || name === 'memory') ? node.nonZeroRequested : node.requested;
    const isExtended = name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage';
    if (isExtended && podReq === 0) {
      alloc.push(0);
      req.push(0);
      continue;
    }
    alloc.push(pick(node.allocatable, name));
    req.push(pick(base, name) + podReq);
  }
  return [alloc, req];
}

/** True for the default cpu+memory, weight 1 each, which the *Default functions below compute without arrays. */
export function isDefaultResources(specs: readonly ResourceSpec[]): boolean {
  return specs.length === 2 && specs[0]!.name === 'cpu' && specs[0]!.weight === 1 && specs[1]!.name === 'memory' && specs[1]!.weight === 1;
}

const { ALLOC_CPU, ALLOC_MEMORY, FREE_CPU, FREE_MEMORY, NONZERO_CPU, NONZERO_MEMORY } = HOT;

/** leastAllocated(allocatableAndRequested(node, pod, DEFAULT_RESOURCES, false)) without allocating. */
export function leastAllocatedDefault(node: NodeInfo, pod: Resource): number {
  return leastAllocatedRow(pod, node.hot, node.hotBase);
}

/** leastAllocatedDefault from the node's row (node-rows.ts): runs on every feasible node of every cycle. */
export function leastAllocatedRow(pod: Resource, h: Float64Array, b: number): number {
  const allocCpu = h[b + ALLOC_CPU]!, allocMem = h[b + ALLOC_MEMORY]!;
  let score = 0, weights = 0;
  if (allocCpu !== 0) {
    const req = h[b + NONZERO_CPU]! + pod.milliCPU;
    score += req > allocCpu ? 0 : Math.trunc(((allocCpu - req) * MAX_NODE_SCORE) / allocCpu);
    weights++;
  }
  if (allocMem !== 0) {
    const req = h[b + NONZERO_MEMORY]! + pod.memory;
    score += req > allocMem ? 0 : Math.trunc(((allocMem - req) * MAX_NODE_SCORE) / allocMem);
    weights++;
  }
  return weights === 0 ? 0 : Math.trunc(score / weights);
}

/** balancedAllocation(allocatableAndRequested(node, pod, DEFAULT_RESOURCES, true)) without allocating. */
export function balancedAllocationDefault(node: NodeInfo, pod: Resource): number {
  return balancedAllocationRow(pod, node.hot, node.hotBase);
}

/** balancedAllocationDefault from the node's row. */
export function balancedAllocationRow(pod: Resource, h: Float64Array, b: number): number {
  const allocCpu = h[b + ALLOC_CPU]!, allocMem = h[b + ALLOC_MEMORY]!;
  // With one resource (or none) on the node the standard deviation is 0.
  if (allocCpu === 0 || allocMem === 0) return MAX_NODE_SCORE;
  // requested = allocatable - free, exact for the integer figures involved.
  const fc = Math.min(1, (allocCpu - h[b + FREE_CPU]! + pod.milliCPU) / allocCpu);
  const fm = Math.min(1, (allocMem - h[b + FREE_MEMORY]! + pod.memory) / allocMem);
  return Math.trunc((1 - Math.abs((fc - fm) / 2)) * MAX_NODE_SCORE);
}

/** Weighted mean of per-resource scores over resources the node has; integer math as in Go. */
function weighted(alloc: number[], req: number[], specs: readonly ResourceSpec[], f: (r: number, c: number) => number): number {
  let score = 0, weights = 0;
  for (let i = 0; i < specs.length; i++) {
    if (alloc[i] === 0) continue;
    score += f(req[i]!, alloc[i]!) * specs[i]!.weight;
    weights += specs[i]!.weight;
  }
  return weights === 0 ? 0 : Math.trunc(score / weights);
}

export function leastAllocated(alloc: number[], req: number[], specs: readonly ResourceSpec[]): number {
  return weighted(alloc, req, specs, (r, c) => (c === 0 || r > c ? 0 : Math.trunc(((c - r) * MAX_NODE_SCORE) / c)));
}

export function mostAllocated(alloc: number[], req: number[], specs: readonly ResourceSpec[]): number {
  return weighted(alloc, req, specs, (r, c) => (c === 0 ? 0 : Math.trunc((Math.min(r, c) * MAX_NODE_SCORE) / c)));
}

/** 100 × (1 − standard deviation of the requested fractions): nodes whose resources fill evenly score higher. */
export function balancedAllocation(alloc: number[], req: number[]): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < alloc.length; i++) {
    if (alloc[i] === 0) continue;
    const f = Math.min(1, req[i]! / alloc[i]!);
    fractions.push(f);
    total += f;
  }
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    std = Math.sqrt(fractions.reduce((s, f) => s + (f - mean) ** 2, 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
