// Resource scoring shared by NodeResourcesFit (LeastAllocated / MostAllocated) and BalancedAllocation
// (plugins/noderesources/resource_allocation.go, least_allocated.go, most_allocated.go, balanced_allocation.go).

import type { NodeInfo } from '../../framework/node-info.js';
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

/** leastAllocated(allocatableAndRequested(node, pod, DEFAULT_RESOURCES, false)) without allocating: runs per node. */
export function leastAllocatedDefault(node: NodeInfo, pod: Resource): number {
  const a = node.allocatable, r = node.nonZeroRequested;
  let score = 0, weights = 0;
  if (a.milliCPU !== 0) {
    const req = r.milliCPU + pod.milliCPU;
    score += req > a.milliCPU ? 0 : Math.trunc(((a.milliCPU - req) * MAX_NODE_SCORE) / a.milliCPU);
    weights++;
  }
  if (a.memory !== 0) {
    const req = r.memory + pod.memory;
    score += req > a.memory ? 0 : Math.trunc(((a.memory - req) * MAX_NODE_SCORE) / a.memory);
    weights++;
  }
  return weights === 0 ? 0 : Math.trunc(score / weights);
}

/** balancedAllocation(allocatableAndRequested(node, pod, DEFAULT_RESOURCES, true)) without allocating. */
export function balancedAllocationDefault(node: NodeInfo, pod: Resource): number {
  const a = node.allocatable, r = node.requested;
  // With one resource (or none) on the node the standard deviation is 0.
  if (a.milliCPU === 0 || a.memory === 0) return MAX_NODE_SCORE;
  const fc = Math.min(1, (r.milliCPU + pod.milliCPU) / a.milliCPU);
  const fm = Math.min(1, (r.memory + pod.memory) / a.memory);
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
