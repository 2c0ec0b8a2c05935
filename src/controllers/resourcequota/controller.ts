// The resourcequota controller (pkg/controller/resourcequota/resource_quota_controller.go): keeps each quota's
// status.hard equal to spec.hard and status.used equal to what its namespace really uses, recounted whenever the
// quota or a counted object changes. Admission (src/apiserver/admission/resource-quota.ts) enforces the limits
// on its own recount; this status is what `kubectl describe quota` shows.

import type { ResourceQuota } from 'kubernetes-types/core/v1.js';
import { isNotFound } from '../../api/errors.js';
import { splitKey, type KubeObject } from '../../api/types.js';
import { calculateUsage } from '../../apiserver/admission/quota-usage.js';
import { toRaw } from '../../apiserver/admission/resource-list.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { clone, type Typed } from '../util/types.js';

export const NAME = 'resourcequota-controller';

type QuotaObj = Typed<ResourceQuota>;
const core = (resource: string, kind: string): ResourceType => ({ group: '', version: 'v1', resource, kind, namespaced: true });
export const RESOURCE_QUOTAS = core('resourcequotas', 'ResourceQuota');
/**
 * Resources watched through informers; anything else a quota counts (count/<x>, claims) is listed on demand, and a
 * resource the server does not serve counts as zero. Only served resources may be watched: an informer on a missing
 * one would never sync and would hold up the controller manager's start.
 */
const WATCHED: ResourceType[] = [R.pods, R.services, R.configmaps, R.secrets];

export type ResourceQuotaControllerOptions = ControllerOptions;

export class ResourceQuotaController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly quotas: Informer<QuotaObj>;
  private readonly watched = new Map<string, Informer<KubeObject>>();

  constructor(opts: ResourceQuotaControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 1);
    this.client = opts.client;
    this.quotas = opts.informers.for<QuotaObj>(RESOURCE_QUOTAS);
    const enqueue = (q: QuotaObj) => this.queue.add(`${q.metadata.namespace}/${q.metadata.name}`);
    this.quotas.addHandler({ add: enqueue, update: (_o, q) => enqueue(q) });
    // Any change to a counted object may change the usage of every quota in its namespace.
    const touch = (obj: KubeObject) => { for (const q of this.quotas.list(obj.metadata.namespace)) enqueue(q); };
    for (const rt of WATCHED) {
      const inf = opts.informers.for<KubeObject>(rt);
      inf.addHandler({ add: touch, update: (_o, n) => touch(n), delete: touch });
      this.watched.set(`${rt.group}/${rt.resource}`, inf);
    }
  }

  protected informersToSync() {
    return [this.quotas, ...this.watched.values()];
  }

  private async list(group: string, resource: string, namespace: string): Promise<KubeObject[]> {
    const inf = this.watched.get(`${group}/${resource}`);
    if (inf) return inf.list(namespace);
    try {
      // Resource types the controller does not watch are listed live; the version is the group's preferred one in
      // practice for the built-in resources quotas count (apps/v1, batch/v1, ...).
      const rt: ResourceType = { group, version: 'v1', resource, kind: '', namespaced: true };
      return (await this.client.list(rt, namespace)).items;
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  }

  async reconcile(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const cached = this.quotas.get(key);
    if (!cached) return;
    const quota = clone(cached);
    // status.hard follows spec.hard before usage is counted against it.
    const hard = { ...(quota.spec?.hard ?? {}) };
    const used = toRaw(await calculateUsage({ ...quota, status: { hard } }, namespace, (g, r, ns) => this.list(g, r, ns)));
    const status = { hard, used };
    if (JSON.stringify(status) === JSON.stringify({ hard: quota.status?.hard ?? {}, used: quota.status?.used ?? {} })) return;
    try {
      await this.client.update<QuotaObj>(RESOURCE_QUOTAS, namespace, { ...quota, status }, { subresource: 'status' });
    } catch (err) {
      // Deleted meanwhile: nothing to report. Conflicts rethrow and retry with a fresh cache.
      if (!isNotFound(err)) throw err;
    }
    this.logger.debug('quota status updated', { quota: name, namespace, used });
  }
}
