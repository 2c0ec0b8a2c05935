// The stage engine: finds which stage is due next for a pod (over the pod and each eligible container), and runs
// due stages. It owns no timers; the kubelet keeps one timer per pod at `nextDue().at`.

import { containerSpec, eligible, type ContainerRuntime, type PodRuntime } from '../runtime-state.js';
import { gracePeriodMs } from './actions.js';

/** Whether the container's spec has a preStop hook. */
function hasPreStop(rec: PodRuntime, c: ContainerRuntime): boolean {
  return !!containerSpec(rec.pod, c)?.lifecycle?.preStop;
}
import type { Action, ActionName, Delay, Selector, Stage, StageContext } from './types.js';

export interface Due {
  stage: Stage;
  container?: ContainerRuntime;
  at: number;
}

/** Guards against a stage list that loops without time passing. */
const MAX_STEPS_PER_RUN = 1000;

export class StageEngine {
  constructor(
    private readonly stages: readonly Stage[],
    private readonly actions: Record<ActionName, Action>,
  ) {
    for (const s of stages) if (!actions[s.action]) throw new Error(`stage ${s.name}: unknown action ${s.action}`);
  }

  /** The earliest matching stage, or undefined when the pod waits for something outside (e.g. deletion). */
  nextDue(ctx: StageContext, rec: PodRuntime): Due | undefined {
    let best: Due | undefined;
    for (const stage of this.stages) {
      if (stage.target === 'pod') {
        if (!this.matches(stage.selector, rec, undefined)) continue;
        const at = this.dueAt(ctx, stage.delay, rec, undefined);
        if (at !== undefined && (!best || at < best.at)) best = { stage, at };
      } else {
        for (const c of rec.containers) {
          if (!this.matches(stage.selector, rec, c)) continue;
          const at = this.dueAt(ctx, stage.delay, rec, c);
          if (at !== undefined && (!best || at < best.at)) best = { stage, container: c, at };
        }
      }
    }
    return best;
  }

  /** Runs every stage due at or before the clock's now; returns how many ran. */
  runDue(ctx: StageContext, rec: PodRuntime, onStage?: (d: Due) => void): number {
    let n = 0;
    for (; n < MAX_STEPS_PER_RUN; n++) {
      const due = this.nextDue(ctx, rec);
      if (!due || due.at > ctx.clock.now()) return n;
      this.actions[due.stage.action](ctx, rec, due.container);
      onStage?.(due);
    }
    throw new Error(`stage engine: pod ${rec.key} ran ${MAX_STEPS_PER_RUN} stages without time passing`);
  }

  private matches(sel: Selector, rec: PodRuntime, c: ContainerRuntime | undefined): boolean {
    if (sel.pod && !sel.pod.includes(rec.state)) return false;
    if (sel.deleting !== undefined && sel.deleting !== !!rec.pod.metadata?.deletionTimestamp) return false;
    if (sel.allStopped !== undefined && sel.allStopped !== rec.containers.every((x) => !['running', 'created', 'killing'].includes(x.state))) return false;
    if (!c) return !sel.container;
    if (sel.container && !sel.container.includes(c.state)) return false;
    // Containers progress in order only while the pod runs; stopping applies to every container.
    if (rec.state === 'active' && !eligible(rec, c)) return false;
    if (sel.init !== undefined && sel.init !== c.init) return false;
    if (sel.ready !== undefined && sel.ready !== c.ready) return false;
    if (sel.waitingReason && !sel.waitingReason.includes(c.waiting?.reason ?? '')) return false;
    if (sel.probed !== undefined && sel.probed !== c.probed) return false;
    if (sel.killRequested !== undefined && sel.killRequested !== !!c.killRequested) return false;
    if (sel.exits !== undefined && sel.exits !== (c.interpreted ? !!c.processExit : c.behaviour.exitAfterMs !== undefined)) return false;
    return true;
  }

  private dueAt(ctx: StageContext, delay: Delay, rec: PodRuntime, c: ContainerRuntime | undefined): number | undefined {
    const since = c ? c.since : rec.since;
    if ('ms' in delay) return since + delay.ms;
    const t = ctx.timings;
    switch (delay.from) {
      case 'sandbox': return Math.max(since + t.sandbox, rec.sandboxRetryAt ?? 0);
      case 'create': return since + t.create;
      case 'start': return since + t.start;
      case 'pullErrorResync': return since + t.pullErrorResync;
      case 'configErrorResync': return since + t.configErrorResync;
      case 'pull': return since + (c?.pullDurationMs ?? 0);
      case 'exitAfter':
        if (c?.interpreted) return c.processExit?.at;
        return c?.behaviour.exitAfterMs === undefined ? undefined : since + c.behaviour.exitAfterMs;
      case 'readyAfter': return since + (c?.behaviour.readyAfterMs ?? 0);
      // kuberuntime killContainer: the preStop hook first, then the stop signal; the grace period bounds both.
      case 'stop': {
        const grace = gracePeriodMs(rec, ctx.profile);
        if (c?.preStopMs === undefined && c && hasPreStop(rec, c)) return since + grace;
        return since + Math.min((c?.preStopMs ?? 0) + (c?.behaviour.stopMs ?? 0), grace);
      }
      case 'pullBackoff': {
        const e = c?.pullBackoff.entry;
        return e ? e.lastUpdate + e.backoffMs : since;
      }
      case 'crashBackoff': {
        const e = c?.crashBackoff.entry;
        return e && c?.terminated ? (c.terminated.finishedAt ?? since) + e.backoffMs : since;
      }
    }
  }
}
