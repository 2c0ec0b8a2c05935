// Usage of the container instances a kubelet's runtime knows (running, and the last ones that ended), from each
// container's spec (limits), its declared demand and when it started, on the node's OS and cores.

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { milliValue, tryParseQuantity, unitValue } from '../../api/quantity.js';
import type { NodeProfile } from '../profile.js';
import { containerSpec, type ContainerRuntime, type PodRuntime } from '../runtime-state.js';
import { declaredUsage } from './declared.js';
import { honoursContainerLimits } from '../os/windows/versions.js';
import { cpuCumulative, cpuUsageNanoCores, phaseOf, usageLevel, workingSetAt, type Limits, type MemoryOutcome } from './usage-model.js';

/** One container instance (one containerID) and the level its usage runs at. */
export interface ContainerInstance {
  name: string;
  id: string;
  startMs: number;
  /** Set once the process ended. */
  endMs?: number;
  cpuNanoCores: number;
  memory: MemoryOutcome;
  limits: Limits;
  phase: number;
}

/** The node's cores (capacity.cpu), at least one millicore's worth. */
export function nodeCores(p: NodeProfile): number {
  const q = tryParseQuantity(p.capacity.cpu ?? '1');
  return q ? Math.max(0.001, milliValue(q) / 1000) : 1;
}

/** Bytes of a quantity string, or undefined. */
export function bytesOf(v: string | undefined): number | undefined {
  const q = v === undefined ? undefined : tryParseQuantity(v);
  return q ? unitValue(q) : undefined;
}

/** Thousandths of a quantity string (CPU in millicores), or undefined. */
export function milliOf(v: string | undefined): number | undefined {
  const q = v === undefined ? undefined : tryParseQuantity(v);
  return q ? milliValue(q) : undefined;
}

export function limitsOf(spec: Container | undefined): Limits {
  const l = spec?.resources?.limits ?? {};
  const cpu = tryParseQuantity(l.cpu);
  const mem = tryParseQuantity(l.memory);
  return { ...(cpu ? { cpuMilli: milliValue(cpu) } : {}), ...(mem ? { memoryBytes: unitValue(mem) } : {}) };
}

/** Whether the container's process is alive: running, or asked to stop and not yet gone. */
export function isRunning(c: ContainerRuntime): boolean {
  return (c.state === 'running' || c.state === 'killing') && c.startedAt !== undefined;
}

type Level = ReturnType<typeof usageLevel> & { limits: Limits };

/**
 * A container spec's level on a node, kept as long as the spec object lives: a pod update brings a new object, so a
 * changed spec or annotation is read again (scrapes otherwise re-parse every quantity and command line).
 */
const levels = new WeakMap<Container, { pod: Pod; profile: NodeProfile; level: Level }>();
const phases = new Map<string, number>();

function levelOf(pod: Pod, spec: Container, profile: NodeProfile): Level {
  const hit = levels.get(spec);
  if (hit && hit.pod === pod && hit.profile === profile) return hit.level;
  // A kubelet before v1.10 passes no limits to Windows containers (seed 004 "Container Resources").
  const limits = honoursContainerLimits(profile) ? limitsOf(spec) : {};
  const level = { ...usageLevel(declaredUsage(pod, spec, profile.os), limits, profile.os, nodeCores(profile)), limits };
  levels.set(spec, { pod, profile, level });
  return level;
}

function phaseFor(id: string): number {
  let p = phases.get(id);
  if (p === undefined) {
    // Bounded: a long-running agent sees many container instances come and go.
    if (phases.size >= 50_000) phases.clear();
    phases.set(id, (p = phaseOf(id)));
  }
  return p;
}

/** Every instance of the pod's containers the runtime still knows: the current one and the last that ended. */
export function podInstances(rec: PodRuntime, profile: NodeProfile): { container: ContainerRuntime; instance: ContainerInstance; current: boolean }[] {
  const out: { container: ContainerRuntime; instance: ContainerInstance; current: boolean }[] = [];
  for (const c of rec.containers) {
    const spec = containerSpec(rec.pod, c);
    if (!spec) continue;
    const level = levelOf(rec.pod, spec, profile);
    const make = (id: string, startMs: number, endMs?: number): ContainerInstance => ({
      name: c.name, id, startMs, endMs, cpuNanoCores: level.cpuNanoCores, memory: level.memory, limits: level.limits, phase: phaseFor(id),
    });
    if (isRunning(c)) out.push({ container: c, instance: make(c.containerID ?? `${rec.uid}/${c.name}`, c.startedAt!), current: true });
    else if (c.terminated?.startedAt !== undefined && c.terminated.finishedAt !== undefined && c.terminated.containerID) {
      out.push({ container: c, instance: make(c.terminated.containerID, c.terminated.startedAt, c.terminated.finishedAt), current: false });
    }
    const last = c.lastTerminated;
    if (last?.startedAt !== undefined && last.finishedAt !== undefined && last.containerID) {
      out.push({ container: c, instance: make(last.containerID, last.startedAt, last.finishedAt), current: false });
    }
  }
  return out;
}

/** Core nanoseconds the instance used up to `now` (up to its end when it ended). */
export function instanceCpu(i: ContainerInstance, now: number): number {
  return cpuCumulative(i.cpuNanoCores, i.startMs, now, i.phase, i.endMs);
}

export function instanceNanoCores(i: ContainerInstance, now: number): number {
  return i.endMs !== undefined ? 0 : cpuUsageNanoCores(i.cpuNanoCores, i.startMs, now, i.phase);
}

export function instanceWorkingSet(i: ContainerInstance, now: number): number {
  return i.endMs !== undefined ? 0 : workingSetAt(i.memory.workingSetBytes, i.startMs, now, i.phase);
}
