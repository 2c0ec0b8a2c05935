// From a kubelet's /stats/summary to the Metrics API's numbers, as metrics-server's summary source did: a node or
// container counts only with both its CPU rate and its working set; a pod only when every container counts.

import { formatQuantity } from '../../api/quantity.js';
import type { Summary } from '../../node/stats/interfaces.js';
import { goDuration } from '../../node/go-duration.js';

/** The kubelet averages usageNanoCores over its 10 s sampling interval; a younger process over its life so far. */
const KUBELET_RATE_WINDOW_MS = 10_000;

export interface Usage {
  cpuNanoCores: number;
  memoryBytes: number;
}

export interface TimeInfo {
  /** Clock ms of the sample. */
  timestamp: number;
  windowMs: number;
}

export interface NodeUsage extends TimeInfo, Usage {}

export interface PodUsage extends TimeInfo {
  containers: (Usage & { name: string })[];
}

const windowSince = (time: number, start: number) => Math.max(1000, Math.min(KUBELET_RATE_WINDOW_MS, time - start));

export function nodeUsage(s: Summary): NodeUsage | undefined {
  const { cpu, memory, startTime } = s.node;
  if (cpu?.usageNanoCores === undefined || memory?.workingSetBytes === undefined || !cpu.time) return undefined;
  const timestamp = Date.parse(cpu.time);
  return { timestamp, windowMs: windowSince(timestamp, Date.parse(startTime)), cpuNanoCores: cpu.usageNanoCores, memoryBytes: memory.workingSetBytes };
}

/** Usage of each pod of the summary, keyed `namespace/name`. */
export function podUsages(s: Summary): Map<string, PodUsage> {
  const out = new Map<string, PodUsage>();
  for (const pod of s.pods) {
    const containers: PodUsage['containers'] = [];
    let timestamp = Infinity;
    let windowMs = Infinity;
    let complete = true;
    for (const c of pod.containers) {
      if (c.cpu?.usageNanoCores === undefined || c.memory?.workingSetBytes === undefined || !c.cpu.time) {
        complete = false;
        break;
      }
      const t = Date.parse(c.cpu.time);
      timestamp = Math.min(timestamp, t);
      windowMs = Math.min(windowMs, windowSince(t, Date.parse(c.startTime)));
      containers.push({ name: c.name, cpuNanoCores: c.cpu.usageNanoCores, memoryBytes: c.memory.workingSetBytes });
    }
    if (!complete || !containers.length) continue;
    out.set(`${pod.podRef.namespace}/${pod.podRef.name}`, { timestamp, windowMs, containers });
  }
  return out;
}

/** metrics-server's quantities: CPU as a nano-scaled DecimalSI, memory as BinarySI bytes, both canonical. */
export function usageList(u: Usage): { cpu: string; memory: string } {
  return {
    cpu: formatQuantity({ nano: BigInt(Math.max(0, Math.round(u.cpuNanoCores))), format: 'DecimalSI' }),
    memory: formatQuantity({ nano: BigInt(Math.max(0, Math.round(u.memoryBytes))) * 1_000_000_000n, format: 'BinarySI' }),
  };
}

/** metav1.Duration's text (Go's time.Duration.String). */
export const windowText = (ms: number) => goDuration(ms);
