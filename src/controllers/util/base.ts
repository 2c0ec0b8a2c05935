// The controller skeleton every controller here shares (client-go sample-controller): handlers enqueue keys,
// workers run reconcile(key), a throw re-queues the key with the work queue's backoff.

import type { InformerFactory } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { runWorkers, WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { EventRecorder } from './events.js';

/** What every controller is built from: the API client, the shared informers, the clock and a logger. */
export interface ControllerOptions {
  client: Client;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  /** Concurrent reconcile loops. */
  workers?: number;
}

/** For controllers that record events. */
export interface RecordingControllerOptions extends ControllerOptions {
  recorder: EventRecorder;
}

export interface Controller {
  readonly name: string;
  start(): Promise<void>;
  stop(): void;
}

export abstract class QueueController implements Controller {
  abstract readonly name: string;
  readonly queue: WorkQueue;
  private running?: Promise<unknown>;

  protected constructor(
    protected readonly clock: Clock,
    protected readonly logger: Logger,
    private readonly workers: number,
    /** Retry delays; client-go's controller defaults (5 ms, capped here at 60 s) unless the controller's library differs. */
    backoff: { baseDelayMs: number; maxDelayMs: number } = { baseDelayMs: 5, maxDelayMs: 60_000 },
  ) {
    this.queue = new WorkQueue({ clock, ...backoff });
  }

  /** The informers whose caches must be filled before the first reconcile. */
  protected abstract informersToSync(): { waitForSync(): Promise<void> }[];

  /** Brings the world in line with the object named by `key`; throw to retry later. */
  abstract reconcile(key: string): Promise<void>;

  async start(): Promise<void> {
    if (this.running) return;
    await Promise.all(this.informersToSync().map((i) => i.waitForSync()));
    this.logger.debug('starting controller', { controller: this.name, workers: this.workers });
    this.running = runWorkers(this.queue, this.workers, (k) => this.reconcile(k), this.logger);
  }

  stop(): void {
    this.queue.shutDown();
  }
}
