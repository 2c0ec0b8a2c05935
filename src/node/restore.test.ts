// Pods found after a node reboot with an empty runtime: the status a first run left behind is carried over the way
// the kubelet does it, for each restart policy and prior container state, then the pod runs (or stays) from there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod, PodStatus } from 'kubernetes-types/core/v1.js';
import { linuxProfile } from './fleet-defaults.js';
import { hasPodInitialized, ranBefore, restorePodRuntime } from './restore.js';
import { StageHarness, type RecordedEvent } from './testing/stage-harness.js';

const NODE = linuxProfile('winkube-worker', 1);
const IMAGES = ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27', 'docker.io/library/busybox:1.36'];

// pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses (lastState of a running container the runtime lost)
const LOST_WHILE_RUNNING = 'The container could not be located when the pod was deleted.  The container used to be Running';
// pkg/kubelet/status/status_manager.go TerminatePod (state of a container with no status when its pod ends)
const LOST_AT_TERMINATION = 'The container could not be located when the pod was terminated';
// pkg/kubelet/kuberuntime/kuberuntime_manager.go SyncPod: only recorded when an old sandbox is still listed
const SANDBOX_CHANGED = 'Pod sandbox changed, it will be killed and re-created.';

type Policy = 'Always' | 'OnFailure' | 'Never';

function makePod(name: string, policy: Policy, spec: Partial<NonNullable<Pod['spec']>>, annotations?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations },
    spec: { restartPolicy: policy, terminationGracePeriodSeconds: 30, containers: [], ...spec },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}

const NGINX = { name: 'app', image: 'nginx:1.27' };

/** The prior container states, each produced by really running the pod for a while. */
const PRIOR = {
  running: { pod: (p: Policy) => makePod('web', p, { containers: [NGINX] }), seconds: 5, images: IMAGES },
  'crash-looping': { pod: (p: Policy) => makePod('web', p, { containers: [NGINX] }, { 'winkube.io/crash-after': '2s' }), seconds: 15, images: IMAGES },
  'never-started': { pod: (p: Policy) => makePod('web', p, { containers: [NGINX] }, { 'winkube.io/pull-duration': '10m' }), seconds: 5, images: [] as string[] },
  'one-completed': {
    pod: (p: Policy) => makePod('web', p, { containers: [{ name: 'job', image: 'busybox:1.36' }, NGINX] }, { 'winkube.io/exit-after.job': '1s' }),
    seconds: 5, images: IMAGES,
  },
};
type PriorName = keyof typeof PRIOR;

/** Runs the pod as the first kubelet did, and returns it with the status that run left on the API object. */
async function firstRun(prior: PriorName, policy: Policy): Promise<Pod> {
  const p = PRIOR[prior];
  const pod = p.pod(policy);
  const h = new StageHarness(pod, NODE, p.images);
  await h.advance(p.seconds * 1000);
  return { ...pod, status: h.status(pod.status) };
}

const find = (s: PodStatus, name: string): ContainerStatus => [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])].find((c) => c.name === name)!;

/** A compact view of one container status for table rows. */
function summary(c: ContainerStatus) {
  const state = c.state?.running ? 'running' : c.state?.terminated ? `terminated:${c.state.terminated.reason}` : `waiting:${c.state?.waiting?.reason}`;
  const t = c.lastState?.terminated;
  return { state, last: t ? `${t.reason}/${t.exitCode}` : 'none', restartCount: c.restartCount };
}

interface Row {
  policy: Policy;
  prior: PriorName;
  /** Right after the restart, before anything ran again. */
  phase: string;
  podState: 'sandbox' | 'terminal';
  app: ReturnType<typeof summary> | ((old: ContainerStatus) => ReturnType<typeof summary>);
  /** After `runMs` of the new run. */
  runMs: number;
  after: { phase: string; app: ReturnType<typeof summary> | ((old: ContainerStatus) => ReturnType<typeof summary>); events: string[] };
}

const lostRunning = { state: 'waiting:ContainerCreating', last: 'ContainerStatusUnknown/137', restartCount: 1 };
const lostTerminal = { state: 'terminated:ContainerStatusUnknown', last: 'ContainerStatusUnknown/137', restartCount: 1 };
const backRunning = { state: 'running', last: 'none', restartCount: 1 };
const started = ['Pulled', 'Created', 'Started'];

const rows: Row[] = [
  // A running container: unknown end, one more restart; Always/OnFailure start it again, Never makes the pod Failed.
  { policy: 'Always', prior: 'running', phase: 'Running', podState: 'sandbox', app: lostRunning, runMs: 1000, after: { phase: 'Running', app: backRunning, events: started } },
  { policy: 'OnFailure', prior: 'running', phase: 'Running', podState: 'sandbox', app: lostRunning, runMs: 1000, after: { phase: 'Running', app: backRunning, events: started } },
  { policy: 'Never', prior: 'running', phase: 'Failed', podState: 'terminal', app: lostTerminal, runMs: 5000, after: { phase: 'Failed', app: lostTerminal, events: [] } },
  // Crash-looping: its own lastState already says how it ended, so no unknown end and no extra count until it starts.
  ...(['Always', 'OnFailure'] as const).map((policy): Row => ({
    policy, prior: 'crash-looping', phase: 'Running', podState: 'sandbox',
    app: (old) => ({ state: 'waiting:ContainerCreating', last: 'Error/1', restartCount: old.restartCount }),
    runMs: 1000,
    after: { phase: 'Running', app: (old) => ({ state: 'running', last: 'none', restartCount: old.restartCount + 1 }), events: started },
  })),
  // Never started (still pulling): nothing carried over, it starts as it would have.
  ...(['Always', 'Never'] as const).map((policy): Row => ({
    policy, prior: 'never-started', phase: 'Pending', podState: 'sandbox',
    app: { state: 'waiting:ContainerCreating', last: 'none', restartCount: 0 },
    runMs: 1000, after: { phase: 'Pending', app: { state: 'waiting:ContainerCreating', last: 'none', restartCount: 0 }, events: ['Pulling'] },
  })),
  // One container completed, one running: OnFailure runs both again (the empty runtime shows no success); Never fails.
  {
    policy: 'OnFailure', prior: 'one-completed', phase: 'Running', podState: 'sandbox', app: lostRunning,
    // Both containers progress side by side, so their events interleave.
    runMs: 500, after: { phase: 'Running', app: backRunning, events: started.flatMap((r) => [r, r]) },
  },
  { policy: 'Never', prior: 'one-completed', phase: 'Failed', podState: 'terminal', app: lostTerminal, runMs: 5000, after: { phase: 'Failed', app: lostTerminal, events: [] } },
];

const expectFor = (e: Row['app'], old: ContainerStatus) => (typeof e === 'function' ? e(old) : e);

for (const row of rows) {
  test(`restart: ${row.policy} pod, container ${row.prior}`, async () => {
    const pod = await firstRun(row.prior, row.policy);
    const old = pod.status!;
    assert.ok(ranBefore(pod));
    const h = new StageHarness(pod, NODE, PRIOR[row.prior].images, { restore: true });
    assert.equal(h.rec.state, row.podState);
    const now = h.status(old);
    assert.equal(now.phase, row.phase);
    assert.deepEqual(summary(find(now, 'app')), expectFor(row.app, find(old, 'app')));
    // The status manager never moves a set startTime.
    assert.equal(now.startTime, old.startTime);

    await h.advance(row.runMs);
    const after = h.status(now);
    assert.equal(after.phase, row.after.phase);
    assert.deepEqual(summary(find(after, 'app')), expectFor(row.after.app, find(old, 'app')));
    assert.deepEqual(h.events.map((e) => e.reason), row.after.events);
    assert.ok(!h.events.some((e: RecordedEvent) => e.reason === 'SandboxChanged' || e.message === SANDBOX_CHANGED));
  });
}

test('the unknown ending reads as the kubelet writes it: reason, message, exit code 137, no times', async () => {
  const pod = await firstRun('running', 'Never');
  const h = new StageHarness(pod, NODE, IMAGES, { restore: true });
  const app = find(h.status(pod.status), 'app');
  assert.deepEqual(app.lastState, { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: LOST_WHILE_RUNNING, startedAt: null, finishedAt: null } });
  assert.deepEqual(app.state, { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: LOST_AT_TERMINATION, startedAt: null, finishedAt: null } });
  assert.equal(app.containerID, undefined, 'the runtime knows no container for it');
  assert.equal(app.image, 'nginx:1.27', 'without a runtime container the spec image is shown');
});

test('a terminated container is reported exactly as before until the runtime has it again', async () => {
  for (const policy of ['OnFailure', 'Never'] as const) {
    const pod = await firstRun('one-completed', policy);
    const job = find(pod.status!, 'job');
    assert.equal(job.state?.terminated?.reason, 'Completed');
    const h = new StageHarness(pod, NODE, IMAGES, { restore: true });
    assert.deepEqual(find(h.status(pod.status), 'job'), job, policy);
  }
  // OnFailure starts it again: a new container, numbered after the one whose log is still on disk.
  const pod = await firstRun('one-completed', 'OnFailure');
  const h = new StageHarness(pod, NODE, IMAGES, { restore: true });
  await h.advance(500);
  const job = find(h.status(pod.status), 'job');
  assert.ok(job.state?.running);
  assert.equal(job.restartCount, 1);
  assert.notEqual(job.containerID, find(pod.status!, 'job').containerID);
});

test('a pod being deleted keeps its restart count and is stopped without starting anything', async () => {
  const pod = await firstRun('running', 'Always');
  pod.metadata = { ...pod.metadata, deletionTimestamp: '2026-01-01T00:01:00Z', deletionGracePeriodSeconds: 30 };
  const h = new StageHarness(pod, NODE, IMAGES, { restore: true });
  const app = find(h.status(pod.status), 'app');
  // "If the pod was not deleted, then it's been restarted. Increment restart count." — it was deleted.
  assert.deepEqual(summary(app), { state: 'waiting:ContainerCreating', last: 'ContainerStatusUnknown/137', restartCount: 0 });
  await h.advance(1000);
  assert.equal(h.finalized, true);
  assert.deepEqual(h.events, []);
});

test('a pod restored as terminal is still finished off when it is deleted', async () => {
  const pod = await firstRun('running', 'Never');
  const h = new StageHarness(pod, NODE, IMAGES, { restore: true });
  assert.equal(h.rec.state, 'terminal');
  await h.advance(1000);
  assert.equal(h.finalized, false, 'nothing to do until it is deleted');
  h.delete(30);
  await h.advance(0);
  assert.equal(h.finalized, true);
  assert.equal(h.status(pod.status).phase, 'Failed');
  assert.deepEqual(h.events, [], 'nothing was running, nothing to stop');
});

test('a second reboot before the container came back does not count the same loss twice', async () => {
  const pod = await firstRun('running', 'Always');
  const once = new StageHarness(pod, NODE, IMAGES, { restore: true });
  const between: Pod = { ...pod, status: once.status(pod.status) };
  const twice = new StageHarness(between, NODE, IMAGES, { restore: true });
  assert.deepEqual(summary(find(twice.status(between.status), 'app')), lostRunning);
  await twice.advance(1000);
  // Only 0.log exists, so the container that now starts is number 1.
  assert.deepEqual(summary(find(twice.status(between.status), 'app')), backRunning);
});

test('condition transition times stay while their status does not change', async () => {
  const pod = await firstRun('running', 'Always');
  const old = pod.status!;
  const h = new StageHarness(pod, NODE, IMAGES, { restore: true });
  const now = h.status(old);
  const time = (s: PodStatus, type: string) => s.conditions?.find((c) => c.type === type)?.lastTransitionTime;
  const status = (s: PodStatus, type: string) => s.conditions?.find((c) => c.type === type)?.status;
  assert.equal(time(now, 'Initialized'), time(old, 'Initialized'));
  assert.equal(time(now, 'PodScheduled'), time(old, 'PodScheduled'));
  assert.equal(status(now, 'Ready'), 'False');
  assert.notEqual(time(now, 'Ready'), time(old, 'Ready'));
  assert.equal(status(now, 'PodReadyToStartContainers'), 'False', 'no sandbox yet');
});

const INIT_POD = (policy: Policy) => makePod('with-init', policy, {
  initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] }],
  containers: [{ name: 'web', image: 'nginx:1.27' }],
});

test('init containers run again from the first after a restart; the pod is Pending while they do', async () => {
  const pod = INIT_POD('Always');
  const first = new StageHarness(pod, NODE, IMAGES);
  await first.advance(5000);
  const old = first.status(pod.status);
  assert.equal(old.phase, 'Running');
  const restored: Pod = { ...pod, status: old };
  const h = new StageHarness(restored, NODE, IMAGES, { restore: true });
  const now = h.status(old);
  assert.equal(now.phase, 'Running');
  assert.deepEqual(find(now, 'setup'), find(old, 'setup'), 'completed init container reported as it was');
  assert.deepEqual(summary(find(now, 'web')), { state: 'waiting:PodInitializing', last: 'ContainerStatusUnknown/137', restartCount: 1 });

  await h.advance(500);
  const running = h.status(now);
  assert.equal(running.phase, 'Pending');
  assert.deepEqual(summary(find(running, 'setup')), { state: 'running', last: 'none', restartCount: 1 });
  assert.equal(running.conditions?.find((c) => c.type === 'Initialized')?.status, 'False');

  await h.advance(3000);
  const done = h.status(running);
  assert.equal(done.phase, 'Running');
  assert.deepEqual(summary(find(done, 'setup')), { state: 'terminated:Completed', last: 'none', restartCount: 1 });
  assert.deepEqual(summary(find(done, 'web')), backRunning);
  assert.deepEqual(h.events.map((e) => `${e.fieldPath} ${e.reason}`), [
    'spec.initContainers{setup} Pulled', 'spec.initContainers{setup} Created', 'spec.initContainers{setup} Started',
    'spec.containers{web} Pulled', 'spec.containers{web} Created', 'spec.containers{web} Started',
  ]);
});

test('Never: an init container lost while running fails the pod; containers that never ran stay waiting', async () => {
  const pod = INIT_POD('Never');
  const first = new StageHarness(pod, NODE, IMAGES);
  await first.advance(1000);
  const old = first.status(pod.status);
  assert.ok(find(old, 'setup').state?.running);
  const restored: Pod = { ...pod, status: old };
  assert.equal(hasPodInitialized(restored), false);
  const h = new StageHarness(restored, NODE, IMAGES, { restore: true });
  assert.equal(h.rec.state, 'terminal');
  const now = h.status(old);
  assert.equal(now.phase, 'Failed');
  assert.deepEqual(summary(find(now, 'setup')), lostTerminal);
  assert.deepEqual(summary(find(now, 'web')), { state: 'waiting:PodInitializing', last: 'none', restartCount: 0 });
  await h.advance(5000);
  assert.deepEqual(h.events, []);
});

test('a pod the kubelet has not run before is not restored', () => {
  const pod = makePod('fresh', 'Always', { containers: [NGINX] });
  assert.equal(ranBefore(pod), false);
  const rec = restorePodRuntime(pod, Date.parse('2026-01-01T00:00:00Z'));
  assert.deepEqual(rec.containers.map((c) => c.prior), [undefined], 'nothing to carry over');
});

test('hasPodInitialized follows the status manager', () => {
  const base = INIT_POD('Never');
  const w = { waiting: { reason: 'PodInitializing' } };
  const cases: [string, PodStatus, boolean][] = [
    ['regular container ran', { containerStatuses: [{ name: 'web', state: { running: {} } } as ContainerStatus] }, true],
    ['regular container has a lastState', { containerStatuses: [{ name: 'web', state: w, lastState: { terminated: { exitCode: 1 } } } as ContainerStatus] }, true],
    ['last init container completed', { initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 0 } } } as ContainerStatus], containerStatuses: [{ name: 'web', state: w } as ContainerStatus] }, true],
    ['last init container failed', { initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 1 } } } as ContainerStatus], containerStatuses: [{ name: 'web', state: w } as ContainerStatus] }, false],
    ['nothing ran', { containerStatuses: [{ name: 'web', state: w } as ContainerStatus] }, false],
  ];
  for (const [name, status, want] of cases) assert.equal(hasPodInitialized({ ...base, status }), want, name);
  assert.equal(hasPodInitialized(makePod('no-init', 'Never', { containers: [NGINX] })), true);
});
