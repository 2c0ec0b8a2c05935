// The control plane of one winkube cluster: the store (SQLite on disk, or in memory for tests), the API server core
// with its registry, admission, allocators and OpenAPI, and an in-process client for the components beside it.

import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { builtinResources } from '../api/builtin.js';
import type { ResourceDecl, Strategy } from '../api/interfaces.js';
import { buildOpenApi, getComponentSchemas } from '../api/openapi/index.js';
import { unknownFields } from '../apiserver/field-validation.js';
import { tableFor } from '../api/printers/index.js';
import { Registry } from '../api/registry.js';
import { withServiceIPFamilies } from '../api/strategies/services.js';
import { createClient } from '../client/client.js';
import { InProcessTransport } from '../client/in-process.js';
import type { Client } from '../client/interfaces.js';
import { defaultAdmission } from '../apiserver/admission/index.js';
import { AllocationRepair } from '../apiserver/allocators/repair.js';
import { ServiceAllocator } from '../apiserver/allocators/service-allocator.js';
import { alwaysAllow } from '../apiserver/authz/always-allow.js';
import { bootstrapCluster } from '../apiserver/bootstrap.js';
import type { KubeletClientTls } from '../apiserver/kubelet-proxy.js';
import { MetricsApi } from '../apiserver/metrics/metrics-api.js';
import { createPatcher } from '../apiserver/patcher.js';
import { ApiServer } from '../apiserver/server.js';
import type { Store } from '../storage/interfaces.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

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

  constructor(private readonly cfg: ControlPlaneConfig) {
    if (cfg.store) {
      this.store = cfg.store;
    } else if (cfg.dataDir) {
      mkdirSync(cfg.dataDir, { recursive: true });
      this.store = new SqliteStore({ path: join(cfg.dataDir, 'state.db') });
    } else {
      this.store = new SqliteStore({ path: ':memory:' });
    }
    this.allocator = new ServiceAllocator({
      store: this.store, serviceCidr: cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR, nodePortRange: cfg.nodePortRange ?? DEFAULT_NODE_PORT_RANGE,
      logger: cfg.logger.child('service-allocator'),
    });
    // Services get their IP families from the configured CIDRs (primary family first) before validation.
    this.registry = new Registry(builtinResources({ strategies: withServiceIPFamilies(cfg.strategies, this.allocator.families), tableFor }));
    const openapi = {
      ...buildOpenApi(this.registry.decls),
      unknownFields: (decl: ResourceDecl, obj: unknown, prune?: boolean) => (decl.definition ? unknownFields(getComponentSchemas(), decl.definition, obj, prune) : []),
    };
    this.api = new ApiServer({
      registry: this.registry,
      store: this.store,
      clock: cfg.clock,
      logger: cfg.logger.child('apiserver'),
      patcher: createPatcher(cfg.clock),
      admission: defaultAdmission(),
      authorizer: alwaysAllow(),
      openapi,
      watchCacheSize: cfg.watchCacheSize,
      kubeletClient: cfg.kubeletClient,
      // metrics.k8s.io, as a cluster with metrics-server installed serves it (kubectl top).
      aggregated: [new MetricsApi({ clock: cfg.clock, logger: cfg.logger.child('metrics-server') })],
      storageHooks: {
        services: {
          beforeWrite: (obj, old, _lookup, dryRun) => this.allocator.allocate(obj, old, dryRun),
          afterDelete: (svc) => this.allocator.release(svc),
        },
      },
    });
    const services = this.api.storeFor('', 'services')!;
    this.allocationRepair = new AllocationRepair({
      allocator: this.allocator, clock: cfg.clock, logger: cfg.logger.child('service-allocator-repair'),
      // A consistent list: ResourceStore.list waits until the watch cache has caught up with the store.
      listServices: async () => (await services.list(undefined)).items,
    });
  }

  /** A client that talks to this API server without sockets. */
  client(user?: { name: string; groups: string[] }): Client {
    return createClient(new InProcessTransport(this.api, user));
  }

  /** Where pods reach kube-apiserver: the `kubernetes` Service's endpoint on the control-plane node. */
  get advertised(): { address: string; port: number } {
    return { address: this.cfg.advertiseAddress ?? '172.18.0.2', port: this.cfg.advertisePort ?? 6443 };
  }

  async start(): Promise<void> {
    await this.api.start();
    // Before anything allocates: creates the bitmaps on a new store and brings them up to date on an old one
    // (kube-apiserver exits when this first pass fails).
    await this.allocationRepair.runOnce({ startup: true });
    this.allocationRepair.start();
    await bootstrapCluster(this.client({ name: 'system:apiserver', groups: ['system:masters'] }), {
      apiServiceIP: this.allocator.apiServiceIP(),
      advertiseAddress: this.advertised.address,
      advertisePort: this.advertised.port,
    });
  }

  async stop(): Promise<void> {
    await this.allocationRepair.stop();
    this.api.stop();
    await this.store.close();
  }
}
