// The container runtime's process side for one node: starts each container's process in the emulated shell when it
// starts, runs exec sessions beside it, and tells the kubelet when a main process ends or could not start.

import type { Container, LifecycleHandler } from 'kubernetes-types/core/v1.js';
import { podProbeTarget } from '../probes/pod-probe-target.js';
import type { ProbeTarget } from '../probes/probe-runner.js';
import { runHook, type HookResult } from './hooks.js';
import type { Clock } from '../../util/clock.js';
import { shellClock } from '../shell/index.js';
import type { NetworkCalls } from '../node-net.js';
import { imageConfig, lookupImage } from '../images/catalogue.js';
import type { NodeProfile } from '../profile.js';
import { containerSpec, type ContainerRuntime, type PodRuntime } from '../runtime-state.js';
import type { ContainerEnv, HostServices, Listener, RunResult, ShellClock, ShellIO } from '../shell/interfaces.js';
import { addLogMonitor } from '../shell/fs/seed-extras.js';
import type { VolumeContext } from '../volumes/volume-content.js';
import { processArgv } from './argv.js';
import { buildContainerEnv, expandSandboxMountPoint, remountTokenVolumes, type SharedVolumes } from './container-env.js';
import { containerNetwork } from './container-network.js';
import { ContainerProcess, execCaptured, type RunCommand } from './container-process.js';
import { podDns, type DnsSettings } from './pod-dns.js';
import type { CniResult } from '../../network/cni/interfaces.js';
import { OOM_EXIT_CODE, OOM_KILL_AFTER_MS, OOM_REASON, oomKilled } from './oom.js';
import type { Timer } from '../../util/clock.js';
import { syncMountedVolumes, unmountBackendVolumes } from '../../csi/backend.js';
import { hostDirs } from '../volumes/host-dirs.js';

export interface ProcessHostOptions {
  profile: NodeProfile;
  clock: Clock;
  run: RunCommand;
  /** A container's network calls through the model, from its pod (or node) with these nameservers. */
  networkCalls(rec: PodRuntime, nameservers: string[]): NetworkCalls;
  /** The CNI result of a sandbox (interface name, MAC, gateway), from the node's network. */
  cni?: (sandboxID: string) => CniResult | undefined;
  dns: DnsSettings;
  bootTimeMs(): number;
  volumeContext: Omit<VolumeContext, 'pod' | 'podIP'>;
  /** The main process of an interpreted container ended with this exit code (and the runtime's reason, OOMKilled). */
  exited(rec: PodRuntime, c: ContainerRuntime, code: number, reason?: string): void;
  /** The runtime could not start the container's command (StartError). */
  startFailed(rec: PodRuntime, c: ContainerRuntime, message: string): void;
  /** A lifecycle hook failed, with the kubelet's message. */
  hookFailed(rec: PodRuntime, c: ContainerRuntime, hook: 'PostStart' | 'PreStop', message: string): void;
  /** Runtime state changed outside the stages (a preStop hook finished): sync the pod. */
  changed(rec: PodRuntime): void;
  /** The node's Windows services, for HostProcess containers (src/node/os/windows/services.ts). */
  hostServices?: HostServices;
  /** The node's HCS compute systems, for HostProcess containers (src/node/os/windows/compute-systems.ts). */
  hostCompute?: ContainerEnv['hostCompute'];
  /** The node's HNS networks and pod IPAM, for HostProcess containers (Get-HnsNetwork, host-local.exe). */
  hostNetwork?: ContainerEnv['hostNetwork'];
}

/** How long a hook may run before it counts as failed (the kubelet bounds preStop by the grace period). */
const HOOK_TIMEOUT_MS = 30_000;

export class ProcessHost {
  private readonly procs = new Map<ContainerRuntime, ContainerProcess>();
  private readonly oomTimers = new Map<ContainerRuntime, Timer>();
  private readonly podVolumes = new Map<string, SharedVolumes['pod']>();
  /** The node's directories (src/node/volumes/host-dirs.ts), which a provisioner's teardown may remove. */
  private readonly hostVolumes: SharedVolumes['host'];
  private readonly clock: ShellClock;

  constructor(private readonly o: ProcessHostOptions) {
    this.clock = shellClock(o.clock);
    this.hostVolumes = hostDirs(o.profile.name);
  }

  /**
   * The container started: its process begins, and says whether one runs. A container whose image the catalogue knows
   * runs its command in the emulated shell, which decides when it ends — unless annotations time its end, when the
   * process still prints and serves but the behaviour's timer ends it. An image nobody described runs nothing.
   */
  start(rec: PodRuntime, c: ContainerRuntime): boolean {
    this.stop(c);
    const spec = containerSpec(rec.pod, c);
    const img = lookupImage(c.image);
    if (!spec || !img) return false;
    const pod = this.podVolumes.get(rec.key) ?? new Map();
    this.podVolumes.set(rec.key, pod);
    const dns = podDns(rec.pod, this.o.profile.os, this.o.dns);
    const env = buildContainerEnv(rec, c, spec, img, {
      profile: this.o.profile, clock: this.clock, bootTimeMs: this.o.bootTimeMs(),
      volumeContext: { ...this.o.volumeContext, podIP: rec.podIP ?? '' },
      shared: { pod, host: this.hostVolumes },
      network: containerNetwork({ os: this.o.profile.os, podIP: rec.podIP ?? '', podCIDR: this.o.profile.podCIDR, dns, sandboxID: rec.sandboxID ?? '', calls: this.o.networkCalls(rec, dns.nameservers), cni: rec.sandboxID ? this.o.cni?.(rec.sandboxID) : undefined }),
      hostServices: this.o.hostServices,
      hostCompute: this.o.hostCompute,
      hostNetwork: this.o.hostNetwork,
    });
    const proc = new ContainerProcess(env, this.o.run, { stdin: spec.stdin, tty: spec.tty });
    this.procs.set(c, proc);
    c.interpreted = img.known && !c.behaviour.timed;
    if (!img.known || !c.log) return false;
    const argv = expandSandboxMountPoint(processArgv(spec, imageConfig(img, this.o.profile.os), c.env), proc.env.env);
    // A Windows command wrapped in LogMonitor.exe: the image is one built with LogMonitor copied in, as the seeds ask.
    if (this.o.profile.os === 'windows' && /(^|[\\/])LogMonitor\.exe$/i.test(argv[0] ?? '')) {
      try { addLogMonitor(proc.env.fs, proc.env.fs.resolve('C:\\', argv[0])); } catch { /* a read-only mount hides it */ }
    }
    proc.runMain(argv, c.log).then((r: RunResult) => {
      if (this.procs.get(c) !== proc || proc.stopped || !c.interpreted) return;
      if (r.kind === 'not-found') this.o.startFailed(rec, c, r.startMessage);
      else this.o.exited(rec, c, r.exitCode);
    }, (err: unknown) => {
      // A fault in the emulation, not in the container: it ends as a crashed process would, with the reason logged.
      c.log?.write('stderr', `winkube: the emulated process failed: ${String(err)}\n`);
      if (this.procs.get(c) === proc && c.interpreted) this.o.exited(rec, c, 255);
    });
    if (oomKilled(rec.pod, spec, this.o.profile.os)) this.armOomKill(rec, c, proc);
    const postStart = spec.lifecycle?.postStart;
    if (postStart) {
      void this.hook(rec, c, spec, postStart).then((r) => {
        if (!r.ok && this.procs.get(c) === proc) this.o.hookFailed(rec, c, 'PostStart', r.message);
      });
    }
    return true;
  }

  /** The kernel kills the process once it has touched more memory than its cgroup allows (see oom.ts). */
  private armOomKill(rec: PodRuntime, c: ContainerRuntime, proc: ContainerProcess): void {
    this.oomTimers.set(c, this.o.clock.setTimeout(() => {
      this.oomTimers.delete(c);
      if (this.procs.get(c) !== proc || proc.stopped) return;
      proc.stop('SIGKILL');
      this.o.exited(rec, c, OOM_EXIT_CODE, OOM_REASON);
    }, OOM_KILL_AFTER_MS));
  }

  /** The container is being killed: its preStop hook runs, and the stop timer waits until it is done. */
  preStop(rec: PodRuntime, c: ContainerRuntime): void {
    const spec = containerSpec(rec.pod, c);
    const h = spec?.lifecycle?.preStop;
    c.preStopMs = undefined;
    if (!spec || !h || !this.procs.has(c)) {
      c.preStopMs = 0;
      return;
    }
    const started = this.o.clock.now();
    void this.hook(rec, c, spec, h).then((r) => {
      c.preStopMs = this.o.clock.now() - started;
      if (!r.ok) this.o.hookFailed(rec, c, 'PreStop', r.message);
      this.o.changed(rec);
    });
  }

  /** How probes and hooks reach a container: its pod's listeners, and exec beside its main process. */
  target(rec: PodRuntime, c: ContainerRuntime): ProbeTarget {
    return podProbeTarget(rec, this.o.profile.internalIP, (argv, timeoutMs) => this.execCaptured(c, argv, timeoutMs), (x) => this.listeners(x));
  }

  private hook(rec: PodRuntime, c: ContainerRuntime, spec: Container, h: LifecycleHandler): Promise<HookResult> {
    return runHook(h, rec.pod, spec, this.target(rec, c), (ms) => this.clock.sleep(ms), HOOK_TIMEOUT_MS).catch((err: unknown) => ({ ok: false, message: String(err) }));
  }

  /** The container stops (its processes end, its sockets close). */
  stop(c: ContainerRuntime, reason: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): void {
    this.oomTimers.get(c)?.cancel();
    this.oomTimers.delete(c);
    const p = this.procs.get(c);
    if (!p) return;
    p.stop(reason);
    this.procs.delete(c);
    // What the container wrote to network volumes reaches the storage system (unmount flushes); no more ticks merge them.
    unmountBackendVolumes(p.env.fs);
  }

  /** A renewed ServiceAccount token reaches the token files of the pod's running containers. */
  refreshTokenVolumes(rec: PodRuntime): void {
    for (const c of rec.containers) {
      const proc = this.procs.get(c);
      const spec = proc && containerSpec(rec.pod, c);
      if (!proc || !spec) continue;
      remountTokenVolumes(proc.env.fs, rec, c, spec, {
        profile: this.o.profile, clock: this.clock, volumeContext: { ...this.o.volumeContext, podIP: rec.podIP ?? '' },
        shared: { pod: this.podVolumes.get(rec.key) ?? new Map(), host: this.hostVolumes },
      });
    }
  }

  /** The pod is gone: its shared volumes go too. */
  forget(rec: PodRuntime): void {
    for (const c of rec.containers) this.stop(c, 'SIGKILL');
    this.podVolumes.delete(rec.key);
  }

  process(c: ContainerRuntime): ContainerProcess | undefined {
    return this.procs.get(c);
  }

  listeners(c: ContainerRuntime): Listener[] | undefined {
    return this.procs.get(c)?.listeners;
  }

  /** kubectl exec: a command beside the main process. */
  exec(c: ContainerRuntime, argv: string[], io: ShellIO): Promise<RunResult> | undefined {
    const p = this.procs.get(c);
    if (!p) return undefined;
    // Network volumes are revalidated before the session and flushed after it, as NFS's close-to-open (src/csi/backend.ts).
    syncMountedVolumes(p.env.fs);
    return p.exec(argv, io).finally(() => syncMountedVolumes(p.env.fs));
  }

  /** An exec probe or hook: output captured, cut off after the timeout. */
  execCaptured(c: ContainerRuntime, argv: string[], timeoutMs: number) {
    const p = this.procs.get(c);
    if (!p) return Promise.resolve({ error: 'container not running' });
    return execCaptured(p, argv, timeoutMs, (ms, signal) => this.clock.sleep(ms, signal));
  }
}
