// The named actions stages refer to. Each changes the runtime state of one pod or container and records the
// events the kubelet records at that point, with its wording for v1.33 (pkg/kubelet/events/event.go reasons).

import { createHash } from 'node:crypto';
import { goDuration } from '../go-duration.js';
import { lookupImage } from '../images/catalogue.js';
import { isolationFor } from '../runtime-handlers.js';
import { sandboxImageError, unmountableVolumes } from './sandbox-checks.js';
import { ATTACH_AND_MOUNT_TIMEOUT_MS, timeoutMessage } from '../volumes/attach-mount-wait.js';
import { containerConfig, windowsStartError } from './container-config.js';
import { dockerSingleFileMountError } from '../os/windows/docker-mounts.js';
import { terminationMessage } from '../logs/termination-message.js';
import { dockerSelectPlatform, platformMatches, selectPlatform } from '../images/platform.js';
import { sandboxJoinsHostNetwork } from '../os/windows/host-network.js';
import { isolatedByHyperVAnnotation } from '../os/windows/hyperv-annotation.js';
import { containerdMismatch, dockerStartMismatch } from '../os/windows/os-mismatch.js';
import { decidePull, type PullPolicy } from '../images/pull.js';
import { imageIdFor } from '../images/reference.js';
import { IpamExhaustedError } from '../../network/ipam/host-local.js';
import { ContainerLog } from '../logs/container-log.js';
import { containerSpec, podFullName, setState, type ContainerRuntime, type PodRuntime } from '../runtime-state.js';
import type { Action, ActionName, StageContext } from './types.js';
import type { NodeProfile } from '../profile.js';

/** A 64-hex container/sandbox id, unique per pod uid, container, attempt. */
export function runtimeId(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('/')).digest('hex');
}

const admit: Action = (ctx, rec) => {
  const r = ctx.admit(rec);
  const now = ctx.clock.now();
  if (!r.admit) {
    rec.state = 'rejected';
    rec.since = now;
    rec.reason = r.reason;
    rec.message = r.message;
    ctx.events.podEvent(rec, undefined, 'Warning', r.reason, r.message);
    return;
  }
  rec.state = 'sandbox';
  rec.since = now;
  rec.startTime ??= now;
};

/** The retry of a sandbox that could not be made (volumes the volume manager could not set up, a missing runtime handler). */
const MOUNT_RETRY_MS = 2000;

const createSandbox: Action = (ctx, rec) => {
  const now = ctx.clock.now();
  // kubelet.go SyncPod: WaitForAttachAndMount comes first; an unmountable volume keeps the pod in ContainerCreating.
  const failed = unmountableVolumes(ctx, rec);
  if (failed.events.length || failed.pending) {
    for (const e of failed.events) ctx.events.podEvent(rec, undefined, 'Warning', e.reason, e.message);
    // A wait that runs out of time is an event of its own on the kubelets that report it; then the next wait begins.
    rec.volumeWaitSince ??= now;
    if (!failed.wait.unprocessed.length && now - rec.volumeWaitSince >= ATTACH_AND_MOUNT_TIMEOUT_MS) {
      const timedOut = timeoutMessage(ctx.profile.kubeletVersion, failed.wait);
      if (timedOut) ctx.events.podEvent(rec, undefined, 'Warning', 'FailedMount', timedOut);
      rec.volumeWaitSince = now;
    }
    rec.sandboxRetryAt = now + MOUNT_RETRY_MS;
    return;
  }
  rec.volumeWaitSince = undefined;
  const sandboxID = runtimeId(rec.uid, 'sandbox');
  const rcName = rec.pod.spec?.runtimeClassName;
  const handler = rcName ? ctx.config.runtimeClassHandler?.(rcName) ?? '' : '';
  const iso = isolationFor(ctx.profile, handler);
  if ('error' in iso) {
    // kuberuntime_manager.go SyncPod: the sandbox is retried on the next sync; the pod stays ContainerCreating.
    ctx.events.podEvent(rec, undefined, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: rpc error: code = Unknown desc = ${iso.error}`);
    rec.sandboxRetryAt = now + MOUNT_RETRY_MS;
    return;
  }
  // seed 004 "Hyper-V Containers": on a Docker node with HyperVContainer on, the annotation isolates the pod's containers.
  rec.isolation = isolatedByHyperVAnnotation(ctx.profile, rec.pod) ? 'hyperv' : iso.isolation;
  const pauseError = sandboxImageError(ctx, rec, sandboxID);
  if (pauseError) {
    // seed 000 "Node-level troubleshooting" Q3: a pause image of another Windows build keeps the pod in ContainerCreating.
    ctx.events.podEvent(rec, undefined, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: rpc error: code = Unknown desc = ${pauseError}`);
    rec.sandboxRetryAt = now + MOUNT_RETRY_MS;
    return;
  }
  if (sandboxJoinsHostNetwork(ctx.profile, rec.pod)) {
    // The sandbox shares the node's namespace and skips CNI; on Windows containerd that is HostProcess pods only, so a
    // plain hostNetwork pod falls through to a pod network (os/windows/host-network.ts).
    rec.podIP = ctx.profile.internalIP;
    rec.podIPv6 = ctx.profile.internalIPv6;
  } else if (ctx.network) {
    const r = ctx.network.setupSandbox({ sandboxID, owner: rec.uid, portMappings: hostPortMappings(rec), dns: ctx.podDns?.(rec.pod) });
    if (!r.ok) {
      // containerd sandbox_run.go: the plugin's error after libcni's `plugin type=… failed (add):`; the pod stays
      // ContainerCreating and the kubelet retries the sandbox.
      rec.since = now;
      rec.sandboxRetryAt = now + MOUNT_RETRY_MS;
      ctx.events.podEvent(rec, undefined, 'Warning', 'FailedCreatePodSandBox',
        `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandboxID}": ${r.message}`);
      return;
    }
    rec.podIP = r.result.ip;
    rec.podIPv6 = r.result.ipv6;
  } else {
    try {
      rec.podIP = ctx.ipam.allocate(rec.uid);
    } catch (err) {
      if (!(err instanceof IpamExhaustedError)) throw err;
      // Retried on the next sync, like the kubelet does; `since` restarts the sandbox delay.
      rec.since = now;
      ctx.events.podEvent(rec, undefined, 'Warning', 'FailedCreatePodSandBox',
        `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandboxID}": plugin type="host-local" failed (add): ${err.message}`);
      return;
    }
  }
  rec.sandboxID = sandboxID;
  rec.sandboxReadyAt = now;
  rec.state = 'active';
  rec.since = now;
};

/** The CRI PortMappings of a sandbox: every container port with a hostPort (kuberuntime_sandbox.go). */
function hostPortMappings(rec: PodRuntime): { hostPort: number; containerPort: number; protocol: string; hostIP?: string }[] {
  const out: { hostPort: number; containerPort: number; protocol: string; hostIP?: string }[] = [];
  for (const c of rec.pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.hostPort) out.push({ hostPort: p.hostPort, containerPort: p.containerPort, protocol: (p.protocol ?? 'TCP').toLowerCase(), ...(p.hostIP ? { hostIP: p.hostIP } : {}) });
    }
  }
  return out;
}

const beginTermination: Action = (ctx, rec) => {
  const now = ctx.clock.now();
  rec.state = 'terminating';
  rec.since = now;
  for (const c of rec.containers) {
    if (c.state === 'running' || c.state === 'created') {
      ctx.events.podEvent(rec, c, 'Normal', 'Killing', `Stopping container ${c.name}`);
      setState(c, 'killing', now);
      ctx.processes?.preStop?.(rec, c);
    } else if (c.state !== 'done' && c.state !== 'exited') {
      // Never started (waiting): nothing to stop; it stays waiting in the final status.
      c.waiting ??= { reason: 'ContainerCreating' };
    }
  }
};

const finishTermination: Action = (ctx, rec) => {
  rec.state = 'finished';
  rec.since = ctx.clock.now();
  for (const c of rec.containers) c.ready = false;
  ctx.finalize(rec);
};

const stopContainer: Action = (ctx, rec, c) => {
  const now = ctx.clock.now();
  const graceMs = gracePeriodMs(rec, ctx.profile);
  // A process that outlives the grace period is killed: 137 (SIGKILL) on Linux; Windows has no signal exit codes.
  const killed = c!.behaviour.stopMs > graceMs;
  const exitCode = killed ? (ctx.profile.os === 'windows' ? 1 : 137) : 0;
  c!.terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: c!.startedAt ?? now, finishedAt: now, containerID: c!.containerID ?? '' };
  c!.ready = false;
  // The reason cache keeps a postStart failure until the container starts again.
  if (c!.waiting?.reason !== 'PostStartHookError') c!.waiting = undefined;
  c!.log?.close();
  ctx.processes?.stop(rec, c!, killed ? 'SIGKILL' : 'SIGTERM');
  // Stopped with its pod it is done; killed while the pod runs (a failed probe) the restart policy decides.
  setState(c!, rec.state === 'active' ? 'exited' : 'done', now);
};

const killContainer: Action = (ctx, rec, c) => {
  c!.killRequested = false;
  c!.ready = false;
  setState(c!, 'killing', ctx.clock.now());
  ctx.processes?.preStop?.(rec, c!);
};

/** deletionGracePeriodSeconds (set by the API server from the delete request) or the spec's, default 30 s. */
export function gracePeriodMs(rec: PodRuntime, profile?: Pick<NodeProfile, 'os' | 'containerRuntime'>): number {
  // Docker on Windows: the entrypoint gets CTRL_SHUTDOWN_EVENT and Windows stops everything 5 s later, whatever the
  // grace period says (seed 001 "Feature Restrictions": TerminationGracePeriod not implemented without containerd).
  if (profile?.os === 'windows' && profile.containerRuntime === 'docker') return WINDOWS_DOCKER_STOP_MS;
  const s = rec.pod.metadata?.deletionGracePeriodSeconds ?? rec.pod.spec?.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, s) * 1000;
}

/** The shutdown wait of Windows containers under Docker (a registry default inside the image). */
export const WINDOWS_DOCKER_STOP_MS = 5000;

const beginPull: Action = (ctx, rec, c) => {
  const now = ctx.clock.now();
  const spec = containerSpec(rec.pod, c!);
  const d = decidePull(c!.image, spec?.imagePullPolicy as PullPolicy | undefined, {
    profile: { ...ctx.profile, isolation: rec.isolation ?? ctx.profile.isolation }, present: ctx.images, bytesPerSecond: ctx.timings.pullBytesPerSecond, minPullMs: ctx.timings.minPullMs,
  });
  // The reason cache keeps the last start failure (PostStartHookError) until the container runs again.
  if (c!.waiting?.reason !== 'PostStartHookError') c!.waiting = { reason: 'ContainerCreating' };
  if (d.kind === 'present') {
    c!.imageName = d.image.name;
    c!.imageID = imageIdFor(d.image.ref);
    ctx.events.podEvent(rec, c, 'Normal', 'Pulled', d.event);
    setState(c!, 'creating', now);
  } else if (d.kind === 'pull') {
    c!.imageName = d.image.name;
    c!.imageID = imageIdFor(d.image.ref);
    c!.pullDurationMs = c!.behaviour.pullDurationMs ?? d.durationMs;
    ctx.events.podEvent(rec, c, 'Normal', 'Pulling', d.event);
    setState(c!, 'pulling', now);
  } else {
    ctx.events.podEvent(rec, c, 'Warning', d.eventReason, d.event);
    // kuberuntime_container.go startContainer: "Error: <reason>" follows the image manager's own event.
    ctx.events.podEvent(rec, c, 'Warning', 'Failed', `Error: ${d.reason}`);
    c!.waiting = { reason: d.reason, message: d.message };
    if (d.reason === 'ErrImagePull') c!.pullBackoff.next(now);
    setState(c!, 'pull-error', now);
  }
};

const finishPull: Action = (ctx, rec, c) => {
  const img = lookupImage(c!.image);
  const took = goDuration(c!.pullDurationMs ?? 0);
  ctx.events.podEvent(rec, c, 'Normal', 'Pulled', `Successfully pulled image "${c!.image}" in ${took} (${took} including waiting). Image size: ${img?.sizeBytes ?? 0} bytes.`);
  if (c!.imageName) ctx.images.add(c!.imageName);
  setState(c!, 'creating', ctx.clock.now());
};

const enterPullBackoff: Action = (ctx, rec, c) => {
  const prev = c!.waiting?.message ?? '';
  ctx.events.podEvent(rec, c, 'Normal', 'BackOff', `Back-off pulling image "${c!.image}"`);
  ctx.events.podEvent(rec, c, 'Warning', 'Failed', 'Error: ImagePullBackOff');
  c!.waiting = { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c!.image}": ErrImagePull: ${prev}` };
  setState(c!, 'pull-backoff', ctx.clock.now());
};

const retryPull: Action = (ctx, _rec, c) => setState(c!, 'new', ctx.clock.now());

const retryCreate: Action = (ctx, _rec, c) => setState(c!, 'creating', ctx.clock.now());

const createContainer: Action = (ctx, rec, c) => {
  const now = ctx.clock.now();
  // An image already on a Windows node but built for another OS version fails in HCS (windows-facts §3.5).
  const img = lookupImage(c!.image);
  // Docker creates the container anyway and fails at start (startContainer below).
  if (ctx.profile.os === 'windows' && ctx.profile.containerRuntime !== 'docker' && img && img.known && !selectPlatform(ctx.profile, rec.isolation ?? ctx.profile.isolation, img.platforms)) {
    const message = containerdMismatch(c!.name);
    ctx.events.podEvent(rec, c, 'Warning', 'Failed', `Error: ${message}`);
    c!.waiting = { reason: 'CreateContainerError', message };
    setState(c!, 'create-error', now);
    return;
  }
  const spec = containerSpec(rec.pod, c!);
  const fileMount = spec ? dockerSingleFileMountError(ctx.profile, rec.pod, spec) : undefined;
  if (fileMount) {
    // Docker on Windows cannot map a single file (os/windows/docker-mounts.ts): CreateContainer fails, retried each sync.
    ctx.events.podEvent(rec, c, 'Warning', 'Failed', `Error: ${fileMount}`);
    c!.waiting = { reason: 'CreateContainerError', message: fileMount };
    setState(c!, 'create-error', now);
    return;
  }
  const config = spec ? containerConfig(ctx, rec, c!, spec) : { error: `container ${c!.name} not found in pod spec` };
  if ('error' in config) {
    // kuberuntime_container.go startContainer: generateContainerConfig failed; retried on the next sync.
    ctx.events.podEvent(rec, c, 'Warning', 'Failed', `Error: ${config.error}`);
    c!.waiting = { reason: 'CreateContainerConfigError', message: config.error };
    setState(c!, 'config-error', now);
    return;
  }
  c!.env = config.env;
  c!.identity = config.identity;
  if (c!.prior) {
    // The runtime lost the earlier containers: this one is numbered from the log directory, and with no older
    // container beside it the status has no lastState (kubelet_pods.go convertToAPIContainerStatuses).
    c!.restartCount = c!.prior.nextRestartCount;
    c!.prior = undefined;
  }
  c!.containerID = `containerd://${runtimeId(rec.uid, c!.name, c!.restartCount)}`;
  if (ctx.profile.containerRuntime === 'docker') c!.containerID = c!.containerID.replace('containerd://', 'docker://');
  ctx.events.podEvent(rec, c, 'Normal', 'Created', `Created container: ${c!.name}`);
  setState(c!, 'created', now);
};

const startContainer: Action = (ctx, rec, c) => {
  const now = ctx.clock.now();
  const startError = dockerOsMismatch(ctx, rec, c!) ?? windowsStartError(ctx, rec, c!);
  if (startError) {
    failStart(ctx, rec, c!, startError);
    return;
  }
  ctx.events.podEvent(rec, c, 'Normal', 'Started', `Started container ${c!.name}`);
  // A new instance gets a new log file; the one before stays readable as --previous (the kubelet keeps one).
  if (c!.log) c!.previousLog = c!.log;
  c!.log = new ContainerLog(c!.containerID ?? '', () => ctx.clock.now());
  const running = ctx.processes?.start(rec, c!) ?? false;
  // The behaviour model's lines, for a container whose process the shell does not run.
  if (!running) for (const line of c!.behaviour.logLines) c!.log.write('stdout', `${line}\n`);
  c!.startedAt = now;
  c!.waiting = undefined;
  c!.terminated = undefined;
  c!.ready = false;
  c!.started = containerSpec(rec.pod, c!)?.startupProbe ? false : undefined;
  setState(c!, 'running', now);
};

/**
 * Docker pulled an image of another Windows build (images/platform.ts dockerSelectPlatform); HCS refuses it when the
 * container starts unless Hyper-V isolates it (the same compatibility as containerd's matcher, platformMatches).
 */
function dockerOsMismatch(ctx: StageContext, rec: PodRuntime, c: ContainerRuntime): string | undefined {
  if (ctx.profile.os !== 'windows' || ctx.profile.containerRuntime !== 'docker') return undefined;
  const img = lookupImage(c.image);
  const entry = img?.known ? dockerSelectPlatform(ctx.profile, img.platforms) : undefined;
  if (!entry || platformMatches(ctx.profile, rec.isolation ?? ctx.profile.isolation, entry)) return undefined;
  return dockerStartMismatch(ctx.profile, c.containerID?.replace(/^\w+:\/\//, '') ?? '');
}

const markReady: Action = (_ctx, _rec, c) => {
  // Init containers never report ready (kubelet sets Ready only for regular containers).
  if (!c!.init) c!.ready = true;
};

/**
 * The task could not start (the command is missing, HCS could not log on as the user): the container is terminated
 * with StartError (ContainerCannotRun with Docker) and exit code 128, as kuberuntime reports a failed StartContainer.
 */
export function failStart(ctx: StageContext, rec: PodRuntime, c: ContainerRuntime, message: string): void {
  const now = ctx.clock.now();
  ctx.events.podEvent(rec, c, 'Warning', 'Failed', `Error: ${message}`);
  const reason = ctx.profile.containerRuntime === 'docker' ? 'ContainerCannotRun' : 'StartError';
  c.terminated = { exitCode: 128, reason, message, startedAt: now, finishedAt: now, containerID: c.containerID ?? '' };
  c.waiting = undefined;
  c.ready = false;
  c.log?.close();
  ctx.processes?.stop(rec, c, 'SIGKILL');
  setState(c, 'exited', now);
}

/**
 * A lifecycle hook failed (kuberuntime_container.go): FailedPostStartHook kills the container, which the restart
 * policy then handles; FailedPreStopHook is recorded and the stop goes on.
 */
export function hookFailed(ctx: StageContext, rec: PodRuntime, c: ContainerRuntime, hook: 'PostStart' | 'PreStop', message: string): void {
  ctx.events.podEvent(rec, c, 'Warning', `Failed${hook}Hook`, message);
  if (hook === 'PostStart' && c.state === 'running') {
    ctx.events.podEvent(rec, c, 'Normal', 'Killing', 'FailedPostStartHook');
    c.killRequested = true;
    // startContainer returns ErrPostStartHook ("PostStartHookError") with the hook's message; the reason cache shows
    // it as the waiting reason until the container starts again (kuberuntime_container.go, kubelet_pods.go).
    c.waiting = { reason: 'PostStartHookError', message };
  }
}

const windowsDocker = (ctx: StageContext) => ctx.profile.os === 'windows' && ctx.profile.containerRuntime === 'docker';

const exitContainer: Action = (ctx, rec, c) => {
  const now = ctx.clock.now();
  const code = c!.processExit?.code ?? c!.behaviour.exitCode;
  c!.log?.close();
  ctx.processes?.stop(rec, c!, 'SIGKILL');
  const message = terminationMessage({ spec: containerSpec(rec.pod, c!), exitCode: code, log: c!.log, windowsDocker: windowsDocker(ctx) });
  // The runtime names an OOM kill (cri: reason OOMKilled); any other exit is Completed or Error.
  const reason = c!.processExit?.reason ?? (code === 0 ? 'Completed' : 'Error');
  c!.terminated = { exitCode: code, reason, ...(message ? { message } : {}), startedAt: c!.startedAt ?? now, finishedAt: now, containerID: c!.containerID ?? '' };
  c!.ready = false;
  setState(c!, 'exited', now);
};

/** pkg/kubelet/kuberuntime/kuberuntime_manager.go: init containers restart on failure unless Never; others per policy. */
export function shouldRestart(policy: string, init: boolean, exitCode: number): boolean {
  if (init) return policy !== 'Never' && exitCode !== 0;
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

const applyRestartPolicy: Action = (ctx, rec, c) => {
  const now = ctx.clock.now();
  const policy = rec.pod.spec?.restartPolicy ?? 'Always';
  const t = c!.terminated!;
  if (!shouldRestart(policy, c!.init, t.exitCode)) {
    setState(c!, 'done', now);
    return;
  }
  // doBackOff: a failure outside the current back-off window restarts at once (and doubles the window);
  // inside it the container waits in CrashLoopBackOff until finishedAt + back-off.
  const finishedAt = t.finishedAt ?? now;
  if (!c!.crashBackoff.isInBackOffSince(finishedAt, now)) {
    c!.crashBackoff.next(finishedAt);
    restart(c!, now);
    return;
  }
  const ms = c!.crashBackoff.currentMs;
  const msg = `back-off ${goDuration(ms)} restarting failed container=${c!.name} pod=${podFullName(rec.pod)}`;
  ctx.events.podEvent(rec, c, 'Warning', 'BackOff', `Back-off restarting failed container ${c!.name} in pod ${podFullName(rec.pod)}`);
  c!.waiting = { reason: 'CrashLoopBackOff', message: msg };
  setState(c!, 'crash-backoff', now);
};

const restartContainer: Action = (ctx, _rec, c) => {
  c!.crashBackoff.next(c!.terminated!.finishedAt ?? ctx.clock.now());
  restart(c!, ctx.clock.now());
};

function restart(c: ContainerRuntime, now: number): void {
  c.processExit = undefined;
  c.lastTerminated = c.terminated;
  c.terminated = undefined;
  c.restartCount++;
  c.waiting = c.waiting?.reason === 'PostStartHookError' ? c.waiting : { reason: 'ContainerCreating' };
  setState(c, 'new', now);
}

export const ACTIONS: Record<ActionName, Action> = {
  admit, createSandbox, beginTermination, finishTermination, stopContainer, beginPull, finishPull, enterPullBackoff,
  retryPull, createContainer, startContainer, markReady, exitContainer, applyRestartPolicy, restartContainer, retryCreate, killContainer,
};

export type { StageContext };
