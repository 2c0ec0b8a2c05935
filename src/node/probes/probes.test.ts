// Probes through the pod lifecycle on a fake clock: the kubelet's schedule, thresholds, events and restarts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { linuxProfile } from '../fleet-defaults.js';
import { StageHarness } from '../testing/stage-harness.js';

const NODE = linuxProfile('lin-1', 1);
const IMAGES = ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27', 'registry.k8s.io/e2e-test-images/agnhost:2.40'];
const pod = (...containers: Container[]): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'uid-p' }, spec: { restartPolicy: 'Always', containers }, status: { phase: 'Pending' } });
const AGNHOST_LIVENESS: Container = { name: 'liveness', image: 'registry.k8s.io/e2e-test-images/agnhost:2.40', args: ['liveness'] };

test('agnhost liveness: /healthz turns 500 after 10 s, three failures restart the container (docs "liveness HTTP request")', async () => {
  const h = new StageHarness(pod({ ...AGNHOST_LIVENESS, livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 3, periodSeconds: 3 } }), NODE, IMAGES);
  await h.advance(12_000);
  assert.equal(h.status().containerStatuses![0].restartCount, 0);
  assert.ok(!h.events.some((e) => e.reason === 'Unhealthy'), 'healthy for the first 10 s');
  await h.advance(10_000);
  const unhealthy = h.events.filter((e) => e.reason === 'Unhealthy');
  assert.equal(unhealthy.length, 3);
  assert.equal(unhealthy[0].message, 'Liveness probe failed: HTTP probe failed with statuscode: 500');
  assert.ok(h.events.some((e) => e.reason === 'Killing' && e.message === 'Container liveness failed liveness probe, will be restarted'));
  await h.advance(2000);
  assert.equal(h.status().containerStatuses![0].restartCount, 1);
});

test('readiness follows the probe: a port nothing serves keeps the container unready, with the dialer\'s words', async () => {
  const h = new StageHarness(pod(
    { name: 'web', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 1 } },
    { name: 'bad', image: 'nginx:1.27', readinessProbe: { tcpSocket: { port: 8081 }, periodSeconds: 1, failureThreshold: 1 } },
  ), NODE, IMAGES);
  await h.advance(3000);
  const [web, bad] = h.status().containerStatuses!;
  assert.equal(web.ready, true);
  assert.equal(bad.ready, false);
  assert.match(h.events.find((e) => e.reason === 'Unhealthy')!.message, /^Readiness probe failed: dial tcp 10\.244\.1\.\d+:8081: connect: connection refused$/);
  assert.equal(h.status().conditions!.find((c) => c.type === 'Ready')!.status, 'False');
});

test('a startup probe holds started=false and gates readiness until it succeeds', async () => {
  const h = new StageHarness(pod({ name: 'web', image: 'nginx:1.27', startupProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 2, periodSeconds: 1 } }), NODE, IMAGES);
  await h.advance(1500);
  let cs = h.status().containerStatuses![0];
  assert.equal(cs.started, false);
  assert.equal(cs.ready, false);
  await h.advance(2000);
  cs = h.status().containerStatuses![0];
  assert.equal(cs.started, true);
  assert.equal(cs.ready, true);
});

test('a failing startup probe restarts the container with the kubelet\'s words', async () => {
  const h = new StageHarness(pod({ name: 'web', image: 'nginx:1.27', startupProbe: { httpGet: { path: '/missing', port: 80 }, periodSeconds: 1, failureThreshold: 2 } }), NODE, IMAGES);
  await h.advance(4000);
  assert.ok(h.events.some((e) => e.message === 'Startup probe failed: HTTP probe failed with statuscode: 404'));
  assert.ok(h.events.some((e) => e.reason === 'Killing' && e.message === 'Container web failed startup probe, will be restarted'));
});
