// The ConfigMap kube-apiserver keeps to say since when it tracks legacy token use
// (pkg/controlplane/controller/legacytokentracking/controller.go): kube-system/
// kube-apiserver-legacy-service-account-token-tracking with `since: <YYYY-MM-DD>` (the UTC date it was created),
// created when missing and its date rewritten when unreadable. A controller watches it, so a deleted ConfigMap comes
// back with a new date, at most one creation per 30 minutes. The legacy token cleaner waits until tracking has run
// for its whole clean-up period.

import { isAlreadyExists, isConflict, isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { runWorkers, WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';

export const TRACKING_CONFIGMAP = 'kube-apiserver-legacy-service-account-token-tracking';
export const TRACKING_SINCE_KEY = 'since';

/** Go's "2006-01-02" layout in UTC. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** time.Parse("2006-01-02", s): the midnight UTC it names, or undefined when it is not such a date. */
export function parseDate(s: string | undefined): number | undefined {
  if (!s || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return undefined;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return Number.isNaN(ms) || utcDate(ms) !== s ? undefined : ms;
}

type ConfigMap = KubeObject & { data?: Record<string, string> };

/** Creates the ConfigMap with today's date; false when another API server was first. */
async function createTracking(client: Client, now: number): Promise<boolean> {
  try {
    await client.create<ConfigMap>(R.configmaps, 'kube-system', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: TRACKING_CONFIGMAP, namespace: 'kube-system' }, data: { [TRACKING_SINCE_KEY]: utcDate(now) } });
    return true;
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
    return false;
  }
}

/** Rewrites a `since` that is no "2006-01-02" date; a ConfigMap changed or gone meanwhile is left to the next sync. */
async function repairTracking(client: Client, cm: ConfigMap, now: number): Promise<void> {
  if (parseDate(cm.data?.[TRACKING_SINCE_KEY]) !== undefined) return;
  try {
    await client.update(R.configmaps, 'kube-system', { ...cm, data: { ...cm.data, [TRACKING_SINCE_KEY]: utcDate(now) } });
  } catch (err) {
    if (!isNotFound(err) && !isConflict(err)) throw err;
  }
}

/** The controller's creation limit: rate.NewLimiter(rate.Every(30*time.Minute), 1). */
export const CREATION_INTERVAL_MS = 30 * 60_000;

export interface LegacyTokenTrackingOptions {
  client: Client;
  clock: Clock;
  logger: Logger;
  /** How often the ConfigMap may be created (30 minutes). */
  creationIntervalMs?: number;
}

/**
 * legacytokentracking.Controller: an informer on the one ConfigMap; every change or deletion syncs it. A missing
 * ConfigMap is created unless one was created less than the creation interval ago, in which case the sync waits
 * until the interval has passed (the limiter keeps API servers that disagree from fighting over it).
 */
export class LegacyTokenTrackingController {
  private readonly informer: Informer<ConfigMap>;
  private readonly queue: WorkQueue;
  private readonly interval: number;
  /** When the limiter has a token again (one token at most: burst 1). */
  private tokenAt = -Infinity;

  constructor(private readonly opts: LegacyTokenTrackingOptions) {
    this.interval = opts.creationIntervalMs ?? CREATION_INTERVAL_MS;
    this.informer = new Informer<ConfigMap>({
      client: opts.client, resource: R.configmaps, clock: opts.clock, logger: opts.logger, namespace: 'kube-system',
      fieldSelector: `metadata.name=${TRACKING_CONFIGMAP}`,
    });
    this.queue = new WorkQueue({ clock: opts.clock });
  }

  async start(): Promise<void> {
    const enqueue = () => this.queue.add(KEY);
    this.informer.addHandler({ add: enqueue, update: enqueue, delete: enqueue });
    this.informer.start();
    await this.informer.waitForSync();
    // The first sync before the API server reports itself started, so the ConfigMap is there from the start.
    await this.sync();
    void runWorkers(this.queue, 1, () => this.sync(), this.opts.logger);
  }

  stop(): void {
    this.queue.shutDown();
    this.informer.stop();
  }

  /** syncConfigMap. */
  async sync(): Promise<void> {
    const cm = this.informer.get(KEY);
    const now = this.opts.clock.now();
    if (cm) return repairTracking(this.opts.client, cm, now);
    if (now < this.tokenAt) {
      this.queue.addAfter(KEY, this.tokenAt - now);
      return;
    }
    const previous = this.tokenAt;
    this.tokenAt = now + this.interval;
    try {
      await createTracking(this.opts.client, now);
    } catch (err) {
      // An attempt that failed does not use up the limiter.
      this.tokenAt = previous;
      throw err;
    }
  }
}

const KEY = `kube-system/${TRACKING_CONFIGMAP}`;
