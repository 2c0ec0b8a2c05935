// PrioritySort: higher priority first, then whoever entered the queue earlier (plugins/queuesort/priority_sort.go).

import type { QueueSortPlugin, QueuedPod } from '../../interfaces.js';
import { podPriority } from '../../types.js';

export const NAME = 'PrioritySort';

export class PrioritySort implements QueueSortPlugin {
  readonly name = NAME;
  less(a: QueuedPod, b: QueuedPod): boolean {
    const pa = podPriority(a.pod), pb = podPriority(b.pod);
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}

export const create = (): PrioritySort => new PrioritySort();
