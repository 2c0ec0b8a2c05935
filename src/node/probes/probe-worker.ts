// One probe of one container, on the kubelet's schedule (pkg/kubelet/prober/worker.go): first after
// initialDelaySeconds, then every periodSeconds; a result only counts after successThreshold / failureThreshold
// consecutive runs; a liveness or startup failure holds the worker until the container is started again.

import type { Probe } from 'kubernetes-types/core/v1.js';
import type { Clock, Timer } from '../../util/clock.js';
import type { ProbeOutcome } from './probe-runner.js';

export type ProbeType = 'Liveness' | 'Readiness' | 'Startup';

export interface ProbeWorkerHooks {
  /** Runs the probe action once. */
  run(): Promise<ProbeOutcome>;
  /** Every failed run (the kubelet records an Unhealthy event for each). */
  failed(message: string): void;
  /** The counted result changed (after the thresholds). */
  changed(success: boolean): void;
  /** Whether the worker may probe now (e.g. liveness and readiness wait for the startup probe). */
  gate?(): boolean;
}

export class ProbeWorker {
  private timer?: Timer;
  private lastRun: boolean | undefined;
  private run = 0;
  /** The counted result; undefined until the thresholds are first met. */
  result: boolean | undefined;
  private onHold = false;
  private stopped = false;
  private inFlight = false;

  constructor(readonly type: ProbeType, private readonly probe: Probe, private readonly clock: Clock, private readonly hooks: ProbeWorkerHooks) {}

  /** The container (re)started at `startedAt`: probing begins initialDelaySeconds later. */
  containerStarted(startedAt: number): void {
    this.cancel();
    this.stopped = false;
    this.onHold = false;
    this.lastRun = undefined;
    this.run = 0;
    this.result = undefined;
    this.schedule(startedAt + (this.probe.initialDelaySeconds ?? 0) * 1000);
  }

  /** The container stopped, or the pod is going away. */
  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private schedule(at: number): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => void this.tick(), Math.max(0, at - this.clock.now()));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    const period = (this.probe.periodSeconds ?? 10) * 1000;
    const next = this.clock.now() + period;
    if (!this.onHold && !this.inFlight && (this.hooks.gate?.() ?? true)) {
      this.inFlight = true;
      try {
        const out = await this.hooks.run();
        if (!this.stopped) this.count(out);
      } finally {
        this.inFlight = false;
      }
    }
    this.schedule(next);
  }

  private count(out: ProbeOutcome): void {
    if (!out.ok) this.hooks.failed(out.message);
    if (this.lastRun === out.ok) this.run++;
    else {
      this.lastRun = out.ok;
      this.run = 1;
    }
    const threshold = out.ok ? this.probe.successThreshold ?? 1 : this.probe.failureThreshold ?? 3;
    if (this.run < threshold) return;
    if (this.result !== out.ok) {
      this.result = out.ok;
      this.hooks.changed(out.ok);
    }
    // A startup probe stops once it succeeded; a container that failed liveness or startup is restarted, and there
    // is nothing more to probe until it is.
    if (out.ok ? this.type === 'Startup' : this.type !== 'Readiness') {
      this.onHold = true;
      this.run = 0;
    }
  }
}
