// What a failed attempt leaves behind: a FailedScheduling event and PodScheduled=False on the pod
// (pkg/scheduler/schedule_one.go handleSchedulingFailure, updatePod, truncateMessage).

import type { EventRecorder } from '../client/event-recorder.js';
import type { Client } from '../client/interfaces.js';
import { R } from '../client/resources.js';
import { rfc3339, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Pod } from './types.js';

/** Event notes are capped at 1024 bytes (apis/core/validation NoteLengthLimit); the condition keeps the full text. */
export const NOTE_LENGTH_LIMIT = 1024;

export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}

export type FailureReason = 'Unschedulable' | 'SchedulerError';

interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export interface FailureReporterOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  recorder: EventRecorder;
}

export class FailureReporter {
  constructor(private readonly opts: FailureReporterOptions) {}

  /** Records the event and, when it changed, patches the condition (and nominatedNodeName) onto pods/status. */
  report(pod: Pod, reason: FailureReason, message: string, nominatedNodeName?: string): Promise<void> {
    this.opts.recorder.event(pod, 'Warning', 'FailedScheduling', truncateMessage(message), 'Scheduling');
    return this.updateCondition(pod, reason, message, nominatedNodeName);
  }

  private async updateCondition(pod: Pod, reason: FailureReason, message: string, nominatedNodeName?: string): Promise<void> {
    const existing = (pod.status?.conditions ?? []) as PodCondition[];
    const old = existing.find((c) => c.type === 'PodScheduled');
    const nominatedChanged = nominatedNodeName !== undefined && nominatedNodeName !== (pod.status?.nominatedNodeName ?? '');
    // podutil.UpdatePodCondition: nothing to write when status, reason and message are unchanged.
    if (old && old.status === 'False' && old.reason === reason && old.message === message && !nominatedChanged) return;
    const cond: PodCondition = {
      type: 'PodScheduled', status: 'False', reason, message, lastProbeTime: null,
      lastTransitionTime: old?.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(this.opts.clock.now()),
    };
    // The whole list, ours replaced: correct under strategic merge (merge key "type") and under plain merge patch.
    const conditions = [...existing.filter((c) => c.type !== 'PodScheduled'), cond];
    const status: Record<string, unknown> = { conditions };
    if (nominatedChanged) status.nominatedNodeName = nominatedNodeName;
    try {
      await this.opts.client.patch(R.pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { status }, { subresource: 'status' });
    } catch (err) {
      this.opts.logger.warn('could not update pod condition', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: err instanceof Error ? err.message : String(err) });
    }
  }
}
