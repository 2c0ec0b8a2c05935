import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { linuxProfile, windowsProfile } from '../fleet-defaults.js';
import type { NodeProfile } from '../profile.js';
import { StageHarness } from '../testing/stage-harness.js';
import { statsEndpoint } from './endpoints.js';
import { parseText, PROMETHEUS_CONTENT_TYPE } from './prometheus.js';

const nginx: Pod = {
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-web' },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
  status: { phase: 'Pending', qosClass: 'BestEffort' },
};

async function node(profile: NodeProfile) {
  const h = new StageHarness(nginx, profile, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  await h.advance(5000);
  const src = { profile, bootTime: h.start, images: ['docker.io/library/nginx:1.27'], pods: [h.rec] };
  return (path: string) => statsEndpoint(src, path.split('/').filter(Boolean), new URLSearchParams(path.split('?')[1] ?? ''), h.clock.now());
}

const helpLines = (body: string) => body.split('\n').filter((l) => l.startsWith('# HELP')).map((l) => l.split(' ').slice(2, 4).join(' '));

test('/metrics/resource: names, labels and stability per kubelet version', async () => {
  const cases: { version: string; want: string[] }[] = [
    {
      version: 'v1.28.9',
      want: ['container_cpu_usage_seconds_total [ALPHA]', 'container_memory_working_set_bytes [ALPHA]', 'container_start_time_seconds [ALPHA]',
        'node_cpu_usage_seconds_total [ALPHA]', 'node_memory_working_set_bytes [ALPHA]', 'pod_cpu_usage_seconds_total [ALPHA]',
        'pod_memory_working_set_bytes [ALPHA]', 'scrape_error [ALPHA]'],
    },
    {
      version: 'v1.29.4',
      want: ['container_cpu_usage_seconds_total [STABLE]', 'container_memory_working_set_bytes [STABLE]', 'container_start_time_seconds [STABLE]',
        'node_cpu_usage_seconds_total [STABLE]', 'node_memory_working_set_bytes [STABLE]', 'pod_cpu_usage_seconds_total [STABLE]',
        'pod_memory_working_set_bytes [STABLE]', 'resource_scrape_error [STABLE]', 'scrape_error [ALPHA]'],
    },
    {
      version: 'v1.33.1',
      want: ['container_cpu_usage_seconds_total [STABLE]', 'container_memory_working_set_bytes [STABLE]', 'container_start_time_seconds [STABLE]',
        'node_cpu_usage_seconds_total [STABLE]', 'node_memory_working_set_bytes [STABLE]', 'pod_cpu_usage_seconds_total [STABLE]',
        'pod_memory_working_set_bytes [STABLE]', 'resource_scrape_error [STABLE]'],
    },
  ];
  for (const c of cases) {
    const get = await node(linuxProfile('lin-1', 1, { kubeletVersion: c.version }));
    const answer = get('/metrics/resource')!;
    assert.equal(answer.contentType, PROMETHEUS_CONTENT_TYPE);
    assert.deepEqual(helpLines(answer.body), c.want, c.version);
    if (c.version === 'v1.29.4') assert.match(answer.body, /# HELP scrape_error \[ALPHA\] \(Deprecated since 1\.29\.0\) 1 if there was an error while getting container metrics, 0 otherwise\n/);
    const samples = parseText(answer.body);
    const ws = samples.find((s) => s.name === 'container_memory_working_set_bytes')!;
    assert.deepEqual(ws.labels, { container: 'nginx', namespace: 'ns', pod: 'web' });
    assert.ok(ws.value > 0 && ws.timestampMs! > 0);
    assert.ok(samples.find((s) => s.name === 'pod_memory_working_set_bytes' && s.labels.pod === 'web')!.value > 0);
    assert.equal(samples.find((s) => s.name === 'container_start_time_seconds')!.timestampMs, undefined);
  }
});

test('/metrics/cadvisor: cAdvisor labels on Linux; only the machine and the root container on Windows', async () => {
  const lin = (await node(linuxProfile('lin-1', 1)))('/metrics/cadvisor')!;
  const cpu = parseText(lin.body).filter((s) => s.name === 'container_cpu_usage_seconds_total');
  assert.deepEqual(cpu.map((s) => Object.keys(s.labels).sort()), [['container', 'cpu', 'id', 'image', 'name', 'namespace', 'pod'], ['container', 'cpu', 'id', 'image', 'name', 'namespace', 'pod']]);
  assert.match(cpu.find((s) => s.labels.pod === 'web')!.labels.id, /^\/kubepods\/besteffort\/poduid-web\/[0-9a-f]{64}$/);
  const win = (await node(windowsProfile('win-1', 2, '10.0.20348')))('/metrics/cadvisor')!;
  assert.deepEqual([...new Set(parseText(win.body).map((s) => s.labels.id ?? ''))], ['/', '']);
});

test('/metrics, /stats/summary and unknown stats paths', async () => {
  const get = await node(linuxProfile('lin-1', 1));
  const own = parseText(get('/metrics')!.body);
  assert.deepEqual(own.find((s) => s.name === 'kubelet_node_name')!.labels, { node: 'lin-1' });
  assert.equal(own.find((s) => s.name === 'kubelet_running_pods')!.value, 1);
  assert.equal(own.find((s) => s.name === 'kubelet_running_containers' && s.labels.container_state === 'running')!.value, 1);
  const summary = JSON.parse(get('/stats/summary')!.body);
  assert.equal(summary.node.nodeName, 'lin-1');
  assert.equal(summary.pods[0].podRef.name, 'web');
  assert.equal(get('/stats/container')!.status, 404);
  assert.equal(get('/metrics/probes/x')?.status, undefined);
});
