// The kubelet's Prometheus endpoints from the summary: /metrics/resource (pkg/kubelet/metrics/collectors/
// resource_metrics.go; STABLE from v1.29, when scrape_error was renamed resource_scrape_error and hidden a release
// later) and a few of the kubelet's own /metrics.

import type { NodeProfile } from '../profile.js';
import { isRunning } from './container-usage.js';
import type { StatsSource, Summary } from './interfaces.js';
import type { Family, Sample } from './prometheus.js';
import { buildSummary, kubeletMinor } from './summary.js';

/** Clock ms of a summary time; the few distinct times of one summary are parsed once. */
const parsedTimes = new Map<string, number>();
export function ms(rfc: string | null | undefined): number | undefined {
  if (!rfc) return undefined;
  let t = parsedTimes.get(rfc);
  if (t === undefined) {
    if (parsedTimes.size > 4096) parsedTimes.clear();
    parsedTimes.set(rfc, (t = Date.parse(rfc)));
  }
  return t;
}

/** component-base metrics annotate help with the stability level, and deprecated ones with their release. */
function help(text: string, level: 'ALPHA' | 'STABLE', deprecatedSince?: string): string {
  return `[${level}] ${deprecatedSince ? `(Deprecated since ${deprecatedSince}) ` : ''}${text}`;
}

/** /metrics/resource: built from GetCPUAndMemoryStats, as the kubelet's collector is. */
export function resourceMetrics(summary: Summary, p: NodeProfile): Family[] {
  const minor = kubeletMinor(p);
  const level = minor >= 29 ? 'STABLE' : 'ALPHA';
  const fam = (name: string, text: string, type: Family['type'], samples: Sample[], l: 'ALPHA' | 'STABLE' = level, deprecated?: string): Family => ({
    name, type, help: help(text, l, deprecated), samples,
  });
  const n = summary.node;
  const nodeCpu: Sample[] = n.cpu?.usageCoreNanoSeconds !== undefined ? [{ value: n.cpu.usageCoreNanoSeconds / 1e9, timestampMs: ms(n.cpu.time) }] : [];
  const nodeMem: Sample[] = n.memory?.workingSetBytes !== undefined ? [{ value: n.memory.workingSetBytes, timestampMs: ms(n.memory.time) }] : [];
  const start: Sample[] = [];
  const cCpu: Sample[] = [];
  const cMem: Sample[] = [];
  const pCpu: Sample[] = [];
  const pMem: Sample[] = [];
  for (const pod of summary.pods) {
    const podLabels = { pod: pod.podRef.name, namespace: pod.podRef.namespace };
    for (const c of pod.containers) {
      const labels = { container: c.name, ...podLabels };
      const started = ms(c.startTime);
      if (started && started > 0) start.push({ labels, value: started / 1000 });
      if (c.cpu?.usageCoreNanoSeconds !== undefined) cCpu.push({ labels, value: c.cpu.usageCoreNanoSeconds / 1e9, timestampMs: ms(c.cpu.time) });
      if (c.memory?.workingSetBytes !== undefined) cMem.push({ labels, value: c.memory.workingSetBytes, timestampMs: ms(c.memory.time) });
    }
    if (pod.cpu?.usageCoreNanoSeconds !== undefined) pCpu.push({ labels: podLabels, value: pod.cpu.usageCoreNanoSeconds / 1e9, timestampMs: ms(pod.cpu.time) });
    if (pod.memory?.workingSetBytes !== undefined) pMem.push({ labels: podLabels, value: pod.memory.workingSetBytes, timestampMs: ms(pod.memory.time) });
  }
  const families = [
    fam('node_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the node in core-seconds', 'counter', nodeCpu),
    fam('node_memory_working_set_bytes', 'Current working set of the node in bytes', 'gauge', nodeMem),
    fam('container_start_time_seconds', 'Start time of the container since unix epoch in seconds', 'gauge', start),
    fam('container_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the container in core-seconds', 'counter', cCpu),
    fam('container_memory_working_set_bytes', 'Current working set of the container in bytes', 'gauge', cMem),
    fam('pod_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the pod in core-seconds', 'counter', pCpu),
    fam('pod_memory_working_set_bytes', 'Current working set of the pod in bytes', 'gauge', pMem),
  ];
  const errorText = '1 if there was an error while getting container metrics, 0 otherwise';
  if (minor >= 29) families.push(fam('resource_scrape_error', errorText, 'gauge', [{ value: 0 }], 'STABLE'));
  // A metric deprecated in 1.29 is hidden from 1.30 on (component-base/metrics shouldHide).
  if (minor < 30) families.push(fam('scrape_error', errorText, 'gauge', [{ value: 0 }], 'ALPHA', minor >= 29 ? '1.29.0' : undefined));
  return families;
}

/** The kubelet's own /metrics: a few gauges from pkg/kubelet/metrics/metrics.go. */
export function kubeletMetrics(src: StatsSource): Family[] {
  const sandboxes = src.pods.filter((r) => r.sandboxID && (r.state === 'active' || r.state === 'terminating')).length;
  const counts: Record<string, number> = { created: 0, exited: 0, running: 0 };
  for (const rec of src.pods) {
    for (const c of rec.containers) {
      if (isRunning(c)) counts.running++;
      else if (c.state === 'created') counts.created++;
      else if (c.terminated) counts.exited++;
    }
  }
  return [
    { name: 'kubelet_node_name', help: help("The node's name. The count is always 1.", 'ALPHA'), type: 'gauge', samples: [{ labels: { node: src.profile.name }, value: 1 }] },
    { name: 'kubelet_running_pods', help: help('Number of pods that have a running pod sandbox', 'ALPHA'), type: 'gauge', samples: [{ value: sandboxes }] },
    {
      name: 'kubelet_running_containers', help: help('Number of containers currently running', 'ALPHA'), type: 'gauge',
      samples: Object.entries(counts).map(([state, value]) => ({ labels: { container_state: state }, value })),
    },
  ];
}

/** The summary /metrics/resource and /metrics/cadvisor read (CPU and memory only). */
export function cpuAndMemorySummary(src: StatsSource, now: number): Summary {
  return buildSummary(src, now, { onlyCpuAndMemory: true });
}
