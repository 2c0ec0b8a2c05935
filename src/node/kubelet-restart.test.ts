// `winkube up` stopped and started on the same data: a second node agent on the same API objects finds its pods
// bound and already run, with an empty runtime, and carries on as a rebooted node's kubelet does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, ObjectReference, Pod, PodStatus } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../api/types.js';
import { R } from '../client/resources.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { NodeAgent } from './agent.js';
import type { EventRecorder } from './events.js';
import { linuxProfile } from './fleet-defaults.js';
import type { NodeProfile } from './profile.js';
import { FakeClient } from './testing/fake-client.js';

// pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses
const LOST_WHILE_RUNNING = 'The container could not be located when the pod was deleted.  The container used to be Running';
// pkg/kubelet/status/status_manager.go TerminatePod
const LOST_AT_TERMINATION = 'The container could not be located when the pod was terminated';

const NODE = 'winkube-worker';
const profile = (over: Partial<NodeProfile> = {}) => linuxProfile(NODE, 1, {
  preloadedImages: ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27', 'docker.io/library/busybox:1.36'], ...over,
});

interface Seen { pod?: string; fieldPath?: string; reason: string; message: string }

function cluster() {
  const clock = new FakeClock();
  const client = new FakeClient(() => clock.now());
  const events: Seen[] = [];
  const sink = (): EventRecorder => ({
    event: (ref: ObjectReference, _type, reason, message) => events.push({ pod: ref.name, fieldPath: ref.fieldPath, reason, message }),
  });
  const startAgent = async (p: NodeProfile = profile()) => {
    const agent = new NodeAgent({ client, clock, logger: silentLogger, profiles: [p], events: sink });
    await agent.start();
    await clock.advance(0);
    return agent;
  };
  const get = async (name: string) => (await client.get(R.pods, 'default', name)) as unknown as Pod;
  return { clock, client, events, startAgent, get };
}

function pod(name: string, restartPolicy: string, containers: object[], extra: { annotations?: Record<string, string>; cpu?: string } = {}): KubeObject {
  const p = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', annotations: extra.annotations },
    spec: {
      nodeName: NODE, restartPolicy, terminationGracePeriodSeconds: 30,
      containers: containers.map((c) => (extra.cpu ? { ...c, resources: { requests: { cpu: extra.cpu } } } : c)),
    },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] },
  };
  return p as unknown as KubeObject;
}

const container = (s: PodStatus | undefined, name: string): ContainerStatus => s!.containerStatuses!.find((c) => c.name === name)!;

test('after a restart the kubelet carries pods on from their API status instead of starting them afresh', async () => {
  const { clock, client, events, startAgent, get } = cluster();
  const first = await startAgent();
  await client.create(R.pods, 'default', pod('web', 'Always', [{ name: 'app', image: 'nginx:1.27' }]));
  await client.create(R.pods, 'default', pod('job-done', 'Never', [{ name: 'echo', image: 'busybox:1.36', command: ['echo', 'hello'] }]));
  await client.create(R.pods, 'default', pod('job-long', 'Never', [{ name: 'work', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] }]));
  await clock.advance(10_000);
  const before = { web: (await get('web')).status!, done: (await get('job-done')).status!, long: (await get('job-long')).status! };
  assert.equal(before.web.phase, 'Running');
  assert.equal(before.done.phase, 'Succeeded');
  assert.equal(before.long.phase, 'Running');

  first.stop();
  await clock.advance(60_000);
  const logMark = client.log.length;
  const eventMark = events.length;
  const second = await startAgent();

  // Right away, before any sandbox exists: the running containers' ends are unknown, one restart each.
  const web = (await get('web')).status!;
  assert.equal(web.phase, 'Running');
  assert.equal(web.startTime, before.web.startTime, 'startTime is kept');
  assert.deepEqual(container(web, 'app').state, { waiting: { reason: 'ContainerCreating' } });
  assert.deepEqual(container(web, 'app').lastState, {
    terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: LOST_WHILE_RUNNING, startedAt: null, finishedAt: null },
  });
  assert.equal(container(web, 'app').restartCount, 1);
  assert.equal(web.podIP, undefined, 'no sandbox yet, so no address (the old one is gone)');
  assert.equal(web.podIPs, undefined);

  // restartPolicy Never: a container that ran and is gone makes the pod Failed, and nothing runs again.
  const long = (await get('job-long')).status!;
  assert.equal(long.phase, 'Failed');
  assert.deepEqual(container(long, 'work').state, {
    terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: LOST_AT_TERMINATION, startedAt: null, finishedAt: null },
  });
  assert.equal(container(long, 'work').restartCount, 1);

  // A pod that had completed is left exactly as it was.
  assert.deepEqual((await get('job-done')).status, before.done);
  assert.ok(!client.log.slice(logMark).includes('patch pods default/job-done/status'));

  await clock.advance(10_000);
  const back = (await get('web')).status!;
  assert.equal(back.phase, 'Running');
  assert.ok(container(back, 'app').state?.running);
  assert.equal(container(back, 'app').restartCount, 1);
  assert.deepEqual(container(back, 'app').lastState, {}, 'the runtime holds no older container to report');
  assert.notEqual(container(back, 'app').containerID, container(before.web, 'app').containerID);
  assert.equal(back.startTime, before.web.startTime);
  assert.ok(back.podIP, 'a new sandbox, a new address');
  assert.equal((await get('job-long')).status?.phase, 'Failed');

  // The emptied runtime lists no old sandbox, so no SandboxChanged (kuberuntime_manager.go SyncPod); the pod's
  // containers are simply started, and the terminal pods see nothing.
  const after = events.slice(eventMark);
  // The node says it rebooted (nodestatus/setters.go MachineInfo: a new boot ID), then the pod's containers start.
  assert.deepEqual(after.map((e) => `${e.pod} ${e.reason}`), [`${NODE} Rebooted`, 'web Pulled', 'web Created', 'web Started']);
  assert.equal(after[1].message, 'Container image "nginx:1.27" already present on machine');
  second.stop();
});

test('a container that completed under OnFailure runs again, and the status waits until it has ended again', async () => {
  const { clock, client, events, startAgent, get } = cluster();
  const first = await startAgent();
  await client.create(R.pods, 'default', pod('mixed', 'OnFailure', [
    { name: 'job', image: 'busybox:1.36' }, { name: 'app', image: 'nginx:1.27' },
  ], { annotations: { 'winkube.io/exit-after.job': '2s' } }));
  await clock.advance(10_000);
  const before = (await get('mixed')).status!;
  assert.equal(container(before, 'job').state?.terminated?.reason, 'Completed');
  first.stop();
  await clock.advance(60_000);

  const eventMark = events.length;
  const second = await startAgent();
  const restarted = (await get('mixed')).status!;
  assert.equal(restarted.phase, 'Running');
  assert.deepEqual(container(restarted, 'job'), container(before, 'job'), 'the old terminated status is reported whole');
  assert.equal(container(restarted, 'app').lastState?.terminated?.reason, 'ContainerStatusUnknown');

  // The empty runtime shows no success, so `job` starts again (computePodActions); a terminated container turning
  // non-terminated is refused (status_manager.go checkContainerStateTransition), so the container statuses stay put
  // although both containers run again.
  await clock.advance(1_000);
  assert.deepEqual(events.slice(eventMark).filter((e) => e.reason === 'Started').map((e) => e.fieldPath), ['spec.containers{job}', 'spec.containers{app}']);
  assert.deepEqual((await get('mixed')).status?.containerStatuses, restarted.containerStatuses);

  await clock.advance(3_000);
  const settled = (await get('mixed')).status!;
  assert.equal(container(settled, 'job').state?.terminated?.reason, 'Completed');
  assert.equal(container(settled, 'job').restartCount, 1);
  assert.notEqual(container(settled, 'job').containerID, container(before, 'job').containerID);
  assert.ok(container(settled, 'app').state?.running);
  assert.equal(container(settled, 'app').restartCount, 1);
  second.stop();
});

test('pods admitted before the restart are not admitted again', async () => {
  const { clock, client, events, startAgent, get } = cluster();
  const first = await startAgent();
  await client.create(R.pods, 'default', pod('big', 'Always', [{ name: 'app', image: 'nginx:1.27' }], { cpu: '3' }));
  await clock.advance(10_000);
  assert.equal((await get('big')).status?.phase, 'Running');
  first.stop();

  // The node comes back smaller: a new pod of the same size no longer fits, the one it already ran keeps running.
  const second = await startAgent(profile({ capacity: { cpu: '2', memory: '8148152Ki', pods: '110', 'ephemeral-storage': '102626232Ki' } }));
  await client.create(R.pods, 'default', pod('big-2', 'Always', [{ name: 'app', image: 'nginx:1.27' }], { cpu: '3' }));
  await clock.advance(10_000);
  const big = (await get('big')).status!;
  assert.equal(big.phase, 'Running');
  assert.equal(big.reason, undefined);
  assert.equal(container(big, 'app').restartCount, 1);
  assert.equal((await get('big-2')).status?.reason, 'OutOfcpu');
  assert.deepEqual(events.filter((e) => e.reason === 'OutOfcpu').map((e) => e.pod), ['big-2']);
  second.stop();
});

test('images pulled before a restart are still on the node afterwards (the image store survives a reboot)', async () => {
  const { clock, client, events, startAgent, get } = cluster();
  const first = await startAgent();
  // Not preloaded by the profile: the first run pulls it.
  await client.create(R.pods, 'default', pod('cache', 'Always', [{ name: 'db', image: 'docker.io/library/redis:7.2' }]));
  await clock.advance(60_000);
  assert.equal((await get('cache')).status?.phase, 'Running');
  assert.ok(events.some((e) => e.pod === 'cache' && e.reason === 'Pulling'), 'the first run pulls');
  first.stop();
  await clock.advance(60_000);

  const eventMark = events.length;
  const second = await startAgent();
  await clock.advance(10_000);
  const after = events.slice(eventMark).filter((e) => e.pod === 'cache');
  assert.deepEqual(after.map((e) => e.reason), ['Pulled', 'Created', 'Started']);
  assert.equal(after[0]!.message, 'Container image "docker.io/library/redis:7.2" already present on machine');
  const node = (await client.get(R.nodes, undefined, NODE)) as unknown as { status: { images: { names: string[] }[] } };
  assert.ok(node.status.images.some((i) => i.names.includes('docker.io/library/redis:7.2')), 'and the Node still lists it');
  second.stop();
});

test('each start on an existing node is a new boot: a new boot ID and a Rebooted warning naming it', async () => {
  const { clock, client, events, startAgent } = cluster();
  const bootIDs: string[] = [];
  const bootID = async () => ((await client.get(R.nodes, undefined, NODE)) as unknown as { status: { nodeInfo: { bootID: string } } }).status.nodeInfo.bootID;
  for (let boot = 0; boot < 3; boot++) {
    const agent = await startAgent();
    bootIDs.push(await bootID());
    agent.stop();
    await clock.advance(1000);
  }
  assert.equal(new Set(bootIDs).size, 3, `three boots, three IDs: ${bootIDs.join(', ')}`);
  const rebooted = events.filter((e) => e.reason === 'Rebooted');
  assert.deepEqual(rebooted.map((e) => e.message), bootIDs.slice(1).map((id) => `Node ${NODE} has been rebooted, boot id: ${id}`));
  assert.ok(rebooted.every((e) => e.pod === NODE), 'reported about the Node');
});
