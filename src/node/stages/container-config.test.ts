// Containers the runtime cannot create or start as asked: CreateContainerConfigError (runAsNonRoot, missing
// ConfigMaps) and StartError (a Windows account the container cannot log on as), with the kubelet's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, PodSecurityContext } from 'kubernetes-types/core/v1.js';
import { linuxProfile, windowsProfile } from '../fleet-defaults.js';
import { StageHarness } from '../testing/stage-harness.js';

const WS2019 = windowsProfile('win-1', 2, '10.0.17763');
const LINUX = linuxProfile('lin-1', 1);

function pod(c: Container, sc?: PodSecurityContext, restartPolicy = 'Always'): Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'uid-p' },
    spec: { restartPolicy, containers: [c], securityContext: sc },
    status: { phase: 'Pending' },
  };
}
const nano = (extra: Partial<Container> = {}): Container => ({ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019', ...extra });

test('Windows runAsNonRoot with ContainerAdministrator waits in CreateContainerConfigError (security_context.go e2e)', async () => {
  const h = new StageHarness(pod(nano(), { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerAdministrator' } }), WS2019);
  await h.advance(2000);
  const cs = h.status().containerStatuses![0];
  assert.equal(cs.state?.waiting?.reason, 'CreateContainerConfigError');
  assert.equal(cs.state?.waiting?.message, 'container\'s runAsUserName (ContainerAdministrator) which will be regarded as root identity and will break non-root policy (pod: "p_ns(uid-p)", container: c)');
  assert.ok(h.events.some((e) => e.reason === 'Failed' && e.message.startsWith('Error: container\'s runAsUserName (ContainerAdministrator)')));
});

test('the image\'s default user counts too: Server Core runs as ContainerAdministrator', async () => {
  const h = new StageHarness(pod({ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2019' }, { runAsNonRoot: true }), WS2019);
  await h.advance(2000);
  assert.match(h.status().containerStatuses![0].state?.waiting?.message ?? '', /^container's runAsUser \(ContainerAdministrator\) which will be regarded as root identity/);
});

test('container-level runAsUserName overrides the pod\'s and becomes the container identity', async () => {
  const h = new StageHarness(pod(nano({ securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } }), { windowsOptions: { runAsUserName: 'ContainerAdministrator' } }), WS2019);
  await h.advance(2000);
  assert.ok(h.events.some((e) => e.reason === 'Started'));
  assert.equal(h.rec.containers[0].identity?.windowsUser, 'ContainerUser');
});

test('an unknown Windows user fails the start with StartError; restartPolicy Never fails the pod', async () => {
  const h = new StageHarness(pod(nano({ securityContext: { windowsOptions: { runAsUserName: 'FooLish' } } }), undefined, 'Never'), WS2019);
  await h.advance(2000);
  const st = h.status();
  const t = st.containerStatuses![0].state?.terminated;
  assert.equal(t?.reason, 'StartError');
  assert.equal(t?.exitCode, 128);
  assert.match(t?.message ?? '', /hcs::CreateComputeSystem [0-9a-f]{64}: The user name or password is incorrect\.: unknown$/);
  assert.equal(st.phase, 'Failed');
});

test('Linux runAsNonRoot on a root image waits in CreateContainerConfigError', async () => {
  const h = new StageHarness(pod({ name: 'c', image: 'nginx:1.27' }, { runAsNonRoot: true }), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  await h.advance(2000);
  assert.equal(h.status().containerStatuses![0].state?.waiting?.message, 'container has runAsNonRoot and image will run as root (pod: "p_ns(uid-p)", container: c)');
});

test('a missing ConfigMap key waits in CreateContainerConfigError until the ConfigMap appears', async () => {
  const c: Container = { name: 'c', image: 'nginx:1.27', env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } }] };
  const h = new StageHarness(pod(c), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  await h.advance(2000);
  assert.deepEqual(h.status().containerStatuses![0].state?.waiting, { reason: 'CreateContainerConfigError', message: 'configmap "cfg" not found' });
  h.configMaps.set('ns/cfg', { mode: 'fast' });
  await h.advance(3000);
  assert.ok(h.status().containerStatuses![0].state?.running);
  assert.equal(h.rec.containers[0].env?.MODE, 'fast');
});

test('a volume whose ConfigMap is missing keeps the pod in ContainerCreating with FailedMount until it appears', async () => {
  const p = pod({ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }] });
  p.spec!.volumes = [{ name: 'cfg', configMap: { name: 'app-config' } }];
  const h = new StageHarness(p, LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  await h.advance(3000);
  assert.equal(h.status().containerStatuses![0].state?.waiting?.reason, 'ContainerCreating');
  assert.ok(h.events.some((e) => e.reason === 'FailedMount' && e.message === 'MountVolume.SetUp failed for volume "cfg" : configmap "app-config" not found'));
  h.configMaps.set('ns/app-config', { a: 'b' });
  await h.advance(3000);
  assert.ok(h.status().containerStatuses![0].state?.running);
});

test('FallbackToLogsOnError: a failed container\'s message is the tail of its log (kuberuntime getTerminationMessage)', async () => {
  const p = pod({ name: 'c', image: 'nginx:1.27', terminationMessagePolicy: 'FallbackToLogsOnError' }, undefined, 'Never');
  p.metadata!.annotations = { 'winkube.io/crash-after': '1s' };
  const h = new StageHarness(p, LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/nginx:1.27']);
  await h.advance(3000);
  const t = h.status().containerStatuses![0].state?.terminated;
  assert.equal(t?.exitCode, 1);
  // nginx's own start-up lines, the last of its log.
  assert.match(t?.message ?? '', /^\/docker-entrypoint\.sh: Configuration complete; ready for start up\n[\s\S]*start worker process \d+\n$/);
});

// windows-facts §7 hyperv.go; seed 000 "Simplifying with RuntimeClass"
test('Hyper-V isolation through the runhcs-wcow-hypervisor handler runs an older build; a node without that runtime fails the sandbox', async () => {
  const hyperv = { ...windowsProfile('win22-hv', 3, '10.0.20348'), isolation: 'hyperv' as const };
  const processOnly = windowsProfile('win22', 4, '10.0.20348');
  const p = () => {
    const x = pod(nano({ command: ['cmd', '/c', 'ping', '-t', 'localhost'] }));
    x.spec!.runtimeClassName = 'hv';
    return x;
  };
  const images = ['registry.k8s.io/pause:3.10', 'mcr.microsoft.com/windows/nanoserver:ltsc2019'];
  const ok = new StageHarness(p(), hyperv, images);
  ok.runtimeClasses.set('hv', 'runhcs-wcow-hypervisor');
  await ok.advance(2000);
  assert.ok(ok.status().containerStatuses![0].state?.running, JSON.stringify(ok.status().containerStatuses));
  assert.equal(ok.rec.isolation, 'hyperv');

  const refused = new StageHarness(p(), processOnly, images);
  refused.runtimeClasses.set('hv', 'runhcs-wcow-hypervisor');
  await refused.advance(2000);
  assert.ok(refused.events.some((e) => e.reason === 'FailedCreatePodSandBox' && e.message === 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "runhcs-wcow-hypervisor" is configured'));
  assert.equal(refused.status().phase, 'Pending');

  const processIsolated = new StageHarness(pod(nano()), processOnly, images);
  await processIsolated.advance(2000);
  assert.match(processIsolated.status().containerStatuses![0].state?.waiting?.message ?? '', /The container operating system does not match the host operating system/);
});

// seed 000 "Node-level troubleshooting" Q3; seed-coverage "pause-image mismatch"
test('a pause image without the node\'s Windows build keeps pods in ContainerCreating with FailedCreatePodSandBox', async () => {
  const node = { ...windowsProfile('win22', 4, '10.0.20348'), sandboxImage: 'k8s.gcr.io/pause:3.6' };
  const h = new StageHarness(pod(nano()), node, ['mcr.microsoft.com/windows/nanoserver:ltsc2019']);
  await h.advance(3000);
  assert.equal(h.status().phase, 'Pending');
  assert.match(h.events.find((e) => e.reason === 'FailedCreatePodSandBox')?.message ?? '', /hcs::CreateComputeSystem [0-9a-f]{64}: The container operating system does not match the host operating system\.: unknown$/);
});

// pkg/kubelet/lifecycle/handlers.go, kuberuntime_container.go (postStart failure kills; preStop runs before the stop)
test('a failing postStart exec hook: FailedPostStartHook with the kubelet\'s words, then the container is killed and restarted', async () => {
  const c: Container = { name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo nope; exit 2'] } } } };
  const h = new StageHarness(pod(c), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/busybox:1.36']);
  await h.advance(3000);
  const failed = h.events.find((e) => e.reason === 'FailedPostStartHook');
  assert.equal(failed?.message, 'Exec lifecycle hook ([sh -c echo nope; exit 2]) for Container "c" in Pod "p_ns(uid-p)" failed - error: command \'sh -c echo nope; exit 2\' exited with 2: nope\n, message: "nope\\n"');
  assert.ok(h.events.some((e) => e.reason === 'Killing' && e.message === 'FailedPostStartHook'));
  await h.advance(3000);
  assert.ok((h.status().containerStatuses![0].restartCount ?? 0) >= 1);
});

test('a preStop sleep holds the container through deletion until it is done (bounded by the grace period)', async () => {
  const c: Container = { name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } } };
  const h = new StageHarness(pod(c), LINUX, ['registry.k8s.io/pause:3.10', 'docker.io/library/busybox:1.36']);
  await h.advance(1000);
  h.delete(30);
  await h.advance(4000);
  assert.equal(h.rec.containers[0].state, 'killing', 'still running its preStop hook');
  await h.advance(2000);
  assert.equal(h.rec.containers[0].state, 'done');
  assert.ok(h.finalized);
});
