// The API server core: routes a request to discovery, OpenAPI, a resource handler or an aggregated API, runs
// admission and the registry store, and renders JSON or Tables. Transport-free: HTTP and in-process callers share it.

import type { CustomRest } from './custom-rest.js';
import { StatusError, isStatusError } from '../api/errors.js';
import type { ResourceDecl } from '../api/interfaces.js';
import { OPENAPI_V2_PROTOBUF_CONTENT_TYPE, wantsV2Protobuf } from '../api/openapi/index.js';
import { Registry, resourcePrefix } from '../api/registry.js';
import type { KubeObject } from '../api/types.js';
import type { ApiResponse } from '../client/interfaces.js';
import type { Store } from '../storage/interfaces.js';
import { WatchCache } from '../storage/watch-cache.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { AdmissionChain, type AdmissionLookup, type UserInfo } from './admission/interfaces.js';
import { forbiddenReason, type Authorizer } from './authz/interfaces.js';
import { impersonate } from './authz/impersonation.js';
import { authorizeNonResource } from './authz/non-resource.js';
import { aggregatedDiscovery, aggregatedResourceList, apiGroup, apiGroupList, apiResourceList, apiVersions, DISCOVERY_CONTENT_TYPES } from './discovery.js';
import { fetchKubelet, isKubeletProxy, kubeletErrorStatus, type KubeletClientTls, type KubeletTarget } from './kubelet-proxy.js';
import { isStreamedResponse, type WatchResponse } from './interfaces.js';
import { settleStreamed } from './aggregator/stream-relay.js';
import { withoutWithdrawnDiscovery, withoutWithdrawnGroups } from './aggregator/withdrawn.js';
import type { AggregatedApi, AggregationSource, OpenApiProvider, Patcher, ServerRequest, ServerResponse, StorageHook } from './interfaces.js';
import { chooseDiscovery, chooseRendering } from './negotiate.js';
import { ProcessMetrics } from './process-metrics.js';
import { parseRequestInfo, type RequestInfo } from './request-info.js';
import { ResourceHandler } from './resource-handler.js';
import { storeErrorStatus } from './store-errors.js';
import { ResourceStore } from './resource-store.js';
import { versionInfo } from './version.js';
import type { TokenIssuerConfig } from './token-request.js';
import type { OidcDiscovery } from './authn/oidc-discovery.js';
import { FlowControl, type FlowControlOptions } from './flowcontrol/filter.js';
import { APF_FIELD_MANAGER, FlowControlSource } from './flowcontrol/source.js';

export interface ApiServerConfig {
  registry: Registry;
  store: Store;
  clock: Clock;
  logger: Logger;
  patcher: Patcher;
  admission?: AdmissionChain;
  /** Decides who may do what; AlwaysAllow when absent. */
  authorizer?: Authorizer;
  openapi?: OpenApiProvider;
  /** The API server's client certificate towards kubelets (logs, exec, attach, port-forward, node proxy). */
  kubeletClient?: KubeletClientTls;
  /** Per-resource storage work keyed `<plural>` or `<group>/<plural>` (e.g. Service IP allocation). */
  storageHooks?: Record<string, StorageHook>;
  /** Resources answered by their own REST code instead of storage, keyed like storageHooks (componentstatuses). */
  customRest?: Record<string, CustomRest>;
  /** host:port clients reach this server on (discovery's serverAddressByClientCIDRs). */
  serverAddress?: string;
  /** Events each watch cache keeps for watches that resume from a resourceVersion (default 10,000). */
  watchCacheSize?: number;
  /** Largest accepted request body (kube-apiserver: 3 MiB). */
  maxBodyBytes?: number;
  /** API groups served beside the registry in-process, e.g. authentication.k8s.io's reviews. */
  aggregated?: AggregatedApi[];
  /** The aggregation layer: APIService-backed groups (proxied or gated in-process) and the discovery order. */
  aggregation?: AggregationSource;
  /** Mints ServiceAccount tokens (serviceaccounts/token); the subresource answers 404 without it. */
  serviceAccountTokens?: TokenIssuerConfig;
  /** The service-account issuer discovery documents (/.well-known/openid-configuration, /openid/v1/jwks). */
  oidcDiscovery?: OidcDiscovery;
  /** API Priority and Fairness (on by default, as --enable-priority-and-fairness); false turns it off. */
  flowControl?: FlowControlOptions | false;
}

export const JSON_TYPE = 'application/json';
const SYSTEM_USER: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

export class ApiServer {
  readonly registry: Registry;
  readonly stores = new Map<ResourceDecl, ResourceStore>();
  /** `<group>/<plural>` → the store of its first declared version (admission looks objects up on every write). */
  private readonly storesByResource = new Map<string, ResourceStore>();
  /** Watch caches by storage prefix, with how many decls read each (resources stored as another share one). */
  private readonly caches = new Map<string, { cache: WatchCache; users: number }>();
  private readonly handler: ResourceHandler;
  private readonly staticAggregated: AggregatedApi[];
  readonly lookup: AdmissionLookup;
  /** The process's event loop delay, memory and CPU, served at /metrics. */
  private readonly processMetrics = new ProcessMetrics();
  /** Classifies, queues and limits requests (src/apiserver/flowcontrol). */
  readonly flowControl?: FlowControl;
  private flowControlSource?: FlowControlSource;
  serverAddress: string;

  constructor(readonly cfg: ApiServerConfig) {
    this.registry = cfg.registry;
    this.serverAddress = cfg.serverAddress ?? '127.0.0.1:6443';
    for (const decl of this.registry.decls) this.attach(decl);
    this.lookup = {
      get: (group, resource, namespace, name) => {
        const rs = this.storeFor(group, resource);
        const kv = rs?.cache.get(rs.key(namespace, name));
        return kv && rs ? rs.decode(kv) : undefined;
      },
      getLive: async (group, resource, namespace, name) => {
        const rs = this.storeFor(group, resource);
        const kv = rs && (await this.cfg.store.get(rs.key(namespace, name)));
        return kv && rs ? rs.decode(kv) : undefined;
      },
      list: (group, resource, namespace) => {
        const rs = this.storeFor(group, resource);
        if (!rs) return [];
        const prefix = namespace && rs.decl.namespaced ? `${rs.prefix}${namespace}/` : rs.prefix;
        return rs.cache.list(prefix).map((kv) => rs.decode(kv));
      },
    };
    this.handler = new ResourceHandler(this, cfg);
    this.staticAggregated = cfg.aggregated ?? [];
    if (cfg.flowControl !== false) {
      // Lists are charged by the objects stored for their resource: the watch cache's size.
      const objectCount = (group: string, resource: string) => this.storeFor(group, resource)?.cache.size();
      this.flowControl = new FlowControl({ objectCount, ...cfg.flowControl });
    }
  }

  /** The APIs beside the registry now: in-process ones, then what the aggregation layer's APIServices serve. */
  private get aggregated(): readonly AggregatedApi[] {
    const layer = this.cfg.aggregation?.apis();
    return layer?.length ? [...this.staticAggregated, ...layer] : this.staticAggregated;
  }

  private readonly rank = (group: string): number | undefined => this.cfg.aggregation?.groupRank(group);

  /** A store (and, for a new storage prefix, a watch cache) for one decl; returns the cache it created, if any. */
  private attach(decl: ResourceDecl): WatchCache | undefined {
    // Resources stored as another one share its keys and its watch cache.
    const prefix = resourcePrefix(decl.storedAs ?? decl);
    let entry = this.caches.get(prefix);
    let created: WatchCache | undefined;
    if (!entry) {
      const cfg = this.cfg;
      created = new WatchCache({ store: cfg.store, prefix, window: cfg.watchCacheSize, clock: cfg.clock, logger: cfg.logger.child('watch-cache') });
      this.caches.set(prefix, (entry = { cache: created, users: 0 }));
    }
    entry.users++;
    const rs = new ResourceStore(decl, this.cfg.store, entry.cache, this.cfg.clock);
    this.stores.set(decl, rs);
    const byResource = `${decl.group}/${decl.plural}`;
    if (!this.storesByResource.has(byResource)) this.storesByResource.set(byResource, rs);
    return created;
  }

  /**
   * Serves more resources from now on (custom resources; later aggregated APIs): stores and filled watch caches
   * first, then the registry, so routing, discovery and OpenAPI never name a resource that cannot answer yet.
   */
  async addResources(decls: readonly ResourceDecl[]): Promise<void> {
    const fresh = decls.map((d) => this.attach(d)).filter((c): c is WatchCache => c !== undefined);
    try {
      await Promise.all(fresh.map((c) => c.start()));
      this.registry.add(decls);
    } catch (err) {
      this.detach(decls);
      throw err;
    }
  }

  /** Stops serving these resources: out of the registry first, then their stores and unused watch caches. */
  removeResources(decls: readonly ResourceDecl[]): void {
    this.registry.remove(decls);
    this.detach(decls);
  }

  private detach(decls: readonly ResourceDecl[]): void {
    for (const decl of decls) {
      const rs = this.stores.get(decl);
      if (!rs) continue;
      this.stores.delete(decl);
      const byResource = `${decl.group}/${decl.plural}`;
      if (this.storesByResource.get(byResource) === rs) {
        this.storesByResource.delete(byResource);
        for (const [d, other] of this.stores) if (`${d.group}/${d.plural}` === byResource) { this.storesByResource.set(byResource, other); break; }
      }
      const prefix = resourcePrefix(decl.storedAs ?? decl);
      const entry = this.caches.get(prefix);
      if (entry && --entry.users === 0) {
        entry.cache.stop();
        this.caches.delete(prefix);
      }
    }
  }

  /** Fills the watch caches from the store. */
  async start(): Promise<void> {
    this.processMetrics.start();
    await Promise.all([...this.caches.values()].map((c) => c.cache.start()));
    if (this.flowControl) this.startFlowControl(this.flowControl);
  }

  /** Feeds APF from the FlowSchema and PriorityLevelConfiguration caches; it writes schemas' Dangling status itself. */
  private startFlowControl(fc: FlowControl): void {
    const group = 'flowcontrol.apiserver.k8s.io';
    this.flowControlSource = new FlowControlSource({
      flowControl: fc,
      flowSchemas: this.storeFor(group, 'flowschemas'),
      priorityLevels: this.storeFor(group, 'prioritylevelconfigurations'),
      writeConditions: async (name, conditions) => {
        const res = await this.handle({
          method: 'PATCH', path: `/apis/${group}/v1/flowschemas/${name}/status`, query: { fieldManager: APF_FIELD_MANAGER },
          contentType: 'application/merge-patch+json', body: { status: { conditions } }, user: SYSTEM_USER,
        });
        if (res.status >= 300) throw new Error(`status ${res.status}`);
      },
      now: () => new Date(this.cfg.clock.now()),
      logger: this.cfg.logger.child('flowcontrol'),
    });
    this.flowControlSource.start();
    fc.start();
  }

  stop(): void {
    this.processMetrics.stop();
    this.flowControlSource?.stop();
    this.flowControl?.stop();
    for (const c of this.caches.values()) c.cache.stop();
  }

  storeFor(group: string, resource: string): ResourceStore | undefined {
    return this.storesByResource.get(`${group}/${resource}`);
  }

  /**
   * Handles one request; never throws: errors become Status responses. Kubelet answers (logs, node proxy) are read
   * whole, for callers without streams (the in-process transport); the HTTP front end uses handleRequest.
   */
  async handle(req: ServerRequest): Promise<ApiResponse | WatchResponse> {
    const res = await this.handleRequest(req);
    // An aggregated API's long-running answer: a watch as events, anything else read whole.
    if (isStreamedResponse(res)) return settleStreamed(res).catch((err: unknown) => errorResponse(err, this.cfg.logger));
    if (!isKubeletProxy(res)) return res;
    try {
      return await this.readKubelet(res.kubelet);
    } catch (err) {
      return errorResponse(err, this.cfg.logger);
    }
  }

  /** Handles one request; kubelet-bound requests come back as the target for the caller to proxy. */
  async handleRequest(req: ServerRequest): Promise<ServerResponse> {
    try {
      return await this.route(req);
    } catch (err) {
      return errorResponse(err, this.cfg.logger);
    }
  }

  private async readKubelet(t: KubeletTarget): Promise<ApiResponse> {
    if (!this.cfg.kubeletClient) throw StatusError.serviceUnavailable('the API server has no kubelet client credentials');
    const res = await fetchKubelet(t, this.cfg.kubeletClient);
    if (res.status >= 300 && t.statusFromBody) throw kubeletErrorStatus(res.status, res.body.toString());
    return { status: res.status, body: res.body, contentType: res.contentType };
  }

  private async route(req: ServerRequest): Promise<ServerResponse> {
    // Impersonation runs after authentication and before everything else (filters/impersonation.go).
    if (req.impersonate && this.cfg.authorizer) {
      req = { ...req, user: await impersonate(req.user ?? SYSTEM_USER, req.impersonate, this.cfg.authorizer, req.path) };
    }
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const watchParam = isTrue(first(req.query?.watch));
    const info = parseRequestInfo(req.method, path, watchParam);
    // API Priority and Fairness comes after authentication and impersonation and before authorization
    // (server/config.go DefaultBuildHandlerChain), so refusals carry its headers too.
    const fc = this.flowControl;
    if (!fc) return this.dispatch(req, path, info);
    return fc.serve(info, req.method, req.user ?? SYSTEM_USER, req.query,
      () => this.dispatch(req, path, info).catch((err: unknown) => errorResponse(err, this.cfg.logger)), req.signal);
  }

  private async dispatch(req: ServerRequest, path: string, info: RequestInfo): Promise<ServerResponse> {
    const aggregated = info.apiPrefix === 'apis' ? this.aggregatedApi(info.group, info.version) : undefined;
    if (info.isResourceRequest && aggregated) return this.serveAggregated(aggregated, req, info);
    if (info.isResourceRequest) return this.handler.handle(req, info, req.user ?? SYSTEM_USER);
    if (this.cfg.authorizer) await authorizeNonResource(this.cfg.authorizer, req.user ?? SYSTEM_USER, req.method, req.path);
    // An extension server answers its own group/version discovery (kube-aggregator proxies /apis/<g>/<v>).
    if (aggregated?.proxiesDiscovery && path === `/apis/${info.group}/${info.version}`) {
      return aggregated.handle({ ...req, user: req.user ?? SYSTEM_USER }, info, { lookup: this.lookup, kubeletClient: this.cfg.kubeletClient });
    }
    if (req.method !== 'GET') throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    return this.nonResource(req, path, info);
  }

  private nonResource(req: ServerRequest, path: string, info: RequestInfo): ServerResponse {
    switch (path) {
      case '/version':
        return json(200, versionInfo());
      case '/metrics':
        return { status: 200, body: this.processMetrics.render() + (this.flowControl?.metrics() ?? ''), contentType: 'text/plain; version=0.0.4; charset=utf-8' };
      case '/healthz': case '/livez': case '/readyz':
        return { status: 200, body: 'ok', contentType: 'text/plain; charset=utf-8' };
      case '/api': case '/apis':
        return this.discoveryRoot(req, path === '/api');
      case '/openapi/v2':
        return this.openapiV2(req);
      case '/.well-known/openid-configuration': case '/openid/v1/jwks':
        if (!this.cfg.oidcDiscovery) break;
        return this.cfg.oidcDiscovery.serve(path, this.serverAddress);
      case '/openapi/v3':
        if (!this.cfg.openapi) break;
        return json(200, this.cfg.openapi.v3Discovery());
    }
    if (path.startsWith('/openapi/v3/') && this.cfg.openapi) {
      // Keys are as in the discovery document: api/v1, apis/<group>/<version>.
      const doc = this.cfg.openapi.v3(path.slice('/openapi/v3/'.length));
      if (doc) return json(200, doc);
    }
    if (info.apiPrefix === 'api' && info.version) {
      if (info.version === 'v1') return json(200, apiResourceList(this.registry, '', 'v1'));
    }
    if (info.apiPrefix === 'apis') {
      const segs = path.split('/').filter(Boolean);
      if (segs.length === 2) {
        const g = apiGroup(this.registry, this.aggregated, segs[1]);
        const w = this.cfg.aggregation?.withdrawn?.();
        if (g) return json(200, w ? withoutWithdrawnGroups(g, w, true) : g);
      } else if (segs.length === 3 && this.registry.hasGroupVersion(segs[1], segs[2])) {
        return json(200, apiResourceList(this.registry, segs[1], segs[2]));
      } else if (segs.length === 3 && this.aggregatedApi(segs[1], segs[2])) {
        return json(200, aggregatedResourceList(this.aggregatedApi(segs[1], segs[2])!));
      }
    }
    throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  }

  private discoveryRoot(req: ServerRequest, core: boolean): ServerResponse {
    const form = chooseDiscovery(req.accept);
    // Built-in group/versions whose Local APIService was deleted are not listed (aggregator/withdrawn.ts).
    const w = core ? undefined : this.cfg.aggregation?.withdrawn?.();
    if (form === 'v2' || form === 'v2beta1') {
      const doc = aggregatedDiscovery(this.registry, core, form, this.aggregated, this.rank);
      return { status: 200, body: w ? withoutWithdrawnDiscovery(doc, w) : doc, contentType: DISCOVERY_CONTENT_TYPES[form] };
    }
    if (!form) throw StatusError.notAcceptable('only the following media types are accepted: application/json, application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    // kubectl 1.27.0/1.27.1 compare this content type as an exact string: no charset.
    if (w) return json(200, withoutWithdrawnGroups(apiGroupList(this.registry, this.aggregated, this.rank), w));
    return json(200, core ? apiVersions(this.serverAddress) : apiGroupList(this.registry, this.aggregated, this.rank));
  }

  private aggregatedApi(group: string, version: string): AggregatedApi | undefined {
    return this.aggregated.find((a) => a.group === group && a.version === version);
  }

  /** kube-apiserver authorises a request for an APIService's group itself, then the aggregator hands it over. */
  private async serveAggregated(api: AggregatedApi, req: ServerRequest, info: RequestInfo): Promise<ServerResponse> {
    if (this.cfg.authorizer) {
      const attrs = {
        user: req.user ?? SYSTEM_USER, verb: info.verb, isResourceRequest: true, group: info.group, resource: info.resource,
        subresource: info.subresource, namespace: info.namespace, name: info.name, path: info.path,
      };
      const res = await this.cfg.authorizer.authorize(attrs);
      if (res.decision !== 'Allow') throw StatusError.forbidden(info.group, info.resource, info.name, forbiddenReason(attrs, res.reason));
    }
    return api.handle(req, info, { lookup: this.lookup, kubeletClient: this.cfg.kubeletClient });
  }

  private openapiV2(req: ServerRequest): ServerResponse {
    if (!this.cfg.openapi) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
    if (wantsV2Protobuf(req.accept)) {
      return { status: 200, body: this.cfg.openapi.v2Protobuf(), contentType: OPENAPI_V2_PROTOBUF_CONTENT_TYPE };
    }
    return json(200, this.cfg.openapi.v2Json());
  }

  /** Plain JSON rendering is always acceptable for Status errors; other bodies follow the Accept header. */
  static acceptsResource(accept: string | undefined): boolean {
    return chooseRendering(accept) !== undefined;
  }
}

export function json(status: number, body: unknown, headers?: Record<string, string>): ApiResponse {
  return { status, body, contentType: JSON_TYPE, headers };
}

export function errorResponse(cause: unknown, logger: Logger): ApiResponse {
  const err = storeErrorStatus(cause) ?? cause;
  if (isStatusError(err)) {
    const status = err.toStatus();
    // A Status that names a retry delay also says it in the Retry-After header, which clients' backoff reads
    // (apiserver responsewriters.ErrorNegotiated).
    const retryAfter = status.details?.retryAfterSeconds;
    return json(err.code, status, retryAfter && retryAfter > 0 ? { 'Retry-After': String(Math.trunc(retryAfter)) } : undefined);
  }
  logger.error('internal error', { err: err instanceof Error ? err.stack ?? err.message : String(err) });
  const e = StatusError.internal(err instanceof Error ? err.message : String(err));
  return json(e.code, e.toStatus());
}

export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Query booleans parse like Go's strconv.ParseBool (the Python client sends `watch=True`). */
export function isTrue(v: string | undefined): boolean {
  return v === '1' || v === 't' || v === 'T' || v === 'true' || v === 'True' || v === 'TRUE';
}

export type { KubeObject };
