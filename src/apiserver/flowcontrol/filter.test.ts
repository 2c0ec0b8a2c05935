// The APF filter around watches and its metrics (k8s.io/apiserver pkg/server/filters/priority-and-fairness.go: a
// watch executes until its initialization signal; kube-aggregator handler_proxy.go signals before proxying;
// pkg/util/flowcontrol/metrics/metrics.go for names, labels, stability and help).

import test from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../bootstrap-flowcontrol.js';
import type { ServerResponse, StreamedResponse, WatchResponse } from '../interfaces.js';
import { parseRequestInfo } from '../request-info.js';
import { FlowControl } from './filter.js';

const user = { name: 'alice', groups: ['system:authenticated'] };
const PAIR = 'flow_schema="global-default",priority_level="global-default"';
const watchInfo = parseRequestInfo('GET', '/api/v1/namespaces/ns/configmaps', true);
const writeInfo = parseRequestInfo('POST', '/api/v1/namespaces/ns/configmaps', false);
const tick = () => new Promise((r) => setImmediate(r));

function apf(): FlowControl {
  const fc = new FlowControl({ objectCount: () => 250 });
  fc.reconfigure(FLOW_SCHEMAS, PRIORITY_LEVELS);
  return fc;
}

/** One series' value from the exposition text (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const executing = (fc: FlowControl) => sample(fc.metrics(), `apiserver_flowcontrol_current_executing_requests{${PAIR}}`);

test('a watch holds its seats until it is initialized, and counts for writes while open', async () => {
  const fc = apf();
  let initialized!: () => void;
  const ready = new Promise<void>((r) => (initialized = r));
  let stopped = 0;
  const answer: WatchResponse = {
    status: 200, contentType: 'application/json',
    watch: async () => {
      await ready; // initial events being sent
      return () => void stopped++;
    },
  };
  const out = await fc.serve(watchInfo, 'GET', user, undefined, () => Promise.resolve(answer));
  assert.equal(executing(fc), 1, 'executing before the stream starts');
  const started = (out as WatchResponse).watch({ send: () => {}, close: () => {} });
  await tick();
  assert.equal(executing(fc), 1, 'still executing while initializing');
  assert.equal(fc.watches.interested(writeInfo), 1, 'registered as soon as it starts');
  initialized();
  const stop = await started;
  assert.equal(executing(fc), 0, 'initialized: seats given back');
  const m = fc.metrics();
  assert.equal(sample(m, `apiserver_flowcontrol_request_execution_seconds_count{${PAIR},type="watch"}`), 1);
  assert.equal(fc.watches.interested(writeInfo), 1, 'open watches still count');
  stop();
  assert.deepEqual([stopped, fc.watches.interested(writeInfo)], [1, 0]);
});

test('a watch answer nobody starts gives its seats back on the next turn', async () => {
  const fc = apf();
  const answer: WatchResponse = { status: 200, contentType: 'application/json', watch: () => Promise.resolve(() => {}) };
  await fc.serve(watchInfo, 'GET', user, undefined, () => Promise.resolve(answer));
  assert.equal(executing(fc), 1);
  await tick();
  assert.equal(executing(fc), 0);
  assert.equal(fc.watches.interested(writeInfo), 0, 'never started, never counted');
});

test('a watch proxied to an aggregated API frees its seats at once and counts until its stream closes', async () => {
  const fc = apf();
  const stream = new PassThrough();
  const relayed: StreamedResponse = { status: 200, headers: { 'content-type': 'application/json' }, stream };
  const out = await fc.serve(watchInfo, 'GET', user, undefined, () => Promise.resolve<ServerResponse>(relayed));
  assert.equal(executing(fc), 0, 'kube-aggregator signals initialization before proxying');
  assert.equal(fc.watches.interested(writeInfo), 1);
  assert.ok('stream' in out && 'X-Kubernetes-PF-FlowSchema-UID' in out.headers, 'the relayed answer carries the PF headers');
  stream.destroy();
  await new Promise((r) => stream.once('close', r));
  assert.equal(fc.watches.interested(writeInfo), 0);
});

test('metrics: kube\'s flowcontrol series, labels and stability for what the model computes', async () => {
  const fc = apf();
  const ok = () => Promise.resolve<ServerResponse>({ status: 200, body: {}, contentType: 'application/json' });
  const listInfo = parseRequestInfo('GET', '/api/v1/namespaces/ns/configmaps', false);
  await fc.serve(listInfo, 'GET', user, undefined, ok);
  // Ten open watches of the namespace make each write wake ten watchers (watch_count_samples).
  const forget = Array.from({ length: 10 }, () => fc.watches.register(watchInfo));
  await fc.serve(writeInfo, 'POST', user, undefined, ok);
  forget.forEach((f) => f());
  fc.config.rebalance();
  const m = fc.metrics();
  // The write: one seat, and ceil(10 watchers / 10) = 1 final seat; the list of 250 objects from the watch cache:
  // ceil(250 / 100) = 3 seats.
  assert.equal(sample(m, `apiserver_flowcontrol_work_estimated_seats_bucket{${PAIR},le="1"}`), 1);
  assert.equal(sample(m, `apiserver_flowcontrol_work_estimated_seats_bucket{${PAIR},le="2"}`), 1);
  assert.equal(sample(m, `apiserver_flowcontrol_work_estimated_seats_bucket{${PAIR},le="4"}`), 2);
  assert.equal(sample(m, `apiserver_flowcontrol_watch_count_samples_bucket{${PAIR},le="1"}`), 0);
  assert.equal(sample(m, `apiserver_flowcontrol_watch_count_samples_bucket{${PAIR},le="10"}`), 1);
  assert.equal(sample(m, `apiserver_flowcontrol_request_wait_duration_seconds_count{execute="true",${PAIR}}`), 2);
  assert.equal(sample(m, `apiserver_flowcontrol_request_execution_seconds_count{${PAIR},type="regular"}`), 2);
  // Seats free: each request was enqueued and dispatched at once, seeing a queue one long.
  assert.equal(sample(m, `apiserver_flowcontrol_request_queue_length_after_enqueue_bucket{${PAIR},le="0"}`), 0);
  assert.equal(sample(m, `apiserver_flowcontrol_request_queue_length_after_enqueue_bucket{${PAIR},le="10"}`), 2);
  assert.equal(sample(m, `apiserver_flowcontrol_current_inqueue_seats{${PAIR}}`), 0);
  assert.equal(sample(m, `apiserver_flowcontrol_dispatched_requests_total{${PAIR}}`), 2);
  // global-default: 20 shares of 245 → ceil(600 × 20 / 245) = 49 seats, 50% lendable, no borrowing limit set.
  assert.equal(sample(m, 'apiserver_flowcontrol_nominal_limit_seats{priority_level="global-default"}'), 49);
  assert.equal(sample(m, 'apiserver_flowcontrol_lower_limit_seats{priority_level="global-default"}'), 24);
  assert.equal(sample(m, 'apiserver_flowcontrol_upper_limit_seats{priority_level="global-default"}'), 649);
  for (const series of ['target_seats', 'demand_seats_smoothed', 'demand_seats_high_watermark', 'demand_seats_average', 'demand_seats_stdev', 'current_r', 'dispatch_r', 'latest_s']) {
    assert.ok(sample(m, `apiserver_flowcontrol_${series}{priority_level="global-default"}`) !== undefined, series);
  }
  assert.ok(sample(m, 'apiserver_flowcontrol_next_s_bounds{bound="min",priority_level="global-default"}') !== undefined);
  assert.ok(sample(m, 'apiserver_flowcontrol_next_discounted_s_bounds{bound="max",priority_level="global-default"}') !== undefined);
  assert.ok((sample(m, 'apiserver_flowcontrol_seat_fair_frac') ?? -1) >= 0);
  // Exempt levels have no queues, hence no virtual time.
  assert.equal(sample(m, 'apiserver_flowcontrol_current_r{priority_level="exempt"}'), undefined);
  assert.match(m, /^# HELP apiserver_flowcontrol_nominal_limit_seats \[BETA\] Nominal number of execution seats configured for each priority level$/m);
  assert.match(m, /^# HELP apiserver_flowcontrol_current_limit_seats \[ALPHA\] current derived number of execution seats available to each priority level$/m);
  assert.match(m, /^# TYPE apiserver_flowcontrol_request_wait_duration_seconds histogram$/m);
  // Deprecated in 1.30 and 1.31: hidden by a 1.33 server.
  assert.doesNotMatch(m, /request_concurrency_limit|request_concurrency_in_use/);
  fc.stop();
});
