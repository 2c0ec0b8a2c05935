// The TTL-after-finished controller (pkg/controller/ttlafterfinished): deletes a finished Job (and, through the
// garbage collector, its pods) `ttlSecondsAfterFinished` after its Complete or Failed condition.

import { isNotFound } from '../../api/errors.js';
import { objectKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { timeMs } from '../util/pod.js';
import { findCondition, type JobObj } from '../job/controller.js';

export const NAME = 'ttl-after-finished-controller';

/** When the Job finished (the Complete or Failed condition's lastTransitionTime), or undefined. */
export function finishTime(job: JobObj): number | undefined {
  const c = findCondition(job, 'Complete') ?? findCondition(job, 'Failed');
  return c ? timeMs(c.lastTransitionTime) : undefined;
}

export class TTLAfterFinishedController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly jobInformer: Informer<JobObj>;

  constructor(opts: ControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.jobInformer = opts.informers.for<JobObj>(R.jobs);
    const enqueue = (j: JobObj) => { if (!j.metadata.deletionTimestamp && j.spec?.ttlSecondsAfterFinished != null && finishTime(j) !== undefined) this.queue.add(objectKey(j)); };
    this.jobInformer.addHandler({ add: enqueue, update: (_o, j) => enqueue(j) });
  }

  protected informersToSync() {
    return [this.jobInformer];
  }

  async reconcile(key: string): Promise<void> {
    const job = this.jobInformer.get(key);
    if (!job || job.metadata.deletionTimestamp) return;
    const ttl = job.spec?.ttlSecondsAfterFinished;
    const finished = finishTime(job);
    if (ttl == null || finished === undefined) return;
    const left = finished + ttl * 1000 - this.clock.now();
    if (left > 0) {
      this.queue.addAfter(key, left);
      return;
    }
    try {
      await this.client.delete(R.jobs, job.metadata.namespace, job.metadata.name!, {
        propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid, resourceVersion: job.metadata.resourceVersion },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
