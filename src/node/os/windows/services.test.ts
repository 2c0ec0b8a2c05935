// The Windows node's services from a HostProcess container: Get-Service / sc.exe output, Stop-Service and sc.exe stop
// refusing while kube-proxy depends on the kubelet, the SCM restarting a crashed kubelet, and a stopped kubelet no
// longer renewing its Lease (seed 000 "Node-level troubleshooting" Q1–Q2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../util/clock.js';
import { silentLogger } from '../../../util/log.js';
import { R } from '../../../client/resources.js';
import { fakeEnv, run } from '../../shell/testing/fake-env.js';
import { NodeAgent } from '../../agent.js';
import { windowsProfile } from '../../fleet-defaults.js';
import { FakeClient } from '../../testing/fake-client.js';
import { LEASE_NAMESPACE } from '../../lease.js';
import { SERVICE_RESTART_DELAY_MS, WindowsServiceManager } from './services.js';

function scm(hooks: Record<string, { start(): void; stop(): void }> = {}) {
  const clock = new FakeClock();
  return { clock, m: new WindowsServiceManager({ profile: { name: 'win-1', containerRuntime: 'containerd' }, clock, hooks }) };
}

function hostEnv(m: WindowsServiceManager) {
  return Object.assign(fakeEnv({ os: 'windows', toolset: 'hostprocess', user: 'NT AUTHORITY\\SYSTEM', hostname: 'win-1' }), { hostServices: m });
}

test('the node runs containerd, kubelet, kube-proxy and (with flannel) flanneld as services; kube-proxy depends on the kubelet', () => {
  const { m } = scm();
  assert.deepEqual(m.list().map((s) => [s.name, s.state, s.dependsOn.join(',')]), [['containerd', 'Running', ''], ['kubelet', 'Running', 'containerd'], ['kube-proxy', 'Running', 'kubelet'], ['flanneld', 'Running', '']]);
  const calico = new WindowsServiceManager({ profile: { name: 'w', containerRuntime: 'containerd', network: { plugin: 'win-bridge', kubeProxy: { mode: 'kernelspace', enableDSR: false, featureGates: {}, hostnameOverride: true } } }, clock: new FakeClock() });
  assert.equal(calico.query('flanneld'), undefined, 'no flanneld without flannel');
  assert.equal(m.stop('kubelet'), 'dependent-running');
  assert.equal(m.stop('nope'), 'not-found');
  assert.equal(m.stop('kube-proxy'), undefined);
  assert.equal(m.stop('kube-proxy'), 'not-active');
  assert.equal(m.start('kubelet'), 'already-running');
});

test('Get-Service kubelet prints the service table; an unknown name is PowerShell\'s error', async () => {
  const { m } = scm();
  const env = hostEnv(m);
  const r = await run(env, ['powershell', '-Command', 'Get-Service kubelet']);
  assert.equal(r.stdout, '\r\nStatus   Name               DisplayName\r\n------   ----               -----------\r\nRunning  kubelet            kubelet\r\n\r\n');
  const bad = await run(env, ['powershell', '-Command', 'Get-Service nosuch']);
  assert.match(bad.stderr, /^Get-Service : Cannot find any service with service name 'nosuch'\./);
  assert.match(bad.stderr, /FullyQualifiedErrorId : NoServiceFoundForGivenName,Microsoft\.PowerShell\.Commands\.GetServiceCommand/);
});

test('sc.exe query kubelet: the SCM\'s layout; sc.exe stop is refused while kube-proxy runs (1051)', async () => {
  const { m } = scm();
  const env = hostEnv(m);
  const q = await run(env, ['sc.exe', 'query', 'kubelet']);
  assert.equal(q.code, 0);
  assert.equal(q.stdout, '\r\nSERVICE_NAME: kubelet\r\n        TYPE               : 10  WIN32_OWN_PROCESS\r\n        STATE              : 4  RUNNING\r\n                                (STOPPABLE, NOT_PAUSABLE, ACCEPTS_SHUTDOWN)\r\n        WIN32_EXIT_CODE    : 0  (0x0)\r\n        SERVICE_EXIT_CODE  : 0  (0x0)\r\n        CHECKPOINT         : 0x0\r\n        WAIT_HINT          : 0x0\r\n');
  const stop = await run(env, ['sc.exe', 'stop', 'kubelet']);
  assert.equal(stop.code, 1051);
  assert.equal(stop.stdout, '[SC] ControlService FAILED 1051:\r\n\r\nA stop control has been sent to a service that other running services are dependent on.\r\n\r\n');
  const missing = await run(env, ['sc.exe', 'query', 'nssm']);
  assert.equal(missing.code, 1060);
  assert.equal(missing.stdout, '[SC] EnumQueryServicesStatus:OpenService FAILED 1060:\r\n\r\nThe specified service does not exist as an installed service.\r\n\r\n');
});

test('Stop-Service kubelet needs -Force (kube-proxy depends on it); with it both stop and the kubelet hook runs', async () => {
  const calls: string[] = [];
  const { m } = scm({ kubelet: { stop: () => calls.push('stop'), start: () => calls.push('start') } });
  const env = hostEnv(m);
  const r = await run(env, ['powershell', '-Command', 'Stop-Service kubelet']);
  // The console wraps the message at 120 columns.
  assert.match(r.stderr.replace(/ ?\r\n/g, ' '), /^Stop-Service : Cannot stop service 'kubelet \(kubelet\)' because it has dependent services\. It can only be stopped if the Force flag is set\./);
  await run(env, ['powershell', '-Command', 'Stop-Service kubelet -Force']);
  assert.equal(m.query('kubelet')?.state, 'Stopped');
  assert.equal(m.query('kube-proxy')?.state, 'Stopped');
  const q = await run(env, ['sc.exe', 'query', 'kubelet']);
  assert.match(q.stdout, /STATE {14}: 1 {2}STOPPED\r\n {8}WIN32_EXIT_CODE/);
  await run(env, ['powershell', '-Command', 'Start-Service kube-proxy']);
  assert.equal(m.query('kubelet')?.state, 'Running', 'starting kube-proxy starts the kubelet it depends on');
  assert.deepEqual(calls, ['stop', 'start']);
});

test('the SCM restarts a crashed kubelet (Stop-Process -Force) after its recovery delay, recording exit code 1067', async () => {
  const calls: string[] = [];
  const { m, clock } = scm({ kubelet: { stop: () => calls.push('stop'), start: () => calls.push('start') } });
  const env = hostEnv(m);
  await run(env, ['powershell', '-Command', 'Stop-Process -Name kubelet -Force']);
  assert.equal(m.query('kubelet')?.state, 'Stopped');
  assert.equal(m.query('kubelet')?.win32ExitCode, 1067);
  await clock.advance(SERVICE_RESTART_DELAY_MS);
  assert.equal(m.query('kubelet')?.state, 'Running');
  assert.deepEqual(calls, ['stop', 'start']);
});

test('an ordinary (non-HostProcess) container sees none of the node\'s services', async () => {
  const env = fakeEnv({ os: 'windows', toolset: 'servercore' });
  const r = await run(env, ['sc.exe', 'query', 'kubelet']);
  assert.equal(r.code, 1060);
});

// The kubelet behind the service: stopped, it renews no Lease (the node lifecycle controller then marks it NotReady)
test('a stopped kubelet service stops renewing the node Lease; started again, it renews at once', async () => {
  const clock = new FakeClock();
  const client = new FakeClient(() => clock.now());
  const profile = windowsProfile('win-1', 1, '10.0.20348');
  const agent = new NodeAgent({ client, clock, logger: silentLogger, profiles: [profile], events: () => ({ event: () => undefined }) });
  await agent.start();
  await clock.advance(0);
  const renewTime = async () => ((await client.get(R.leases, LEASE_NAMESPACE, 'win-1')) as unknown as { spec: { renewTime: string } }).spec.renewTime;
  const services = agent.kubelet('win-1')!.services!;
  await clock.advance(10_000);
  const before = await renewTime();
  assert.equal(services.stop('kube-proxy'), undefined);
  assert.equal(services.stop('kubelet'), undefined);
  await clock.advance(60_000);
  assert.equal(await renewTime(), before, 'no renewals while the kubelet is stopped');
  services.start('kubelet');
  await clock.advance(0);
  assert.notEqual(await renewTime(), before);
  agent.stop();
});
