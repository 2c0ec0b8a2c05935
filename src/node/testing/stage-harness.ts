// Drives one pod through the stage engine on a FakeClock without any API: for golden tests and benchmarks.

import type { Pod, PodStatus } from 'kubernetes-types/core/v1.js';
import { FakeClock } from '../../util/clock.js';
import { HostLocalAllocator } from '../../network/ipam/host-local.js';
import { admitPod } from '../admission.js';
import { buildPodStatus } from '../pod-status.js';
import { newPodRuntime } from '../pod-runtime.js';
import { restorePodRuntime } from '../restore.js';
import { computeAllocatable, type NodeProfile } from '../profile.js';
import type { PodRuntime } from '../runtime-state.js';
import { ACTIONS } from '../stages/actions.js';
import { ProbeManager } from '../probes/probe-manager.js';
import { ProcessHost } from '../process/process-host.js';
import { ClusterNetwork } from '../../network/model/cluster-network.js';
import { modelNetworkCalls } from '../../network/model/pod-view.js';
import { runCommand } from '../shell/run-command.js';
import { failStart, hookFailed } from '../stages/actions.js';
import { StageEngine } from '../stages/engine.js';
import { POD_STAGES } from '../stages/pod-stages.js';
import { DEFAULT_TIMINGS, type StageContext } from '../stages/types.js';

export interface RecordedEvent {
  /** Seconds since the harness started. */
  t: number;
  type: string;
  reason: string;
  fieldPath?: string;
  message: string;
}

export class StageHarness {
  readonly clock = new FakeClock();
  readonly start = this.clock.now();
  readonly events: RecordedEvent[] = [];
  readonly engine = new StageEngine(POD_STAGES, ACTIONS);
  readonly ctx: StageContext;
  readonly rec: PodRuntime;
  finalized = false;
  private readonly probes: ProbeManager;
  /** ConfigMaps the pod's env may refer to, keyed namespace/name. */
  readonly configMaps = new Map<string, Record<string, string>>();
  /** RuntimeClass name → handler. */
  readonly runtimeClasses = new Map<string, string>();

  /** `restore`: the pod comes from an earlier run whose runtime was lost (restore.ts), as after a node reboot. */
  constructor(pod: Pod, readonly profile: NodeProfile, images: string[] = profile.preloadedImages, opts: { restore?: boolean } = {}) {
    const allocatable = computeAllocatable(profile);
    this.ctx = {
      clock: this.clock,
      profile,
      images: new Set(images),
      ipam: new HostLocalAllocator(profile.podCIDR),
      timings: DEFAULT_TIMINGS,
      config: { configMap: (ns, name) => this.configMaps.get(`${ns}/${name}`), secret: () => undefined, runtimeClassHandler: (name) => this.runtimeClasses.get(name) },
      allocatable,
      events: {
        podEvent: (_rec, c, type, reason, message) => this.events.push({
          t: (this.clock.now() - this.start) / 1000, type, reason, message,
          ...(c ? { fieldPath: `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}` } : {}),
        }),
      },
      admit: (rec) => admitPod(rec.pod, profile, { 'kubernetes.io/os': profile.os, ...profile.labels }, allocatable, []),
      finalize: () => { this.finalized = true; },
    };
    this.rec = opts.restore ? restorePodRuntime(pod, this.clock.now()) : newPodRuntime(pod, this.clock.now());
    // The container runtime's processes, as the kubelet has them: containers run their commands in the shells.
    const processes = new ProcessHost({
      profile, clock: this.clock, run: runCommand,
      // A cluster with nothing else in it: the pod's own network calls only.
      networkCalls: (rec, nameservers) => modelNetworkCalls({
        net: new ClusterNetwork({ serviceCIDR: '10.96.0.0/12', clusterCIDR: '10.244.0.0/16', nodeNetwork: '172.18.0.0/16' }),
        from: { kind: 'pod', ip: rec.podIP ?? '' }, nameservers, answerDns: () => undefined,
      }),
      dns: { clusterDNS: '10.96.0.10', clusterDomain: 'cluster.local', hostNameservers: [] },
      bootTimeMs: () => this.start,
      volumeContext: { os: profile.os, hostIP: profile.internalIP, allocatable, config: this.ctx.config },
      exited: (_rec, c, code, reason) => {
        c.processExit = { code, at: this.clock.now(), ...(reason ? { reason } : {}) };
        this.run();
      },
      startFailed: (rec, c, message) => {
        failStart(this.ctx, rec, c, message);
        this.run();
      },
      hookFailed: (rec, c, hook, message) => {
        hookFailed(this.ctx, rec, c, hook, message);
        this.run();
      },
      changed: () => this.run(),
    });
    this.ctx.processes = {
      start: (rec, c) => processes.start(rec, c), stop: (_rec, c, reason) => processes.stop(c, reason), preStop: (rec, c) => processes.preStop(rec, c),
    };
    this.probes = new ProbeManager({
      clock: this.clock,
      target: (rec, c) => processes.target(rec, c),
      event: (_rec, c, type, reason, message) => this.ctx.events.podEvent(this.rec, c, type, reason, message),
      changed: () => this.run(),
    });
  }

  /** Runs due stages and brings the probes in line, as the kubelet's sync does. */
  private run(): void {
    this.engine.runDue(this.ctx, this.rec);
    this.probes.reconcile(this.rec);
  }

  /**
   * Advances the clock by `ms`, running every stage that falls due on the way at its own instant. Time moves in steps
   * of at most 50 ms, so the containers' processes run between them: a shell's `sleep` starts when its command reaches
   * it, and a process that ends moves the pod on at once.
   */
  async advance(ms: number): Promise<void> {
    const end = this.clock.now() + ms;
    this.run();
    while (this.clock.now() < end) {
      const due = this.engine.nextDue(this.ctx, this.rec)?.at ?? Infinity;
      const next = Math.min(end, this.clock.now() + 50, Math.max(due, this.clock.now()));
      await this.clock.advance(next - this.clock.now());
      this.run();
    }
  }

  /** Marks the pod deleted as the API server would (deletionTimestamp + grace period). */
  delete(graceSeconds?: number): void {
    const grace = graceSeconds ?? this.rec.pod.spec?.terminationGracePeriodSeconds ?? 30;
    this.rec.pod = {
      ...this.rec.pod,
      metadata: { ...this.rec.pod.metadata, deletionTimestamp: new Date(this.clock.now() + grace * 1000).toISOString(), deletionGracePeriodSeconds: grace },
    };
  }

  status(previous?: PodStatus): PodStatus {
    return buildPodStatus(this.rec, this.profile, this.clock.now(), previous);
  }
}
