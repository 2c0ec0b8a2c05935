// The aggregation layer kube-apiserver puts in front of its own handlers (staging/src/k8s.io/kube-aggregator):
// APIService objects decide which groups are served where. Local ones are the registry's; a service-backed one is
// proxied to its Service (or, for a group this process implements, served in-process behind the same checks); groups
// are ordered by APIService priority; the backends' OpenAPI is merged into the server's. It runs the autoregister
// and availability controllers beside it.

import type { Crd } from '../../api/crd/types.js';
import type { ApiService } from '../../api/validation/apiregistration.js';
import { Informer } from '../../client/informer.js';
import type { Client } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { CRDS } from '../crd/crd-controller.js';
import type { ClusterEgress } from '../egress/egress.js';
import type { AggregatedApi, AggregationSource } from '../interfaces.js';
import { AutoRegisterController } from './autoregister.js';
import { AvailableController } from './available-controller.js';
import { fetchBackendDiscovery } from './backend-discovery.js';
import type { V2Resource } from './discovery-convert.js';
import { GatedApi } from './gated-api.js';
import { AggregatedSpecs, fetchBackendSpecs } from './openapi.js';
import { sortedByGroupAndVersion } from './priorities.js';
import { authProxyHeaders, RemoteApi, requestBackend } from './remote-api.js';
import { APISERVICES } from './resources.js';
import { WithdrawnLocalApis } from './withdrawn.js';

/** A group/version this process answers itself for a service-backed APIService (see control-plane.ts for why). */
export interface InProcessBackend {
  namespace: string;
  name: string;
  api: AggregatedApi;
}

export interface AggregatorConfig {
  /** A privileged in-process client (APIService writes go through the API, as kube-aggregator's loopback client). */
  client: Client;
  egress: ClusterEgress;
  /** The API server's caches (read at request time: the API server is built after the aggregator). */
  lookup: () => AdmissionLookup;
  /** The group/versions this server serves itself, core as `''` (read at start). */
  builtin: () => { group: string; version: string }[];
  inProcess?: InProcessBackend[];
  clock: Clock;
  logger: Logger;
}

interface DiscoveryState { resources?: V2Resource[]; fresh: boolean }

const isAvailable = (s: ApiService) => s.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true;

export class Aggregator implements AggregationSource {
  private readonly apiServices: Informer<ApiService>;
  private readonly crds: Informer<Crd>;
  private readonly services: Informer;
  private readonly endpoints: Informer;
  private readonly autoregister: AutoRegisterController;
  private readonly available: AvailableController;
  private readonly discovery = new Map<string, DiscoveryState>();
  private current: AggregatedApi[] = [];
  private ranks = new Map<string, number>();
  /** The backends' OpenAPI, merged into the server's documents (openapi.ts withAggregatedOpenApi). */
  readonly openapi = new AggregatedSpecs();
  /** Built-in group/versions whose Local APIService was deleted: out of discovery until it is back. */
  readonly withdrawnApis = new WithdrawnLocalApis();

  constructor(private readonly cfg: AggregatorConfig) {
    const base = { client: cfg.client, clock: cfg.clock, logger: cfg.logger };
    this.apiServices = new Informer<ApiService>({ ...base, resource: APISERVICES });
    this.crds = new Informer<Crd>({ ...base, resource: CRDS });
    this.services = new Informer({ ...base, resource: R.services });
    this.endpoints = new Informer({ ...base, resource: R.endpoints });
    const rebuild = () => this.rebuild();
    this.apiServices.addHandler({
      add: (s) => { this.withdrawnApis.present(s); rebuild(); },
      update: (_o, s) => { this.withdrawnApis.present(s); rebuild(); },
      delete: (s) => { this.discovery.delete(s.metadata.name!); this.openapi.delete(s.metadata.name!); this.withdrawnApis.deleted(s); rebuild(); },
    });
    this.autoregister = new AutoRegisterController({
      client: cfg.client, apiServices: this.apiServices, crds: this.crds, builtin: cfg.builtin, clock: cfg.clock, logger: cfg.logger.child('autoregister'),
    });
    this.available = new AvailableController({
      client: cfg.client, apiServices: this.apiServices, services: this.services, endpoints: this.endpoints, lookup: cfg.lookup,
      clock: cfg.clock, logger: cfg.logger.child('available-controller'),
      probe: (svc, path) => this.probe(svc, path),
      discover: (svc) => this.discover(svc),
      // A failed fetch leaves the version empty and Stale: the proxy's 503 gives the discovery manager nothing to keep.
      onDiscovery: (name, resources) => {
        this.discovery.set(name, resources ? { resources, fresh: true } : { fresh: false });
        this.rebuild();
      },
    });
  }

  async start(): Promise<void> {
    for (const inf of [this.apiServices, this.crds, this.services, this.endpoints]) inf.start();
    await Promise.all([this.apiServices, this.crds, this.services, this.endpoints].map((i) => i.waitForSync()));
    await this.autoregister.start();
    this.available.start();
  }

  stop(): void {
    this.autoregister.stop();
    this.available.stop();
    for (const inf of [this.apiServices, this.crds, this.services, this.endpoints]) inf.stop();
  }

  apis(): readonly AggregatedApi[] {
    return this.current;
  }

  groupRank(group: string): number | undefined {
    return this.ranks.get(group);
  }

  withdrawn(): WithdrawnLocalApis | undefined {
    return this.withdrawnApis.size ? this.withdrawnApis : undefined;
  }

  /** Recomputes what is served from the APIServices, in discovery order. */
  private rebuild(): void {
    const groups = sortedByGroupAndVersion(this.apiServices.list());
    const ranks = new Map<string, number>();
    // "always add OUR api group to the list first ... It's good to be king" (handler_apis.go).
    ranks.set('apiregistration.k8s.io', Number.MAX_SAFE_INTEGER);
    const apis: AggregatedApi[] = [];
    groups.forEach((list, i) => {
      const group = list[0].spec?.group ?? '';
      if (!ranks.has(group)) ranks.set(group, groups.length - i);
      for (const svc of list) {
        if (!svc.spec?.service) continue;
        const name = svc.metadata.name!;
        const d = this.discovery.get(name);
        const ref = svc.spec.service;
        const local = this.cfg.inProcess?.find((b) => b.namespace === ref.namespace && b.name === ref.name && b.api.group === group && b.api.version === svc.spec?.version);
        if (local) apis.push(new GatedApi(local.api, isAvailable(svc) && d?.fresh === true));
        else apis.push(new RemoteApi({ service: svc, egress: this.cfg.egress }, isAvailable(svc), d?.resources, d?.fresh ? 'Current' : 'Stale'));
      }
    });
    this.ranks = ranks;
    this.current = apis;
  }

  private async probe(svc: ApiService, path: string): Promise<{ status: number }> {
    const ref = svc.spec?.service ?? {};
    const url = `https://${ref.name}.${ref.namespace}.svc:${ref.port ?? 443}${path}`;
    try {
      // "setting the system-masters identity ensures that we will always have access rights"
      const res = await requestBackend({ service: svc, egress: this.cfg.egress }, { lookup: this.cfg.lookup() }, {
        method: 'GET', path, timeoutMs: 5000, headers: authProxyHeaders({ name: 'system:kube-aggregator', groups: ['system:masters'] }),
      });
      return { status: res.status };
    } catch (err) {
      // http.Client.Do wraps transport failures in url.Error: `Get "<url>": <cause>`.
      throw new Error(`Get ${JSON.stringify(url)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async discover(svc: ApiService): Promise<V2Resource[]> {
    const ref = svc.spec?.service;
    const local = this.cfg.inProcess?.find((b) => b.namespace === ref?.namespace && b.name === ref?.name);
    // The in-process group's resources are its own; the backend pod answered the availability check above.
    if (local) return local.api.resources.map((r) => ({ resource: r.plural, scope: r.namespaced ? 'Namespaced' : 'Cluster', verbs: r.verbs }));
    const backend = { service: svc, egress: this.cfg.egress };
    const resources = await fetchBackendDiscovery(backend, this.cfg.lookup());
    // Its OpenAPI follows on every check of an Available backend (on changes and every resync), as kube-aggregator's
    // spec controllers refresh theirs; a failed download keeps the last specs.
    const name = svc.metadata.name!;
    fetchBackendSpecs(backend, this.cfg.lookup()).then((specs) => {
      if (this.apiServices.get(name)) this.openapi.set(name, specs);
    }, (err: unknown) => this.cfg.logger.info('failed to download the OpenAPI of APIService', { name, err: err instanceof Error ? err.message : String(err) }));
    return resources;
  }
}
