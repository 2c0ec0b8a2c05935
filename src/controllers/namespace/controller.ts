// The namespace deletion controller (pkg/controller/namespace/deletion/namespaced_resources_deleter.go): once a
// namespace has a deletionTimestamp, delete everything in it, wait for it to be gone, then remove the `kubernetes`
// finalizer through the finalize subresource so the API server can drop the namespace.

import { isNotFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Informer } from '../../client/informer.js';
import { supportsVerbs, type Client, type ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { timeMs } from '../util/pod.js';
import type { NamespaceObj } from '../util/types.js';

export const NAME = 'namespace-controller';
export const FINALIZER = 'kubernetes';

/**
 * Namespaced types to empty, owners before what they own so controllers do not recreate pods mid-deletion
 * (kube relies on NamespaceLifecycle admission for that; ordering here makes it safe on any server).
 */
export const DEFAULT_DELETE_ORDER: ResourceType[] = [
  R.deployments, R.replicasets, R.services, R.endpointslices, R.endpoints, R.pods,
  R.configmaps, R.secrets, R.serviceaccounts, R.leases, R.events, R.eventsV1,
];

export interface NamespaceControllerOptions extends ControllerOptions {
  /** Which namespaced resources to empty; defaults to every namespaced type in R. */
  resources?: ResourceType[];
}

export class NamespaceController extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly resources: ResourceType[];
  /** Tests name the resources to empty; the default set also takes the CRDs' resources from the API. */
  private readonly resourcesGiven: boolean;
  private readonly namespaces: Informer<NamespaceObj>;

  constructor(opts: NamespaceControllerOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 2);
    this.client = opts.client;
    this.resources = opts.resources ?? defaultResources();
    this.resourcesGiven = opts.resources !== undefined;
    this.namespaces = opts.informers.for<NamespaceObj>(R.namespaces);
    const enqueue = (n: NamespaceObj) => { if (n.metadata.deletionTimestamp) this.queue.add(n.metadata.name!); };
    this.namespaces.addHandler({ add: enqueue, update: (_o, n) => enqueue(n) });
  }

  protected informersToSync() {
    return [this.namespaces];
  }

  async reconcile(name: string): Promise<void> {
    const ns = this.namespaces.get(name);
    if (!ns?.metadata.deletionTimestamp) return;
    if (!(ns.spec?.finalizers ?? []).includes(FINALIZER)) return;
    const remaining = await this.deleteAllContent(name);
    if (remaining !== undefined) {
      // Like kube: wait about half the longest remaining grace period, then look again (ResourcesRemainingError).
      this.queue.addAfter(name, (Math.floor(remaining / 2) + 1) * 1000);
      return;
    }
    await this.finalize(name);
  }

  /** Deletes what is left; returns the estimated seconds until it is gone, or undefined when nothing remains. */
  private async deleteAllContent(namespace: string): Promise<number | undefined> {
    let estimate: number | undefined;
    // Custom resources too: kube's deleter walks discovery, which lists every CRD's resource.
    const resources = [...this.resources, ...await this.customResources()];
    for (const rt of resources) {
      let items: KubeObject[];
      try {
        items = (await this.client.list(rt, namespace)).items;
      } catch (err) {
        if (isNotFound(err)) continue; // a type this server does not serve
        throw err;
      }
      for (const o of items) {
        if (!o.metadata.deletionTimestamp) {
          try {
            await this.client.delete(rt, namespace, o.metadata.name!, { propagationPolicy: 'Background' });
          } catch (err) {
            if (isNotFound(err)) continue;
            throw err;
          }
        }
        const left = Math.max(0, Math.ceil((timeMs(o.metadata.deletionTimestamp) - this.clock.now()) / 1000));
        estimate = Math.max(estimate ?? 0, o.metadata.deletionTimestamp ? left : 0);
      }
    }
    if (estimate === undefined) return undefined;
    // Deletes may have finished at once; only what still exists counts.
    for (const rt of resources) {
      try {
        if ((await this.client.list(rt, namespace)).items.length) return estimate;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return undefined;
  }

  /** The namespaced resources of the Established CRDs, at their storage version. */
  private async customResources(): Promise<ResourceType[]> {
    if (this.resourcesGiven) return [];
    let crds: KubeObject[];
    try {
      crds = (await this.client.list(R.customresourcedefinitions, undefined)).items;
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    return crds.flatMap((crd) => {
      const spec = crd.spec as { group?: string; scope?: string; names?: { plural?: string; kind?: string }; versions?: { name: string; storage?: boolean }[] } | undefined;
      const established = (crd.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      const version = spec?.versions?.find((v) => v.storage)?.name;
      if (!established || spec?.scope !== 'Namespaced' || !version || !spec.group || !spec.names?.plural || !spec.names.kind) return [];
      return [{ group: spec.group, version, resource: spec.names.plural, kind: spec.names.kind, namespaced: true }];
    });
  }

  private async finalize(name: string): Promise<void> {
    const latest = await this.client.get<NamespaceObj>(R.namespaces, undefined, name);
    const finalizers = (latest.spec?.finalizers ?? []).filter((f) => f !== FINALIZER);
    await this.client.update<NamespaceObj>(R.namespaces, undefined, { ...latest, spec: { ...latest.spec, finalizers } }, { subresource: 'finalize' });
  }
}

function defaultResources(): ResourceType[] {
  // Resources that cannot be deleted hold nothing to clean up (the namespace deleter asks discovery for `delete`).
  const rest = Object.values(R).filter((rt) => rt.namespaced && !DEFAULT_DELETE_ORDER.includes(rt) && supportsVerbs(rt, ['list', 'delete']));
  return [...DEFAULT_DELETE_ORDER, ...rest];
}
