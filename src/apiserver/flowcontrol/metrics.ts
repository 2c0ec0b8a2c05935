// apiserver_flowcontrol_* metrics (k8s.io/apiserver pkg/util/flowcontrol/metrics/metrics.go): what each
// (FlowSchema, priority level) pair has dispatched, rejected, queued and is executing, and each level's seat limits.

import type { FlowControlConfig } from './config.js';

export function renderMetrics(cfg: FlowControlConfig): string {
  const out: string[] = [];
  const family = (name: string, type: 'counter' | 'gauge', help: string, rows: [string, number][]) => {
    out.push(`# HELP apiserver_flowcontrol_${name} [BETA] ${help}`, `# TYPE apiserver_flowcontrol_${name} ${type}`);
    for (const [labels, v] of rows) out.push(`apiserver_flowcontrol_${name}{${labels}} ${v}`);
  };
  const pairs = [...cfg.allCounters()].sort((a, b) => (a.priorityLevel + a.flowSchema < b.priorityLevel + b.flowSchema ? -1 : 1));
  const lbl = (pl: string, fs: string) => `flow_schema="${fs}",priority_level="${pl}"`;
  family('dispatched_requests_total', 'counter', 'Number of requests executed by API Priority and Fairness subsystem',
    pairs.map((c) => [lbl(c.priorityLevel, c.flowSchema), c.dispatched]));
  family('rejected_requests_total', 'counter', 'Number of requests rejected by API Priority and Fairness subsystem',
    pairs.flatMap((c) => Object.entries(c.rejected).filter(([, n]) => n > 0).map(([reason, n]): [string, number] => [`${lbl(c.priorityLevel, c.flowSchema)},reason="${reason}"`, n])));
  family('current_inqueue_requests', 'gauge', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
    pairs.map((c) => [lbl(c.priorityLevel, c.flowSchema), c.inQueue]));
  family('current_executing_requests', 'gauge', 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
    pairs.map((c) => [lbl(c.priorityLevel, c.flowSchema), c.executing]));
  family('current_executing_seats', 'gauge', 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
    pairs.map((c) => [lbl(c.priorityLevel, c.flowSchema), c.executingSeats]));
  const levels = [...cfg.levels.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  family('nominal_limit_seats', 'gauge', 'Nominal number of execution seats configured for each priority level',
    levels.map((l) => [`priority_level="${l.name}"`, l.limits.nominal]));
  family('current_limit_seats', 'gauge', 'current derived number of execution seats available to each priority level',
    levels.map((l) => [`priority_level="${l.name}"`, l.currentCL]));
  return out.join('\n') + '\n';
}
