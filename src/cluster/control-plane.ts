// The control plane of one winkube cluster: the store (SQLite on disk, or in memory for tests), the API server core
// with its registry, admission, allocators and OpenAPI, and an in-process client for the components beside it.

import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { builtinResources } from '../api/builtin.js';
import type { ResourceDecl, Strategy } from '../api/interfaces.js';
import { getComponentSchemas, registryOpenApi } from '../api/openapi/index.js';
import { withServedGroupVersions } from '../api/openapi/aggregated.js';
import { withAggregatedOpenApi } from '../apiserver/aggregator/openapi.js';
import { unknownFields } from '../apiserver/field-validation.js';
import type { PatchMask } from '../apiserver/typed-decode.js';
import { tableFor } from '../api/printers/index.js';
import { Registry } from '../api/registry.js';
import { withServiceIPFamilies } from '../api/strategies/services.js';
import { createClient } from '../client/client.js';
import { InProcessTransport } from '../client/in-process.js';
import { createEventRecorder } from '../client/event-recorder.js';
import type { Client } from '../client/interfaces.js';
import { defaultAdmission } from '../apiserver/admission/index.js';
import { AdmissionChain } from '../apiserver/admission/interfaces.js';
import { equivalentsFrom } from '../apiserver/admission/webhook/source.js';
import { ClusterEgress } from '../apiserver/egress/egress.js';
import { AllocationRepair } from '../apiserver/allocators/repair.js';
import { ServiceAllocator } from '../apiserver/allocators/service-allocator.js';
import { IPAddressObjects } from '../apiserver/allocators/ip-address-objects.js';
import { IPAddressRepair } from '../apiserver/allocators/ip-address-repair.js';
import { ComponentStatusRest } from '../apiserver/componentstatus/rest.js';
import { ComponentStatusServers } from '../apiserver/componentstatus/servers.js';
import { legacyBindingsRest } from '../apiserver/legacy-bindings.js';
import { Authorization } from '../apiserver/authz/index.js';
import { bootstrapCluster } from '../apiserver/bootstrap.js';
import { DEFAULT_SERVICE_CIDR_CONTROLLER, DefaultServiceCIDRController } from '../apiserver/allocators/default-service-cidr.js';
import type { KubeletClientTls } from '../apiserver/kubelet-proxy.js';
import { MetricsApi } from '../apiserver/metrics/metrics-api.js';
import { createPatcher } from '../apiserver/patcher.js';
import { ApiServer } from '../apiserver/server.js';
import { CrdController } from '../apiserver/crd/crd-controller.js';
import { Aggregator } from '../apiserver/aggregator/aggregator.js';
import { METRICS_SERVER_NAME, METRICS_SERVER_NAMESPACE } from '../apiserver/metrics/addon.js';
import { createAuthentication, type Authentication } from '../apiserver/authn/index.js';
import { LegacyTokenTrackingController } from '../apiserver/authn/legacy-token-tracking.js';
import { LAST_USED_LABEL } from '../apiserver/authn/service-account-authenticator.js';
import { ephemeralServiceAccountKeys, loadOrCreateServiceAccountKeys, type ServiceAccountKeys } from '../apiserver/authn/service-account-keys.js';
import { R } from '../client/resources.js';
import type { Store } from '../storage/interfaces.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { ThreadedSqliteStore } from '../storage/sqlite/threaded-store.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { MaxInFlightLimits } from '../apiserver/max-in-flight.js';

export interface ControlPlaneConfig {
  /** Where state lives; undefined keeps everything in memory (tests). */
  dataDir?: string;
  clock: Clock;
  logger: Logger;
  strategies: Record<string, Strategy>;
  /**
   * The service CIDRs, primary first (`--service-cluster-ip-range`): e.g. `10.96.0.0/12` or, for dual-stack
   * Services, `10.96.0.0/12,fd00:10:96::/112`. A list or a comma-separated string; DEFAULT_SERVICE_CIDR when absent.
   */
  serviceCidr?: string | readonly string[];
  nodePortRange?: [number, number];
  /** Address and port the `kubernetes` Service's Endpoints point at. */
  advertiseAddress?: string;
  advertisePort?: number;
  store?: Store;
  watchCacheSize?: number;
  /** Client certificate for reaching kubelets (logs, exec, port-forward, node proxy). */
  kubeletClient?: KubeletClientTls;
  /** The ServiceAccount signing key; `<dataDir>/pki/sa.key` (made at first start) or a per-process key in memory. */
  serviceAccountKeys?: ServiceAccountKeys;
  /** --authorization-mode, in order (src/apiserver/authz/modes.ts); Node,RBAC when absent. */
  authorizationModes?: readonly string[];
  /** --enable-priority-and-fairness (on when absent). */
  priorityAndFairness?: boolean;
  /** --max-requests-inflight and --max-mutating-requests-inflight: APF's seats are their sum. */
  maxInFlight?: MaxInFlightLimits;
}

export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const DEFAULT_NODE_PORT_RANGE: [number, number] = [30000, 32767];

export class ControlPlane {
  readonly store: Store;
  readonly api: ApiServer;
  readonly registry: Registry;
  readonly allocator: ServiceAllocator;
  /** Rebuilds the stored ClusterIP and NodePort bitmaps from the Services: at start, then every 3 minutes. */
  readonly allocationRepair: AllocationRepair;
  private crds?: CrdController;
  private legacyTokenTracking?: LegacyTokenTrackingController;
  /** The API server's way to Services in the cluster: admission and conversion webhooks, APIServices. */
  private readonly egress: ClusterEgress;
  /** kube-aggregator: APIServices, their availability, and the groups they proxy. */
  private aggregator?: Aggregator;
  /** Who a request is (certificates, ServiceAccount and bootstrap tokens); the HTTPS front end asks it. */
  readonly authentication: Authentication;
  /** Who may do what: system:masters, then RBAC (the bootstrap policy is written at start). */
  readonly authorization: Authorization;
  /** What `kubectl get componentstatuses` probes; components this process runs say so here (Cluster.start). */
  readonly componentStatus: ComponentStatusServers;
  private defaultServiceCIDR?: DefaultServiceCIDRController;

  constructor(private readonly cfg: ControlPlaneConfig) {
    if (cfg.store) {
      this.store = cfg.store;
    } else if (cfg.dataDir) {
      mkdirSync(cfg.dataDir, { recursive: true });
      // The file's statements, commits and checkpoints run in a worker thread, beside the API server's loop.
      this.store = new ThreadedSqliteStore({ path: join(cfg.dataDir, 'state.db') });
    } else {
      this.store = new SqliteStore({ path: ':memory:' });
    }
    // kube-apiserver's allocator publishes each ClusterIP as an IPAddress through its loopback client.
    let loopback: Client | undefined;
    const ipAddresses = new IPAddressObjects(() => (loopback ??= this.client({ name: 'system:apiserver', groups: ['system:masters'] })), cfg.logger.child('ipallocator'));
    this.allocator = new ServiceAllocator({
      store: this.store, serviceCidr: cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR, nodePortRange: cfg.nodePortRange ?? DEFAULT_NODE_PORT_RANGE,
      logger: cfg.logger.child('service-allocator'), ipAddresses,
      // MultiCIDRServiceAllocator: ClusterIPs from every ready ServiceCIDR, read from the watch cache.
      serviceCIDRs: () => this.api.lookup.list('networking.k8s.io', 'servicecidrs'),
      ipAddressExists: (ip) => !!this.api.lookup.get('networking.k8s.io', 'ipaddresses', undefined, ip),
    });
    // Services get their IP families from the configured CIDRs (primary family first) before validation.
    this.registry = new Registry(builtinResources({ strategies: withServiceIPFamilies(cfg.strategies, this.allocator.families), tableFor }));
    const openapi = {
      // Rebuilt after the registry changes (CustomResourceDefinitions come and go at run time).
      ...registryOpenApi(this.registry),
      unknownFields: (decl: ResourceDecl, obj: unknown, prune?: boolean, mask?: PatchMask) => (decl.unknownFields ? decl.unknownFields(obj, prune === true)
        : decl.definition ? unknownFields(getComponentSchemas(), decl.definition, obj, prune, mask) : []),
    };
    const saKeys = cfg.serviceAccountKeys ?? (cfg.dataDir ? loadOrCreateServiceAccountKeys(cfg.dataDir) : ephemeralServiceAccountKeys());
    this.authentication = createAuthentication({
      keys: saKeys, now: () => cfg.clock.now(),
      // Read when a token is checked, by then the API server below exists.
      lookup: { get: (group, resource, namespace, name) => this.api.lookup.get(group, resource, namespace, name) },
      markLegacyTokenUsed: (namespace, name, uid, today) => {
        void this.client({ name: 'system:apiserver', groups: ['system:masters'] })
          .patch(R.secrets, namespace, name, 'merge', { metadata: { uid, labels: { [LAST_USED_LABEL]: today } } })
          .catch((err: unknown) => cfg.logger.warn('failed to label legacy service account token with last-used date', { secret: `${namespace}/${name}`, err: String(err) }));
      },
    });
    this.componentStatus = new ComponentStatusServers({
      store: this.store, now: () => cfg.clock.now(),
      lease: (namespace, name) => this.api.lookup.get('coordination.k8s.io', 'leases', namespace, name),
    });
    this.authorization = new Authorization({ clock: cfg.clock, logger: cfg.logger.child('authorization'), modes: cfg.authorizationModes });
    // metrics.k8s.io, as a cluster with metrics-server installed serves it (kubectl top), behind its APIService (see
    // the aggregator below); the built-in review groups beside it, each with its Local APIService.
    const metrics = new MetricsApi({ clock: cfg.clock, logger: cfg.logger.child('metrics-server') });
    const inProcess = [...this.authentication.apis, this.authorization.reviewApi];
    const aggregated = [metrics, ...inProcess];
    const egress = (this.egress = new ClusterEgress(() => cfg.kubeletClient));
    this.api = new ApiServer({
      registry: this.registry,
      store: this.store,
      ...(cfg.priorityAndFairness === false ? { flowControl: false }
        : cfg.maxInFlight ? { flowControl: { serverConcurrencyLimit: cfg.maxInFlight.readOnly + cfg.maxInFlight.mutating } } : {}),
      clock: cfg.clock,
      logger: cfg.logger.child('apiserver'),
      patcher: createPatcher(cfg.clock),
      // Webhooks reach in-cluster Services through the node agents, with the API server's kubelet credentials.
      // The RBAC escalation check sees a write first, as kube's RBAC storage does before any admission runs.
      admission: new AdmissionChain([this.authorization.escalationCheck, ...defaultAdmission({
        webhooks: {
          egress, equivalents: equivalentsFrom(() => this.registry.decls),
          logger: cfg.logger.child('admission-webhook'), authorizer: this.authorization.authorizer,
        },
        // CEL `authorizer` checks and paramKind lookups (ValidatingAdmissionPolicy).
        policies: {
          authorizer: this.authorization.authorizer, logger: cfg.logger.child('validating-admission-policy'),
          resolveKind: (apiVersion, kind) => {
            const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
            const d = this.registry.decls.find((x) => x.group === group && x.version === version && x.kind === kind);
            return d ? { group: d.group, resource: d.plural, namespaced: d.namespaced } : undefined;
          },
        },
      }).plugins]),
      authorizer: this.authorization.authorizer,
      // Their group versions are in /openapi/v3 too, so `kubectl explain` finds their kinds.
      // The aggregated backends' OpenAPI joins in as their APIServices become Available (src/apiserver/aggregator/openapi.ts).
      openapi: withAggregatedOpenApi(withServedGroupVersions(openapi, aggregated), () => this.aggregator?.openapi),
      watchCacheSize: cfg.watchCacheSize,
      kubeletClient: cfg.kubeletClient,
      aggregated: inProcess,
      aggregation: { apis: () => this.aggregator?.apis() ?? [], groupRank: (g) => this.aggregator?.groupRank(g), withdrawn: () => this.aggregator?.withdrawn() },
      serviceAccountTokens: this.authentication.tokenIssuer,
      oidcDiscovery: this.authentication.oidc,
      storageHooks: {
        services: {
          beforeWrite: (obj, old, _lookup, dryRun) => this.allocator.allocate(obj, old, dryRun),
          afterDelete: (svc) => this.allocator.release(svc),
        },
      },
      customRest: { componentstatuses: new ComponentStatusRest(() => this.componentStatus.servers()), bindings: legacyBindingsRest },
    });
    this.aggregator = new Aggregator({
      client: this.client({ name: 'system:apiserver', groups: ['system:masters'] }), egress, lookup: () => this.api.lookup,
      builtin: () => [{ group: '', version: 'v1' }, ...this.registry.groups().flatMap((g) => g.versions.map((version) => ({ group: g.name, version }))),
        ...inProcess.map((a) => ({ group: a.group, version: a.version }))],
      // metrics.k8s.io is answered here, behind the `v1beta1.metrics.k8s.io` APIService that names the metrics-server
      // Service in kube-system (src/apiserver/metrics/addon.ts). That Deployment's pod is real and answers the
      // aggregator's discovery check through the egress, so availability is measured, never assumed; the metrics
      // themselves are computed here because metrics-server's kubelet scrape (its ServiceAccount token checked by
      // each kubelet through TokenReview and SubjectAccessReview) has no honest path through the pod model yet.
      inProcess: [{ namespace: METRICS_SERVER_NAMESPACE, name: METRICS_SERVER_NAME, api: metrics }],
      clock: cfg.clock, logger: cfg.logger.child('kube-aggregator'),
    });
    const services = this.api.storeFor('', 'services')!;
    this.allocationRepair = new AllocationRepair({
      allocator: this.allocator, clock: cfg.clock, logger: cfg.logger.child('service-allocator-repair'),
      // A consistent list: ResourceStore.list waits until the watch cache has caught up with the store.
      listServices: async () => (await services.list(undefined)).items,
      ipAddresses: new IPAddressRepair({ client: () => (loopback ??= this.client({ name: 'system:apiserver', groups: ['system:masters'] })), recorder: ipAddresses }),
    });
  }

  /** A client that talks to this API server without sockets, as `user`, sending `userAgent` as an HTTP client would. */
  client(user?: { name: string; groups: string[] }, userAgent?: string): Client {
    return createClient(new InProcessTransport(this.api, user, userAgent));
  }

  /** Where pods reach kube-apiserver: the `kubernetes` Service's endpoint on the control-plane node. */
  get advertised(): { address: string; port: number } {
    return { address: this.cfg.advertiseAddress ?? '172.18.0.2', port: this.cfg.advertisePort ?? 6443 };
  }

  async start(): Promise<void> {
    await this.api.start();
    // CustomResourceDefinitions: names, Established, serving and cleanup, inside the API server as kube runs them.
    this.crds = new CrdController({
      api: this.api, client: this.client({ name: 'system:apiserver', groups: ['system:masters'] }), clock: this.cfg.clock,
      logger: this.cfg.logger.child('apiextensions'), egress: this.egress,
    });
    await this.crds.start();
    // After the CRDs' first pass, so their APIServices are wanted before autoregister's first sync (aggregator.go).
    await this.aggregator?.start();
    // Before anything allocates: creates the bitmaps on a new store and brings them up to date on an old one
    // (kube-apiserver exits when this first pass fails).
    await this.allocationRepair.runOnce({ startup: true });
    this.allocationRepair.start();
    await bootstrapCluster(this.client({ name: 'system:apiserver', groups: ['system:masters'] }), {
      apiServiceIP: this.allocator.apiServiceIP(),
      advertiseAddress: this.advertised.address,
      advertisePort: this.advertised.port,
    });
    // The default ServiceCIDR `kubernetes`: created now, recreated every 10 s sync after a deletion completes.
    const loopback = this.client({ name: 'system:apiserver', groups: ['system:masters'] });
    this.defaultServiceCIDR = new DefaultServiceCIDRController({
      client: loopback, clock: this.cfg.clock, logger: this.cfg.logger.child(DEFAULT_SERVICE_CIDR_CONTROLLER),
      recorder: createEventRecorder({ client: loopback, clock: this.cfg.clock, logger: this.cfg.logger, component: DEFAULT_SERVICE_CIDR_CONTROLLER }),
      cidrs: [this.cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR].flat().flatMap((c) => c.split(',')).map((c) => c.trim()),
    });
    await this.defaultServiceCIDR.start();
    // legacytokentracking: the date since which legacy token use is recorded (the token cleaner waits on it).
    this.legacyTokenTracking = new LegacyTokenTrackingController({ client: this.client({ name: 'system:apiserver', groups: ['system:masters'] }), clock: this.cfg.clock, logger: this.cfg.logger.child('legacy-token-tracking') });
    await this.legacyTokenTracking.start();
    // The bootstrap RBAC policy, then the authorizer's index filled before anyone but system:masters is served.
    await this.authorization.start(this.client({ name: 'system:apiserver', groups: ['system:masters'] }));
  }

  async stop(): Promise<void> {
    this.defaultServiceCIDR?.stop();
    this.authorization.stop();
    this.legacyTokenTracking?.stop();
    this.crds?.stop();
    this.aggregator?.stop();
    await this.allocationRepair.stop();
    this.api.stop();
    await this.store.close();
  }
}
