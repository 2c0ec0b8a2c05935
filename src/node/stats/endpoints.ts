// The kubelet server's stats routes: /stats/summary (pkg/kubelet/server/stats/handler.go) and the Prometheus
// endpoints /metrics, /metrics/resource and /metrics/cadvisor (pkg/kubelet/server/server.go InstallDefaultHandlers).

import type { StatsSource } from './interfaces.js';
import { formatFamilies, PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import { cadvisorMetrics } from './cadvisor-metrics.js';
import { cpuAndMemorySummary, kubeletMetrics, resourceMetrics } from './resource-metrics.js';
import { buildSummary } from './summary.js';

export interface StatsAnswer {
  status: number;
  contentType: string;
  body: string;
}

const notFound: StatsAnswer = { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };

/** Answers a GET on `route` (path segments, e.g. ['stats', 'summary']); undefined when it is not a stats route. */
export function statsEndpoint(src: StatsSource, route: string[], query: URLSearchParams, now: number): StatsAnswer | undefined {
  const [first, second, ...rest] = route;
  if (first === 'stats') {
    if (second !== 'summary' || rest.length) return notFound;
    // handler.go handleSummary: exactly one only_cpu_and_memory=true asks for the short form; anything else is ignored.
    const only = query.getAll('only_cpu_and_memory');
    const summary = buildSummary(src, now, { onlyCpuAndMemory: only.length === 1 && only[0] === 'true' });
    return { status: 200, contentType: 'application/json', body: JSON.stringify(summary) };
  }
  if (first !== 'metrics' || rest.length) return undefined;
  switch (second) {
    case undefined: return prometheus(formatFamilies(kubeletMetrics(src)));
    case 'resource': return prometheus(formatFamilies(resourceMetrics(cpuAndMemorySummary(src, now), src.profile)));
    case 'cadvisor': return prometheus(formatFamilies(cadvisorMetrics(src, cpuAndMemorySummary(src, now))));
  }
  return notFound;
}

const prometheus = (body: string): StatsAnswer => ({ status: 200, contentType: PROMETHEUS_CONTENT_TYPE, body });
