// The Endpoints controller (pkg/controller/endpoint/endpoints_controller.go): one legacy Endpoints object per
// Service with a selector, listing ready and not-ready pod addresses by port.

import { isNotFound } from '../../api/errors.js';
import { objectKey, splitKey } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { mapSelectorMatches } from '../util/selector.js';
import { servicesForPodChange } from '../util/service-pods.js';
import { canonicalJson } from '../util/json.js';
import type { EndpointsObj, PodObj, ServiceObj } from '../util/types.js';
import { subsetsFor } from './subsets.js';

export const NAME = 'endpoints-controller';
/** Marks Endpoints of headless Services (v1.IsHeadlessService label). */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

export type EndpointsControllerOptions = ControllerOptions;

export class EndpointsController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly services: Informer<ServiceObj>;
  private readonly pods: Informer<PodObj>;
  private readonly endpoints: Informer<EndpointsObj>;

  constructor(opts: EndpointsControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    this.services = opts.informers.for<ServiceObj>(R.services);
    this.pods = opts.informers.for<PodObj>(R.pods);
    this.endpoints = opts.informers.for<EndpointsObj>(R.endpoints);
    const enqueue = (o: { metadata: { name?: string; namespace?: string } }) => this.queue.add(objectKey(o as ServiceObj));
    this.services.addHandler({ add: enqueue, update: (_o, s) => enqueue(s), delete: enqueue });
    this.pods.addHandler({
      add: (p) => this.enqueueAll(servicesForPodChange(this.services, undefined, p)),
      update: (o, p) => this.enqueueAll(servicesForPodChange(this.services, o, p)),
      delete: (p) => this.enqueueAll(servicesForPodChange(this.services, undefined, p)),
    });
    // Someone deleted our Endpoints: put it back if the Service still wants one.
    this.endpoints.addHandler({ delete: enqueue });
  }

  protected informersToSync() {
    return [this.services, this.pods, this.endpoints];
  }

  private enqueueAll(keys: string[]): void {
    for (const k of keys) this.queue.add(k);
  }

  async reconcile(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const svc = this.services.get(key);
    if (!svc) {
      // The Service is gone; its Endpoints go with it (they carry no owner reference for the GC).
      if (this.endpoints.get(key)) {
        await this.client.delete(R.endpoints, namespace, name).catch((err: unknown) => { if (!isNotFound(err)) throw err; });
      }
      return;
    }
    // The `kubernetes` Service in default is kept by the API server; ExternalName Services have no endpoints.
    if (!svc.spec?.selector || svc.spec.type === 'ExternalName') return;
    if (namespace === 'default' && name === 'kubernetes') return;

    const selector = svc.spec.selector;
    const pods = this.pods.list(namespace).filter((p) => mapSelectorMatches(selector, p.metadata.labels));
    const subsets = subsetsFor(svc, pods);
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}) };
    if (svc.spec.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
    else delete labels[HEADLESS_LABEL];

    const current = this.endpoints.get(key);
    if (current && canonicalJson(current.subsets ?? []) === canonicalJson(subsets) && canonicalJson(current.metadata.labels ?? {}) === canonicalJson(labels)) return;
    const body: EndpointsObj = {
      apiVersion: 'v1', kind: 'Endpoints',
      metadata: current ? { ...structuredClone(current.metadata), labels } : { name, namespace, labels },
      subsets,
    };
    if (current) {
      await this.client.update(R.endpoints, namespace, body);
      return;
    }
    // AlreadyExists means the cache is behind; the throw retries once it has caught up.
    await this.client.create(R.endpoints, namespace, body);
  }
}
