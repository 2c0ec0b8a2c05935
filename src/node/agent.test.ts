import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../api/types.js';
import { R } from '../client/resources.js';
import { FakeClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { NodeAgent } from './agent.js';
import { defaultFleet } from './fleet-defaults.js';
import { LEASE_RENEW_JITTER, nextHeartbeatMs } from './lease.js';
import { DEFAULT_KUBELET_VERSION } from './profile.js';
import { FakeClient } from './testing/fake-client.js';


async function setup() {
  const clock = new FakeClock();
  const client = new FakeClient(() => clock.now());
  const agent = new NodeAgent({ client, clock, logger: silentLogger, profiles: defaultFleet() });
  await agent.start();
  await clock.advance(0);
  return { clock, client, agent };
}

test('start registers every node Ready with labels, nodeInfo, allocatable and a lease', async () => {
  const { client, agent } = await setup();
  const nodes = client.all('nodes') as unknown as Node[];
  assert.equal(nodes.length, 5);
  const win = nodes.find((n) => n.metadata?.name === 'winkube-win2019-1')!;
  assert.deepEqual(win.metadata?.labels, {
    'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': 'winkube-win2019-1', 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763',
  });
  assert.equal(win.status?.nodeInfo?.osImage, 'Windows Server 2019 Datacenter');
  assert.equal(win.status?.nodeInfo?.operatingSystem, 'windows');
  assert.equal(win.status?.nodeInfo?.kubeletVersion, DEFAULT_KUBELET_VERSION);
  assert.match(win.status?.nodeInfo?.kernelVersion ?? '', /^10\.0\.17763\.\d+$/);
  assert.equal(win.status?.allocatable?.memory, '13655604Ki');
  const ready = win.status?.conditions?.find((c) => c.type === 'Ready');
  assert.deepEqual([ready?.status, ready?.reason, ready?.message], ['True', 'KubeletReady', 'kubelet is posting ready status']);
  assert.deepEqual(win.status?.addresses, [{ type: 'InternalIP', address: '172.18.0.4' }, { type: 'Hostname', address: 'winkube-win2019-1' }]);
  const cp = nodes.find((n) => n.metadata?.name === 'winkube-control-plane')!;
  assert.equal(cp.metadata?.labels?.['node-role.kubernetes.io/control-plane'], '');
  assert.deepEqual(cp.spec?.taints, [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
  const leases = client.all('leases');
  assert.equal(leases.length, 5);
  assert.equal((leases[0].spec as { leaseDurationSeconds: number }).leaseDurationSeconds, 40);
  agent.stop();
});

test('lease renews every 10 s (plus up to 4 % jitter); unchanged node status is not rewritten', async () => {
  const { client, clock, agent } = await setup();
  const before = client.log.length;
  await clock.advance(10_000 * (1 + LEASE_RENEW_JITTER));
  const writes = client.log.slice(before);
  assert.equal(writes.filter((w) => w.startsWith('patch leases')).length, 5);
  assert.equal(writes.filter((w) => w.startsWith('patch nodes')).length, 0);
  agent.stop();
});

function webPod(name: string, node: string): KubeObject {
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: node, terminationGracePeriodSeconds: 30, containers: [{ name: 'windowswebserver', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: ['powershell.exe', '-command', 'Start-Sleep -Seconds 86400'] }] },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] },
  };
  return pod as unknown as KubeObject;
}

test('a pod bound to a Windows node runs, gets an IP, events; kubectl delete finishes with grace 0', async () => {
  const { client, clock, agent } = await setup();
  await client.create(R.pods, 'default', webPod('web-1', 'winkube-win2019-1'));
  await clock.advance(20_000);
  const pod = (await client.get(R.pods, 'default', 'web-1')) as unknown as Pod;
  assert.equal(pod.status?.phase, 'Running');
  // flannel host-gw: .1 is the cbr0 gateway and .2 the host's cbr0_ep, so the first pod gets .3.
  assert.equal(pod.status?.podIP, '10.244.2.3');
  assert.equal(pod.status?.hostIP, '172.18.0.4');
  assert.equal(pod.status?.qosClass, 'BestEffort');
  assert.equal(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  assert.match(pod.status?.containerStatuses?.[0].containerID ?? '', /^containerd:\/\/[0-9a-f]{64}$/);
  const events = client.all('events') as unknown as { reason: string; message: string }[];
  // Windows nodes start with their build's base images (fleet-defaults windowsPreloadedImages): no pull.
  assert.deepEqual(events.map((e) => e.reason), ['Pulled', 'Created', 'Started']);
  assert.equal(events[0].message, 'Container image "mcr.microsoft.com/windows/servercore:ltsc2019" already present on machine');

  await client.delete(R.pods, 'default', 'web-1');
  await clock.advance(5_000);
  assert.equal(client.all('pods').length, 0, 'the kubelet deleted the pod after stopping it');
  assert.ok(client.log.includes('delete pods default/web-1 grace=0'));
  assert.ok(client.all('events').some((e) => (e as unknown as { message: string }).message === 'Stopping container windowswebserver'));

  // The address is free again.
  await client.create(R.pods, 'default', webPod('web-2', 'winkube-win2019-1'));
  await clock.advance(3_000);
  assert.equal(((await client.get(R.pods, 'default', 'web-2')) as unknown as Pod).status?.podIP, '10.244.2.4', 'host-local hands out the next address first');
  agent.stop();
});

test('pods for nodes the agent does not host are ignored', async () => {
  const { client, clock, agent } = await setup();
  await client.create(R.pods, 'default', webPod('elsewhere', 'some-other-node'));
  await clock.advance(20_000);
  const pod = (await client.get(R.pods, 'default', 'elsewhere')) as unknown as Pod;
  assert.equal(pod.status?.phase, 'Pending');
  assert.equal(client.log.filter((l) => l.includes('elsewhere/status')).length, 0);
  agent.stop();
});

test('heartbeats wait 10 s plus up to 4 % at random (wait.JitterUntil with factor 0.04)', () => {
  assert.equal(nextHeartbeatMs(() => 0), 10_000);
  assert.equal(nextHeartbeatMs(() => 0.5), 10_200);
  assert.ok(nextHeartbeatMs(() => 0.999_999) < 10_400);
});
