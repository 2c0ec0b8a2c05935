// Seat estimates as kube-apiserver 1.33 makes them (k8s.io/apiserver pkg/util/flowcontrol/request:
// list_work_estimator.go, mutating_work_estimator.go, config.go; apf_controller.go for a level's max seats), and the
// watch counts writes are charged by (watch_tracker.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo, type RequestInfo } from '../request-info.js';
import { WatchTracker } from './watch-tracker.js';
import { estimateWork, levelMaxSeats, type Query, type WorkEstimate } from './work-estimator.js';

const counts: Record<string, number> = { '/pods': 5000, '/configmaps': 40, 'apps/deployments': 12_000 };
const sources = (watchers = 0) => ({
  objectCount: (g: string, r: string) => counts[`${g}/${r}`],
  watchCount: () => watchers,
});

type Case = [name: string, method: string, path: string, query: Query, levelMax: number, watchers: number, want: [number, number, number]];
const cases: Case[] = [
  ['a get is one seat', 'GET', '/api/v1/namespaces/a/pods/p', undefined, 0, 0, [1, 0, 0]],
  ['a consistent list without limit of 5000 pods: from the cache, 5000 / 100 = 50, capped at 10', 'GET', '/api/v1/pods', undefined, 0, 0, [10, 0, 0]],
  ['the same list on a level whose max seats are 4', 'GET', '/api/v1/pods', undefined, 4, 0, [4, 0, 0]],
  ['a list of 40 configmaps: one seat', 'GET', '/api/v1/namespaces/a/configmaps', undefined, 0, 0, [1, 0, 0]],
  ['limit=100 consistent: still served by the cache, charged for every object', 'GET', '/api/v1/pods', { limit: '100' }, 0, 0, [10, 0, 0]],
  ['limit=100 at resourceVersion=0: the cache', 'GET', '/api/v1/pods', { limit: '100', resourceVersion: '0' }, 0, 0, [10, 0, 0]],
  ['limit=100 at an older resourceVersion: storage reads 2 × 100', 'GET', '/api/v1/pods', { limit: '100', resourceVersion: '77' }, 0, 0, [2, 0, 0]],
  ['a continue token: storage, 2 × limit', 'GET', '/api/v1/pods', { limit: '250', continue: 'abc' }, 0, 0, [5, 0, 0]],
  ['a continue token with a label selector: count + limit', 'GET', '/api/v1/pods', { limit: '250', continue: 'abc', labelSelector: 'app=x' }, 0, 0, [10, 0, 0]],
  ['resourceVersionMatch=Exact: storage', 'GET', '/api/v1/namespaces/a/configmaps', { resourceVersion: '5', resourceVersionMatch: 'Exact', limit: '10' }, 0, 0, [1, 0, 0]],
  ['fieldSelector metadata.name=x is a get', 'GET', '/apis/apps/v1/deployments', { fieldSelector: 'metadata.name=web' }, 0, 0, [1, 0, 0]],
  ['fieldSelector on another field is a list', 'GET', '/apis/apps/v1/deployments', { fieldSelector: 'metadata.namespace=a' }, 0, 0, [10, 0, 0]],
  ['a resource storage does not hold: minimum seats', 'GET', '/apis/metrics.k8s.io/v1beta1/pods', undefined, 0, 0, [1, 0, 0]],
  ['a watch without initial events: one seat', 'GET', '/api/v1/pods', { watch: '1' }, 0, 0, [1, 0, 0]],
  ['a watch with sendInitialEvents=true: charged like a list from the cache', 'GET', '/api/v1/pods', { watch: '1', sendInitialEvents: 'true' }, 0, 0, [10, 0, 0]],
  ['a create with 9 watchers: one seat', 'POST', '/api/v1/namespaces/a/pods', undefined, 0, 9, [1, 0, 0]],
  ['a create with 25 watchers: 3 final seats for 5 ms', 'POST', '/api/v1/namespaces/a/pods', undefined, 0, 25, [1, 3, 5]],
  ['a delete with 500 watchers: 50 seats reshaped to 10 for 25 ms', 'DELETE', '/api/v1/namespaces/a/pods/p', undefined, 0, 500, [1, 10, 25]],
  ['a patch with 100 watchers on a level of max 4: 10 seats reshaped to 4 for 12.5 ms', 'PATCH', '/api/v1/namespaces/a/pods/p', undefined, 4, 100, [1, 4, 12.5]],
  ['a ServiceAccount token makes no event', 'POST', '/api/v1/namespaces/a/serviceaccounts/default/token', undefined, 0, 500, [1, 0, 0]],
];

test('work estimates for lists, watches, writes and the rest', () => {
  for (const [name, method, path, query, levelMax, watchers, want] of cases) {
    const info = parseRequestInfo(method, path, !!query?.watch);
    const we: WorkEstimate = estimateWork(info, query, levelMax, sources(watchers));
    assert.deepEqual([we.initialSeats, we.finalSeats, we.additionalLatencyMs], want, name);
  }
});

test('a level\'s max seats: max(1, min(ceil(15% of nominal), nominal / handSize))', () => {
  const table: [number, number, number][] = [
    [49, 6, 8], // global-default of 600 seats: min(8, 8)
    [245, 6, 37], // workload-low: the estimator's own limit of 10 then applies
    [13, 6, 2],
    [3, 8, 1], // never below one
    [40, 0, 0], // a Reject level sets none
  ];
  for (const [nominal, handSize, want] of table) assert.equal(levelMaxSeats(nominal, handSize), want, `${nominal}/${handSize}`);
});

test('watch tracker: a write hears the resource-wide, namespace and named watches', () => {
  const wt = new WatchTracker();
  const info = (path: string, method = 'GET', watch = true): RequestInfo => parseRequestInfo(method, path, watch);
  const forget = [
    wt.register(info('/api/v1/pods')),
    wt.register(info('/api/v1/pods')),
    wt.register(info('/api/v1/namespaces/a/pods')),
    wt.register(info('/api/v1/namespaces/b/pods')),
    wt.register({ ...info('/api/v1/namespaces/a/pods'), name: 'p' }),
    wt.register(info('/apis/apps/v1/deployments')),
  ];
  assert.equal(wt.interested(info('/api/v1/namespaces/a/pods', 'POST', false)), 3, 'a create names no object');
  assert.equal(wt.interested(info('/api/v1/namespaces/a/pods/p', 'PUT', false)), 4);
  assert.equal(wt.interested(info('/api/v1/namespaces/b/pods/p', 'PUT', false)), 3);
  assert.equal(wt.interested(info('/api/v1/nodes/n', 'PATCH', false)), 0);
  forget[0]!();
  forget[0]!();
  forget[4]!();
  assert.equal(wt.interested(info('/api/v1/namespaces/a/pods/p', 'PUT', false)), 2, 'each watch is forgotten once');
});

test('watch tracker: pod watches pinned to a node (the kubelets\' watches) are not counted, as kube leaves them out', () => {
  const wt = new WatchTracker();
  const pods = parseRequestInfo('GET', '/api/v1/pods', true);
  const table: [fieldSelector: string | undefined, counted: boolean][] = [
    ['spec.nodeName=node-1', false],
    ['spec.nodeName==node-1,status.phase!=Failed', false],
    ['spec.nodeName=', true], // the empty value is counted (kube approximates every pinned value by it)
    ['spec.nodeName!=node-1', true],
    ['metadata.namespace=a', true],
    ['spec.nodeName', true], // unparsable: nothing pinned
    [undefined, true],
  ];
  for (const [selector, counted] of table) {
    wt.register(pods, selector);
  }
  assert.equal(wt.interested(parseRequestInfo('PUT', '/api/v1/namespaces/a/pods/p', false)), table.filter(([, c]) => c).length);
  // Only pods are indexed: a node-pinned watch of another resource counts.
  wt.register(parseRequestInfo('GET', '/api/v1/events', true), 'spec.nodeName=node-1');
  assert.equal(wt.interested(parseRequestInfo('POST', '/api/v1/namespaces/a/events', false)), 1);
});
