// Golden tests of the default stages: input pod + node profile + clock steps → status snapshots and events.
// Outputs live in testdata/<case>.json; run with WINKUBE_UPDATE_GOLDEN=1 to rewrite them, then review the diff.

import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { defaultFleet } from '../fleet-defaults.js';
import { StageHarness } from '../testing/stage-harness.js';
import { StageEngine } from './engine.js';
import { ACTIONS } from './actions.js';
import { POD_STAGES } from './pod-stages.js';

const fleet = defaultFleet();
const node = (name: string) => fleet.find((p) => p.name === name)!;
const WS2019 = node('winkube-win2019-1');
const WS2022 = node('winkube-win2022-1');
const LINUX = node('winkube-worker');

function pod(name: string, spec: Pod['spec'], annotations?: Record<string, string>, labels?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations, labels },
    spec: { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, ...spec } as Pod['spec'],
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}

/** The seed's win-webserver command, as the fixture has it (the guide's manifest, verbatim). */
const SEED_COMMAND = (parseAllDocuments(readFileSync(new URL('../../../../test/fixtures/win-webserver.yaml', import.meta.url), 'utf8'))[1].toJS() as { spec: { template: { spec: { containers: { command: string[] }[] } } } }).spec.template.spec.containers[0].command;

interface Case {
  name: string;
  pod: Pod;
  profile: typeof LINUX;
  images?: string[];
  /** Seconds to advance before each snapshot; `delete` marks the pod deleted at that point. */
  steps: (number | { delete: number })[];
}

const cases: Case[] = [
  { name: 'win-webserver-ws2019', profile: WS2019, pod: pod('win-webserver', { nodeSelector: { 'kubernetes.io/os': 'windows' }, containers: [{ name: 'windowswebserver', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: SEED_COMMAND }] }), steps: [0.2, 1, 15] },
  { name: 'win-webserver-ws2022-pull-failure', profile: WS2022, pod: pod('win-webserver', { containers: [{ name: 'windowswebserver', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: SEED_COMMAND }] }), steps: [0.5, 2, 12, 30] },
  { name: 'nginx-cached-then-deleted', profile: LINUX, images: ['docker.io/library/nginx:1.27'], pod: pod('web', { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } } }] }), steps: [1, { delete: 30 }, 1] },
  { name: 'crash-loop-backoff', profile: LINUX, images: ['docker.io/library/busybox:1.36'], pod: pod('crasher', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] }] }, { 'winkube.io/crash-after': '2s' }), steps: [1, 3, 10, 30, 60] },
  { name: 'run-to-completion', profile: LINUX, images: ['docker.io/library/busybox:1.36'], pod: pod('once', { restartPolicy: 'Never', containers: [{ name: 'echo', image: 'busybox:1.36', command: ['echo', 'hello'] }] }), steps: [1] },
  { name: 'init-container', profile: LINUX, images: ['docker.io/library/busybox:1.36', 'docker.io/library/nginx:1.27'], pod: pod('with-init', { initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] }], containers: [{ name: 'web', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5 } }] }), steps: [1, 3, 10] },
  { name: 'windows-pod-on-linux-rejected', profile: LINUX, pod: pod('winpod', { os: { name: 'windows' }, containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }] }), steps: [1] },
  { name: 'out-of-cpu', profile: WS2019, pod: pod('big', { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '8' } } }] }), steps: [1] },
  { name: 'windows-image-present-but-wrong-build', profile: WS2019, images: ['mcr.microsoft.com/windows/nanoserver:ltsc2022'], pod: pod('mismatch', { containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', imagePullPolicy: 'IfNotPresent' }] }), steps: [1] },
];

const UPDATE = process.env.WINKUBE_UPDATE_GOLDEN === '1';

for (const c of cases) {
  test(`golden: ${c.name}`, async () => {
    const h = new StageHarness(c.pod, c.profile, c.images ?? c.profile.preloadedImages);
    const snapshots: unknown[] = [];
    let prev = c.pod.status;
    for (const step of c.steps) {
      if (typeof step === 'object') {
        h.delete(step.delete);
        await h.advance(0);
      } else {
        await h.advance(step * 1000);
      }
      prev = h.status(prev);
      snapshots.push({ at: (h.clock.now() - h.start) / 1000, state: h.rec.state, finalized: h.finalized, status: prev });
    }
    const got = JSON.parse(JSON.stringify({ snapshots, events: h.events }));
    const file = new URL(`./testdata/${c.name}.json`, import.meta.url);
    if (UPDATE || !existsSync(file)) {
      writeFileSync(file, JSON.stringify(got, null, 2) + '\n');
      if (!UPDATE) assert.fail(`golden file ${c.name}.json was missing and has been written; review it and re-run`);
      return;
    }
    assert.deepEqual(got, JSON.parse(readFileSync(file, 'utf8')));
  });
}

test('engine rejects stages naming an unknown action', () => {
  assert.throws(() => new StageEngine([{ name: 'x', target: 'pod', selector: {}, delay: { ms: 0 }, action: 'nope' as 'admit' }], ACTIONS), /unknown action nope/);
});

test('every default stage names a known action and a unique name', () => {
  const names = POD_STAGES.map((s) => s.name);
  assert.equal(new Set(names).size, names.length);
  for (const s of POD_STAGES) assert.ok(ACTIONS[s.action], s.name);
});
