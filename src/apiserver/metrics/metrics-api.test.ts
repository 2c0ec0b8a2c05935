// metrics.k8s.io answers from kubelet summaries (faked here): lists, gets, selectors, the NotFound wording of
// metrics-server, Running-only pods, unreachable nodes left out, tables and the verbs it does not serve.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/types.js';
import type { Summary } from '../../node/stats/interfaces.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { isWatchResponse, type AggregatedContext, type ServerRequest } from '../interfaces.js';
import { parseRequestInfo } from '../request-info.js';
import { MetricsApi } from './metrics-api.js';
import { usageList } from './convert.js';

const T = '2025-01-01T00:10:00Z';
const clock = new FakeClock(Date.parse(T));

const node = (name: string, labels: Record<string, string> = {}): KubeObject => ({ metadata: { name, labels } });
const pod = (ns: string, name: string, nodeName: string, phase = 'Running', labels: Record<string, string> = {}): KubeObject =>
  ({ metadata: { namespace: ns, name, labels }, spec: { nodeName }, status: { phase } } as unknown as KubeObject);

const container = (name: string, nanoCores: number, ws: number, start = '2025-01-01T00:00:00Z') => ({
  name, startTime: start, cpu: { time: T, usageNanoCores: nanoCores, usageCoreNanoSeconds: 1 }, memory: { time: T, workingSetBytes: ws },
});

const SUMMARIES: Record<string, Summary> = {
  'lin-1': {
    node: { nodeName: 'lin-1', startTime: '2025-01-01T00:00:00Z', cpu: { time: T, usageNanoCores: 250_000_000 }, memory: { time: T, workingSetBytes: 512 * 1024 * 1024 } },
    pods: [
      { podRef: { namespace: 'default', name: 'web', uid: 'u1' }, startTime: T, containers: [container('a', 1_000_000, 4096 * 1024), container('b', 137_853_455, 1000)] },
      { podRef: { namespace: 'kube-system', name: 'dns', uid: 'u2' }, startTime: T, containers: [container('dns', 2_000_000, 8 * 1024 * 1024, '2025-01-01T00:09:57Z')] },
      { podRef: { namespace: 'default', name: 'partial', uid: 'u3' }, startTime: T, containers: [{ name: 'x', startTime: T }] },
    ],
  },
  'win-1': {
    node: { nodeName: 'win-1', startTime: '2025-01-01T00:00:00Z', cpu: { time: T, usageNanoCores: 150_000_000 }, memory: { time: T, workingSetBytes: 1700 * 1024 * 1024 } },
    pods: [{ podRef: { namespace: 'default', name: 'iis', uid: 'u4' }, startTime: T, containers: [container('iis', 500_000_000, 95 * 1024 * 1024)] }],
  },
};

const NODES = [node('win-1', { 'kubernetes.io/os': 'windows' }), node('lin-1', { 'kubernetes.io/os': 'linux' }), node('gone-1', { 'kubernetes.io/os': 'linux' })];
const PODS = [
  pod('default', 'web', 'lin-1', 'Running', { app: 'web' }), pod('kube-system', 'dns', 'lin-1'), pod('default', 'partial', 'lin-1'),
  pod('default', 'iis', 'win-1', 'Running', { app: 'iis' }), pod('default', 'pending', 'win-1', 'Pending'), pod('default', 'orphan', 'gone-1'),
];

const ctx: AggregatedContext = {
  kubeletClient: { cert: '', key: '', ca: '' },
  lookup: {
    get: (_g, resource, ns, name) => (resource === 'nodes' ? NODES : PODS).find((o) => o.metadata.name === name && (resource === 'nodes' || o.metadata.namespace === ns)),
    list: (_g, resource, ns) => (resource === 'nodes' ? NODES : PODS.filter((p) => !ns || p.metadata.namespace === ns)),
  },
};

const api = new MetricsApi({
  clock, logger: silentLogger,
  // gone-1's kubelet does not answer: metrics-server leaves the node out.
  fetch: async (n) => {
    const s = SUMMARIES[n.metadata.name ?? ''];
    if (!s) throw new Error('connection refused');
    return s;
  },
});

async function call(path: string, opts: { method?: ServerRequest['method']; query?: Record<string, string>; accept?: string } = {}) {
  const method = opts.method ?? 'GET';
  const info = parseRequestInfo(method, path, opts.query?.watch === 'true');
  try {
    const res = await api.handle({ method, path, query: opts.query, accept: opts.accept }, info, ctx);
    if (isWatchResponse(res) || !('status' in res)) throw new Error('unexpected response');
    return { status: res.status, body: res.body as Record<string, unknown> };
  } catch (err) {
    const e = err as { code: number; message: string; reason: string };
    return { status: e.code, body: { message: e.message, reason: e.reason } };
  }
}

const names = (b: Record<string, unknown>) => (b.items as KubeObject[]).map((i) => `${i.metadata.namespace ? `${i.metadata.namespace}/` : ''}${i.metadata.name}`);

test('metrics-server quantities: nano-scaled CPU and BinarySI memory, canonical', () => {
  const cases: [number, number, { cpu: string; memory: string }][] = [
    [250_000_000, 512 * 1024 * 1024, { cpu: '250m', memory: '512Mi' }],
    [137_853_455, 1_317_953_536, { cpu: '137853455n', memory: '1287064Ki' }],
    [0, 1000, { cpu: '0', memory: '1k' }],
    [2e9, 4096 * 1025, { cpu: '2', memory: '4100Ki' }],
  ];
  for (const [cpu, mem, want] of cases) assert.deepEqual(usageList({ cpuNanoCores: cpu, memoryBytes: mem }), want);
});

test('requests and answers', async () => {
  const cases: { name: string; path: string; query?: Record<string, string>; method?: ServerRequest['method']; status: number; check?: (b: Record<string, unknown>) => void }[] = [
    {
      name: 'node list: sorted, unreachable kubelets left out, items without kind', path: '/apis/metrics.k8s.io/v1beta1/nodes', status: 200,
      check: (b) => {
        assert.equal(b.kind, 'NodeMetricsList');
        assert.equal(b.apiVersion, 'metrics.k8s.io/v1beta1');
        assert.deepEqual(names(b), ['lin-1', 'win-1']);
        const lin = (b.items as Record<string, unknown>[])[0];
        assert.equal(lin.kind, undefined);
        assert.deepEqual(lin.usage, { cpu: '250m', memory: '512Mi' });
        assert.equal(lin.timestamp, T);
        assert.equal(lin.window, '10s');
        assert.deepEqual((lin.metadata as KubeObject['metadata']).labels, { 'kubernetes.io/os': 'linux' });
      },
    },
    { name: 'node list by label', path: '/apis/metrics.k8s.io/v1beta1/nodes', query: { labelSelector: 'kubernetes.io/os=windows' }, status: 200, check: (b) => assert.deepEqual(names(b), ['win-1']) },
    { name: 'node list by field', path: '/apis/metrics.k8s.io/v1beta1/nodes', query: { fieldSelector: 'metadata.name=lin-1' }, status: 200, check: (b) => assert.deepEqual(names(b), ['lin-1']) },
    { name: 'a bad selector', path: '/apis/metrics.k8s.io/v1beta1/nodes', query: { labelSelector: 'a in (' }, status: 400 },
    { name: 'an unsupported field', path: '/apis/metrics.k8s.io/v1beta1/nodes', query: { fieldSelector: 'spec.unschedulable=true' }, status: 400, check: (b) => assert.equal(b.message, 'field label not supported: spec.unschedulable') },
    { name: 'one node', path: '/apis/metrics.k8s.io/v1beta1/nodes/win-1', status: 200, check: (b) => assert.deepEqual([b.kind, b.usage], ['NodeMetrics', { cpu: '150m', memory: '1700Mi' }]) },
    { name: 'a node that does not exist', path: '/apis/metrics.k8s.io/v1beta1/nodes/nope', status: 404, check: (b) => assert.equal(b.message, 'node "nope" not found') },
    { name: 'a node without metrics', path: '/apis/metrics.k8s.io/v1beta1/nodes/gone-1', status: 404, check: (b) => assert.equal(b.message, 'nodemetrics.metrics.k8s.io "gone-1" not found') },
    {
      name: 'pods of a namespace: Running ones with every container measured', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', status: 200,
      check: (b) => {
        assert.equal(b.kind, 'PodMetricsList');
        assert.deepEqual(names(b), ['default/iis', 'default/web']);
        const web = (b.items as Record<string, unknown>[])[1];
        assert.deepEqual(web.containers, [{ name: 'a', usage: { cpu: '1m', memory: '4Mi' } }, { name: 'b', usage: { cpu: '137853455n', memory: '1k' } }]);
      },
    },
    { name: 'pods across namespaces', path: '/apis/metrics.k8s.io/v1beta1/pods', status: 200, check: (b) => assert.deepEqual(names(b), ['default/iis', 'default/web', 'kube-system/dns']) },
    { name: 'pods by label', path: '/apis/metrics.k8s.io/v1beta1/pods', query: { labelSelector: 'app=iis' }, status: 200, check: (b) => assert.deepEqual(names(b), ['default/iis']) },
    { name: 'a young container: its window is its life', path: '/apis/metrics.k8s.io/v1beta1/namespaces/kube-system/pods/dns', status: 200, check: (b) => assert.equal(b.window, '3s') },
    { name: 'a pod that does not exist', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope', status: 404, check: (b) => assert.equal(b.message, 'pod "nope" not found') },
    { name: 'a pod not Running', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/pending', status: 404, check: (b) => assert.equal(b.message, 'podmetrics.metrics.k8s.io "default/pending" not found') },
    { name: 'a pod on an unreachable node', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/orphan', status: 404 },
    { name: 'watch is not served', path: '/apis/metrics.k8s.io/v1beta1/nodes', query: { watch: 'true' }, status: 405 },
    { name: 'nor create', path: '/apis/metrics.k8s.io/v1beta1/nodes', method: 'POST', status: 405 },
    { name: 'no subresources', path: '/apis/metrics.k8s.io/v1beta1/nodes/win-1/status', status: 404 },
    { name: 'nodes are not namespaced', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/nodes', status: 404 },
    { name: 'unknown resources', path: '/apis/metrics.k8s.io/v1beta1/services', status: 404 },
  ];
  for (const c of cases) {
    const res = await call(c.path, { query: c.query, method: c.method });
    assert.equal(res.status, c.status, `${c.name}: ${JSON.stringify(res.body)}`);
    c.check?.(res.body);
  }
});

test('tables as metrics-server prints them: Name, cpu, memory, Window; pods sum their containers', async () => {
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  const res = await call('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', { accept });
  const table = res.body as { kind: string; columnDefinitions: { name: string; format: string }[]; rows: { cells: unknown[]; object: { kind: string } }[] };
  assert.equal(table.kind, 'Table');
  assert.deepEqual(table.columnDefinitions.map((c) => `${c.name}:${c.format}`), ['Name:name', 'cpu:quantity', 'memory:quantity', 'Window:duration']);
  assert.deepEqual(table.rows.map((r) => r.cells), [['iis', '500m', '95Mi', '10s'], ['web', '138853455n', '4195304', '10s']]);
  assert.equal(table.rows[0].object.kind, 'PartialObjectMetadata');
});
