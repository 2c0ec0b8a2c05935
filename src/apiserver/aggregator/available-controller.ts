// The availability controllers (kube-aggregator pkg/controllers/status/local and remote): Local APIServices are
// Available with reason Local; a service-backed one is checked on every change of it, its Service or its Endpoints,
// and again every 30 s, and its backend's discovery is fetched while it is Available.

import { isConflict, isNotFound } from '../../api/errors.js';
import type { ApiService, ApiServiceCondition } from '../../api/validation/apiregistration.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { runWorkers, WorkQueue } from '../../client/workqueue.js';
import { rfc3339, type Clock } from '../../util/clock.js';
import { jsonEqual } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { checkAvailability, type AvailableCondition, type DiscoveryProbe } from './availability.js';
import type { V2Resource } from './discovery-convert.js';
import { APISERVICES } from './resources.js';

/** The remote controller's resync ("low cardinality", so rechecking every APIService often is cheap). */
export const RESYNC_MS = 30_000;

export interface AvailableControllerConfig {
  client: Client;
  apiServices: Informer<ApiService>;
  services: Informer;
  endpoints: Informer;
  lookup: () => AdmissionLookup;
  probe: DiscoveryProbe;
  /** Fetches the backend's discovery of an Available APIService (throws when it cannot). */
  discover(svc: ApiService): Promise<V2Resource[]>;
  /** Where fetched discovery goes: resources, or undefined to mark the version Stale. */
  onDiscovery(name: string, resources: V2Resource[] | undefined): void;
  clock: Clock;
  logger: Logger;
}

/** SetAPIServiceCondition: a changed status gets a new transition time; otherwise only reason and message change. */
export function setCondition(svc: ApiService, c: AvailableCondition, now: number): void {
  const conditions: ApiServiceCondition[] = svc.status?.conditions ?? [];
  const old = conditions.find((x) => x.type === c.type);
  const next: ApiServiceCondition = { type: c.type, status: c.status, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : rfc3339(now), reason: c.reason, message: c.message };
  svc.status = { ...svc.status, conditions: old ? conditions.map((x) => (x === old ? next : x)) : [...conditions, next] };
}

export class AvailableController {
  private readonly queue: WorkQueue;

  constructor(private readonly cfg: AvailableControllerConfig) {
    this.queue = new WorkQueue({ clock: cfg.clock, baseDelayMs: 5, maxDelayMs: 30_000 });
    const byName = (s: ApiService) => this.queue.add(s.metadata.name!);
    cfg.apiServices.addHandler({ add: byName, update: (_o, s) => byName(s), delete: byName });
    const byService = (o: KubeObject) => {
      for (const s of cfg.apiServices.list()) {
        const ref = s.spec?.service;
        if (ref && ref.namespace === o.metadata.namespace && ref.name === o.metadata.name) this.queue.add(s.metadata.name!);
      }
    };
    for (const inf of [cfg.services, cfg.endpoints]) inf.addHandler({ add: byService, update: (_o, n) => byService(n), delete: byService });
  }

  start(): void {
    void runWorkers(this.queue, 5, (name) => this.sync(name), this.cfg.logger);
  }

  stop(): void {
    this.queue.shutDown();
  }

  async sync(name: string): Promise<void> {
    const cur = this.cfg.apiServices.get(name);
    if (!cur) return;
    const next = structuredClone(cur);
    const cond = await checkAvailability(cur, this.cfg.lookup(), this.cfg.probe);
    setCondition(next, cond, this.cfg.clock.now());
    if (cur.spec?.service) {
      this.queue.addAfter(name, RESYNC_MS);
      // Discovery goes through the proxy, which answers 503 while the APIService is not Available.
      if (cond.status === 'True') {
        this.cfg.discover(next).then((r) => this.cfg.onDiscovery(name, r), (err: unknown) => {
          this.cfg.logger.info('discovery of APIService failed', { name, err: err instanceof Error ? err.message : String(err) });
          this.cfg.onDiscovery(name, undefined);
        });
      } else {
        this.cfg.onDiscovery(name, undefined);
      }
    }
    if (!jsonEqual(next.status, cur.status)) {
      await this.cfg.client.update(APISERVICES, undefined, next, { subresource: 'status' }).catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      });
    }
    // "force a requeue to make it very obvious that this will be retried" (with the queue's backoff).
    if (cond.reason === 'FailedDiscoveryCheck') throw new Error(cond.message);
  }
}
