// apiserver_flowcontrol_* metrics (k8s.io/apiserver pkg/util/flowcontrol/metrics/metrics.go, as of 1.33): what each
// (FlowSchema, priority level) pair has dispatched, rejected, queued and is executing, how long requests waited and
// ran, and each level's seat limits, demand and virtual-time readings. Names, labels, stability and help are kube's.
// Left out: the series kube 1.33 hides (request_concurrency_limit, deprecated in 1.30, and request_concurrency_in_use,
// in 1.31), epoch_advance_total (R here is a float64 that never needs winding back, so kube would show no series), and
// the timing-ratio histograms (priority_level_*_utilization, read_vs_write_current_requests, demand_seats).

import type { FlowControlConfig, FlowCounters, Level } from './config.js';
import type { Histogram } from './histogram.js';

type Stability = 'ALPHA' | 'BETA';

export function renderMetrics(cfg: FlowControlConfig): string {
  const out: string[] = [];
  const head = (name: string, type: 'counter' | 'gauge' | 'histogram', stability: Stability, help: string) =>
    out.push(`# HELP apiserver_flowcontrol_${name} [${stability}] ${help}`, `# TYPE apiserver_flowcontrol_${name} ${type}`);
  const family = (name: string, type: 'counter' | 'gauge', stability: Stability, help: string, rows: [string, number][]) => {
    if (rows.length === 0) return; // a vector with no children shows nothing
    head(name, type, stability, help);
    for (const [labels, v] of rows) out.push(`apiserver_flowcontrol_${name}${labels ? `{${labels}}` : ''} ${num(v)}`);
  };
  const histograms = (name: string, stability: Stability, help: string, rows: [string, Histogram][]) => {
    const seen = rows.filter(([, h]) => h.count > 0);
    if (seen.length === 0) return;
    head(name, 'histogram', stability, help);
    for (const [labels, h] of seen) h.render(`apiserver_flowcontrol_${name}`, labels, out);
  };

  // Labels in name order, as the Prometheus client writes them.
  const pairs = [...cfg.allCounters()].sort((a, b) => cmp(a.flowSchema, b.flowSchema) || cmp(a.priorityLevel, b.priorityLevel));
  const lbl = (c: FlowCounters) => `flow_schema="${c.flowSchema}",priority_level="${c.priorityLevel}"`;
  const each = (f: (c: FlowCounters) => number): [string, number][] => pairs.map((c) => [lbl(c), f(c)]);
  family('dispatched_requests_total', 'counter', 'BETA', 'Number of requests executed by API Priority and Fairness subsystem', each((c) => c.dispatched));
  family('rejected_requests_total', 'counter', 'BETA', 'Number of requests rejected by API Priority and Fairness subsystem',
    pairs.flatMap((c) => Object.entries(c.rejected).filter(([, n]) => n > 0).map(([reason, n]): [string, number] => [`${lbl(c)},reason="${reason}"`, n])));
  family('current_inqueue_requests', 'gauge', 'BETA', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', each((c) => c.inQueue));
  family('current_inqueue_seats', 'gauge', 'ALPHA', 'Number of seats currently pending in queues of the API Priority and Fairness subsystem', each((c) => c.inQueueSeats));
  family('current_executing_requests', 'gauge', 'BETA', 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', each((c) => c.executing));
  family('current_executing_seats', 'gauge', 'BETA', 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem', each((c) => c.executingSeats));
  family('request_dispatch_no_accommodation_total', 'counter', 'ALPHA', 'Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats',
    pairs.filter((c) => c.noAccommodation > 0).map((c) => [lbl(c), c.noAccommodation]));
  histograms('request_queue_length_after_enqueue', 'ALPHA', 'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued', pairs.map((c) => [lbl(c), c.queueLengths]));
  histograms('request_wait_duration_seconds', 'BETA', 'Length of time a request spent waiting in its queue',
    pairs.flatMap((c): [string, Histogram][] => [[`execute="false",${lbl(c)}`, c.waitFalse], [`execute="true",${lbl(c)}`, c.waitTrue]]));
  histograms('request_execution_seconds', 'ALPHA', 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
    pairs.flatMap((c): [string, Histogram][] => [[`${lbl(c)},type="regular"`, c.execRegular], [`${lbl(c)},type="watch"`, c.execWatch]]));
  histograms('work_estimated_seats', 'ALPHA', 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness', pairs.map((c) => [lbl(c), c.workSeats]));
  histograms('watch_count_samples', 'ALPHA', 'count of watchers for mutating requests in API Priority and Fairness', pairs.map((c) => [lbl(c), c.watchCounts]));

  const levels = [...cfg.levels.values()].sort((a, b) => cmp(a.name, b.name));
  const per = (f: (l: Level) => number, which: readonly Level[] = levels): [string, number][] => which.map((l) => [`priority_level="${l.name}"`, f(l)]);
  family('nominal_limit_seats', 'gauge', 'BETA', 'Nominal number of execution seats configured for each priority level', per((l) => l.limits.nominal));
  family('lower_limit_seats', 'gauge', 'ALPHA', 'Configured lower bound on number of execution seats available to each priority level', per((l) => l.limits.min));
  family('upper_limit_seats', 'gauge', 'ALPHA', 'Configured upper bound on number of execution seats available to each priority level', per((l) => l.limits.max));
  family('current_limit_seats', 'gauge', 'ALPHA', 'current derived number of execution seats available to each priority level', per((l) => l.currentCL));
  family('demand_seats_high_watermark', 'gauge', 'ALPHA', 'High watermark, over last adjustment period, of demand_seats', per((l) => l.demand.highWatermark));
  family('demand_seats_average', 'gauge', 'ALPHA', 'Time-weighted average, over last adjustment period, of demand_seats', per((l) => l.demand.avg));
  family('demand_seats_stdev', 'gauge', 'ALPHA', 'Time-weighted standard deviation, over last adjustment period, of demand_seats', per((l) => l.demand.stdDev));
  family('demand_seats_smoothed', 'gauge', 'ALPHA', 'Smoothed seat demands', per((l) => l.demand.smoothed));
  family('target_seats', 'gauge', 'ALPHA', 'Seat allocation targets', per((l) => l.target));
  family('seat_fair_frac', 'gauge', 'ALPHA', "Fair fraction of server's concurrency to allocate to each priority level that can use it", [['', cfg.fairFrac]]);

  // Virtual time: every limited level keeps R; the dispatch readings exist once a queue has dispatched.
  const limited = levels.filter((l) => !l.exempt);
  family('current_r', 'gauge', 'ALPHA', 'R(time of last change)', per((l) => l.qs.currentR, limited));
  const dispatched = limited.filter((l) => l.qs.lastDispatch);
  const reading = (f: (d: NonNullable<Level['qs']['lastDispatch']>) => number) => (l: Level) => f(l.qs.lastDispatch!);
  family('dispatch_r', 'gauge', 'ALPHA', 'R(time of last dispatch)', per(reading((d) => d.r), dispatched));
  family('latest_s', 'gauge', 'ALPHA', 'S(most recently dispatched request)', per(reading((d) => d.s), dispatched));
  const bounds = (lo: (d: NonNullable<Level['qs']['lastDispatch']>) => number, hi: typeof lo): [string, number][] =>
    dispatched.flatMap((l): [string, number][] => [[`bound="max",priority_level="${l.name}"`, hi(l.qs.lastDispatch!)], [`bound="min",priority_level="${l.name}"`, lo(l.qs.lastDispatch!)]]);
  family('next_s_bounds', 'gauge', 'ALPHA', 'min and max, over queues, of S(oldest waiting request in queue)', bounds((d) => d.sMin, (d) => d.sMax));
  family('next_discounted_s_bounds', 'gauge', 'ALPHA', 'min and max, over queues, of S(oldest waiting request in queue) - estimated work in progress', bounds((d) => d.dsMin, (d) => d.dsMax));
  return out.join('\n') + '\n';
}

/** A sample value as Go's strconv writes it for Prometheus: infinities as ±Inf. */
function num(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
