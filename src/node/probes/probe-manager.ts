// The kubelet's prober manager for one node: a worker per probe of each running container, its results turned into
// readiness, started, Unhealthy events and liveness/startup restarts (pkg/kubelet/prober/prober_manager.go,
// pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions for the kill).

import type { Container, Probe } from 'kubernetes-types/core/v1.js';
import type { Clock } from '../../util/clock.js';
import type { ContainerRuntime, PodRuntime } from '../runtime-state.js';
import { runProbe, type ProbeTarget } from './probe-runner.js';
import { ProbeWorker, type ProbeType } from './probe-worker.js';

export interface ProbeManagerHooks {
  clock: Clock;
  target(rec: PodRuntime, c: ContainerRuntime): ProbeTarget;
  event(rec: PodRuntime, c: ContainerRuntime, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** Runtime state changed (readiness, started, a kill began): sync the pod and write its status. */
  changed(rec: PodRuntime): void;
}

interface ContainerProbes {
  startedAt?: number;
  workers: ProbeWorker[];
}

/** The probes a regular container declares, by type. */
export function probesOf(spec: Container | undefined): [ProbeType, Probe][] {
  if (!spec) return [];
  const out: [ProbeType, Probe][] = [];
  if (spec.startupProbe) out.push(['Startup', spec.startupProbe]);
  if (spec.livenessProbe) out.push(['Liveness', spec.livenessProbe]);
  if (spec.readinessProbe) out.push(['Readiness', spec.readinessProbe]);
  return out;
}

export class ProbeManager {
  private readonly byContainer = new Map<string, ContainerProbes>();

  constructor(private readonly hooks: ProbeManagerHooks) {}

  /** Brings the workers of a pod in line with its containers: started ones probed, stopped ones not. */
  reconcile(rec: PodRuntime): void {
    for (const c of rec.containers) {
      if (c.init) continue;
      const spec = rec.pod.spec?.containers.find((x) => x.name === c.name);
      const probes = probesOf(spec);
      if (!probes.length) continue;
      const key = `${rec.key}/${c.name}`;
      let cp = this.byContainer.get(key);
      if (!cp) {
        cp = { workers: probes.map(([type, probe]) => this.worker(rec, c, spec!, type, probe)) };
        this.byContainer.set(key, cp);
      }
      const running = c.state === 'running' && rec.state === 'active';
      if (running && cp.startedAt !== c.startedAt) {
        cp.startedAt = c.startedAt;
        for (const w of cp.workers) w.containerStarted(c.startedAt ?? this.hooks.clock.now());
      } else if (!running && cp.startedAt !== undefined) {
        cp.startedAt = undefined;
        for (const w of cp.workers) w.stop();
      }
    }
  }

  /** The pod is gone from the node. */
  forget(rec: PodRuntime): void {
    for (const c of rec.containers) {
      const key = `${rec.key}/${c.name}`;
      for (const w of this.byContainer.get(key)?.workers ?? []) w.stop();
      this.byContainer.delete(key);
    }
  }

  private worker(rec: PodRuntime, c: ContainerRuntime, spec: Container, type: ProbeType, probe: Probe): ProbeWorker {
    const hooks = this.hooks;
    const startup = () => this.byContainer.get(`${rec.key}/${c.name}`)?.workers.find((w) => w.type === 'Startup');
    return new ProbeWorker(type, probe, hooks.clock, {
      run: () => runProbe(probe, spec, hooks.target(rec, c)),
      failed: (message) => hooks.event(rec, c, 'Warning', 'Unhealthy', `${type} probe failed: ${message}`),
      // Liveness and readiness wait until the startup probe has succeeded.
      gate: type === 'Startup' ? undefined : () => startup()?.result ?? true,
      changed: (ok) => {
        if (c.state !== 'running') return;
        if (type === 'Readiness') {
          c.ready = ok && c.started !== false;
        } else if (type === 'Startup' && ok) {
          c.started = true;
          if (!spec.readinessProbe) c.ready = true;
        } else if (!ok) {
          // kuberuntime_manager.go: "Container %s failed liveness probe" → killContainer with the Killing event.
          hooks.event(rec, c, 'Normal', 'Killing', `Container ${c.name} failed ${type.toLowerCase()} probe, will be restarted`);
          c.ready = false;
          c.killRequested = true;
        }
        hooks.changed(rec);
      },
    });
  }
}
