// One whole cluster in one process, as `winkube up` runs it: control plane + HTTPS front end, scheduler,
// controller-manager and a node agent hosting the fleet's emulated nodes. Components share only the API.

import { join } from 'node:path';
import { HttpFrontEnd } from '../apiserver/http-server.js';
import { loadOrCreatePki, type ClusterPki } from '../apiserver/pki.js';
import { STRATEGIES } from '../api/strategies/index.js';
import { RealClock, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { ControlPlane, DEFAULT_SERVICE_CIDR } from './control-plane.js';
import { ensureDnsAddon } from '../network/dns/addon.js';
import { ensureMetricsServer } from '../apiserver/metrics/addon.js';
import { ensureDefaultStorageClass } from './storage-class.js';
import { enableGmsaWebhooks, gmsaWebhookUnfit, installGmsaWorkload } from './gmsa/install.js';
import { defaultFleet } from '../node/fleet-defaults.js';
import { startClusterDns, type RunningClusterDns } from '../network/dns/cluster-dns.js';
import { parseServiceCidrs, serviceCidrHost } from '../apiserver/allocators/service-cidrs.js';
import { writeKubeconfig } from './kubeconfig.js';
import { startComponents, type ComponentsConfig, type RunningComponents } from './components.js';
import { publishClusterConfig } from './cluster-config.js';
import { DASHBOARD_USER } from './component-rbac.js';
import { nodeUser } from '../apiserver/authz/node/identity.js';
import { startDashboard } from '../dashboard/server.js';
import type { NodeProfile } from '../node/profile.js';
import type { Store } from '../storage/interfaces.js';
import type { PortMapping } from '../network/publish/published-ports.js';
import type { MaxInFlightLimits } from '../apiserver/max-in-flight.js';

export interface ClusterConfig {
  dataDir: string;
  port: number;
  /** The nodes to emulate (the default fleet when absent). */
  profiles?: NodeProfile[];
  logger: Logger;
  clock?: Clock;
  /** The API server's store (e.g. etcd); a SQLite file in dataDir when absent. */
  store?: Store;
  /** Called with a short line for each start-up step (the CLI prints them). */
  progress?: (step: string) => void;
  /** Port of the dashboard on 127.0.0.1 (0 = a free one); no dashboard when undefined. */
  dashboardPort?: number;
  /** Port of the cluster DNS server on 127.0.0.1, UDP and TCP (0 = a free one); no DNS server when undefined. */
  dnsPort?: number;
  /** NodePorts published on 127.0.0.1 (kind's extraPortMappings). */
  publish?: PortMapping[];
  /** kube-controller-manager's --node-monitor-grace-period, in ms (its default when absent). */
  nodeMonitorGracePeriodMs?: number;
  /** kube-controller-manager's --horizontal-pod-autoscaler-sync-period, in ms (15 s when absent). */
  hpaSyncPeriodMs?: number;
  /** kube-controller-manager's --legacy-service-account-token-clean-up-period, in ms (a year when absent). */
  legacyTokenCleanUpPeriodMs?: number;
  /** Service CIDRs, primary first (one per family; two make Services dual-stack); DEFAULT_SERVICE_CIDR when absent. */
  serviceCidr?: string | readonly string[];
  /** Which components run beside the API server (all when absent); `winkube apiserver` runs none. */
  components?: ComponentsConfig['run'];
  /** The address the cluster-info ConfigMap gives joining nodes (kubeadm's controlPlaneEndpoint); this server when absent. */
  controlPlaneEndpoint?: string;
  /** Run the scheduler, the controller-manager and the node agent in worker threads (ComponentsConfig.threads); here when absent. */
  threads?: ComponentsConfig['threads'];
  /** Install windows-gmsa's CRD and admission webhook (`winkube up --gmsa-webhook`, on by default there). */
  gmsaWebhook?: boolean;
  /** kube-apiserver's --authorization-mode, in order; Node,RBAC when absent. */
  authorizationModes?: readonly string[];
  /** kube-apiserver's --enable-priority-and-fairness (on when absent). */
  priorityAndFairness?: boolean;
  /** --max-requests-inflight / --max-mutating-requests-inflight (ControlPlaneConfig.maxInFlight). */
  maxInFlight?: MaxInFlightLimits;
}

export class Cluster {
  readonly controlPlane: ControlPlane;
  private readonly http: HttpFrontEnd;
  private readonly pki: ClusterPki;
  private components?: RunningComponents;
  private dashboard?: Awaited<ReturnType<typeof startDashboard>>;
  private dns?: RunningClusterDns;
  private readonly clock: Clock;
  /** Aborted by stop(): background start-up work (the GMSA webhooks waiting for their pod) ends with it. */
  private readonly stopping = new AbortController();

  constructor(private readonly cfg: ClusterConfig) {
    this.clock = cfg.clock ?? new RealClock();
    // The kubernetes Service's address (first of the primary service CIDR) is a SAN, as kubeadm makes it.
    const apiServiceIP = serviceCidrHost(parseServiceCidrs(cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR)[0], 1);
    this.pki = loadOrCreatePki(cfg.dataDir, [...new Set(['127.0.0.1', '::1', '10.96.0.1', apiServiceIP])]);
    this.controlPlane = new ControlPlane({
      dataDir: cfg.dataDir, store: cfg.store, clock: this.clock, logger: cfg.logger, strategies: STRATEGIES, serviceCidr: cfg.serviceCidr,
      kubeletClient: { ...this.pki.kubeletClient, ca: this.pki.ca.cert }, authorizationModes: cfg.authorizationModes, priorityAndFairness: cfg.priorityAndFairness, maxInFlight: cfg.maxInFlight,
    });
    this.http = new HttpFrontEnd({
      api: this.controlPlane.api,
      logger: cfg.logger.child('http'),
      tls: { cert: this.pki.server.cert, key: this.pki.server.key, ca: this.pki.ca.cert },
      port: cfg.port,
      authenticator: this.controlPlane.authentication.authenticator,
    });
  }

  get serverUrl(): string {
    return `https://127.0.0.1:${this.http.port}`;
  }

  get dashboardUrl(): string | undefined {
    return this.dashboard?.url;
  }

  /** host:port of the cluster DNS server, once it answers. */
  get dnsAddress(): string | undefined {
    return this.dns?.address;
  }

  /** The cluster CA certificate (PEM). */
  get caCert(): string {
    return this.pki.ca.cert;
  }

  get nodeCount(): number {
    return this.components?.nodeCount ?? 0;
  }

  async start(): Promise<void> {
    const step = this.cfg.progress ?? (() => {});
    await this.controlPlane.start();
    const port = await this.http.listen();
    this.controlPlane.api.serverAddress = `127.0.0.1:${port}`;
    step(`API server listening on https://127.0.0.1:${port} (state in ${this.cfg.store ? 'etcd' : join(this.cfg.dataDir, 'state.db')})`);
    await ensureDefaultStorageClass(this.controlPlane.client({ name: 'kubernetes-admin', groups: ['system:masters'] }));
    // kubeadm init's uploads: cluster-info in kube-public (what joining nodes discover) and the networking settings
    // node agents read instead of being handed them in-process.
    await publishClusterConfig(this.controlPlane.client({ name: 'kubernetes-admin', groups: ['system:masters'] }), {
      server: this.cfg.controlPlaneEndpoint ?? this.serverUrl, ca: this.pki.ca.cert,
      serviceCidrs: String(this.cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR).split(',').map((c) => c.trim()),
    });
    if (this.cfg.dnsPort !== undefined) {
      // kubeadm's DNS add-on at the tenth address of the primary service CIDR, then the server that answers for it.
      const dnsIP = serviceCidrHost(parseServiceCidrs(this.cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR)[0], 10);
      await ensureDnsAddon(this.controlPlane.client({ name: 'kubernetes-admin', groups: ['system:masters'] }), { dnsIP });
      this.dns = await startClusterDns({
        client: this.controlPlane.client({ name: 'system:serviceaccount:kube-system:coredns', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }),
        clock: this.clock, logger: this.cfg.logger, dnsIP, port: this.cfg.dnsPort,
      });
      step(`cluster DNS answering on ${this.dns.address} (UDP and TCP) for kube-dns ${dnsIP}`);
    }
    // GMSA as windows-gmsa deploys it, when this process runs the nodes and the fleet has a use and a place for it.
    const gmsaUnfit = this.cfg.gmsaWebhook && this.cfg.components?.nodes !== false ? gmsaWebhookUnfit(this.cfg.profiles ?? defaultFleet()) : 'off';
    if (gmsaUnfit === undefined) await installGmsaWorkload(this.controlPlane.client({ name: 'kubernetes-admin', groups: ['system:masters'] }), this.pki.ca);
    else if (this.cfg.gmsaWebhook && gmsaUnfit !== 'off') step(`GMSA webhook not installed: ${gmsaUnfit}`);
    // metrics-server's manifest, as a cluster that answers `kubectl top` has it (its APIService's availability follows
    // its pod).
    await ensureMetricsServer(this.controlPlane.client({ name: 'kubernetes-admin', groups: ['system:masters'] }));
    this.components = await startComponents({
      controlPlane: this.controlPlane, nodeClient: (node) => this.controlPlane.client(nodeUser(node)), clock: this.clock, logger: this.cfg.logger, profiles: this.cfg.profiles, progress: step,
      kubeletServerTls: { ...this.pki.kubeletServer, ca: this.pki.ca.cert },
      rootCA: this.pki.ca.cert,
      serviceAccountTokenSigner: this.controlPlane.authentication.tokenIssuer.signer,
      clusterSigning: this.pki.ca,
      apiServer: { ...this.controlPlane.advertised, url: this.serverUrl, ca: this.pki.ca.cert },
      serviceCidrs: String(this.cfg.serviceCidr ?? DEFAULT_SERVICE_CIDR).split(',').map((c) => c.trim()),
      run: this.cfg.components, threads: this.cfg.threads, publish: this.cfg.publish,
      // Network volume data (NFS/SMB shares, CSI disks) on disk, where `winkube node --volume-dir` agents can share it.
      volumeDir: join(this.cfg.dataDir, 'volumes'),
      ...(this.cfg.nodeMonitorGracePeriodMs !== undefined ? { nodeLifecycle: { monitorGracePeriodMs: this.cfg.nodeMonitorGracePeriodMs } } : {}),
      ...(this.cfg.hpaSyncPeriodMs !== undefined ? { podAutoscaler: { syncPeriodMs: this.cfg.hpaSyncPeriodMs } } : {}),
      legacyTokenCleanUpPeriodMs: this.cfg.legacyTokenCleanUpPeriodMs,
    });
    // The scheduler and controller-manager run here: their state answers `kubectl get componentstatuses`.
    if (this.components.running.scheduler) this.controlPlane.componentStatus.setLocal('scheduler', this.components.running.scheduler);
    if (this.components.running.controllerManager) this.controlPlane.componentStatus.setLocal('controller-manager', this.components.running.controllerManager);
    if (gmsaUnfit === undefined) {
      const ready = await enableGmsaWebhooks(this.controlPlane.client({ name: 'kubernetes-admin', groups: ['system:masters'] }), this.pki.ca, this.clock, { signal: this.stopping.signal });
      step(ready ? 'GMSA: CRD gmsacredentialspecs.windows.k8s.io and admission webhook kube-system/gmsa-webhook ready' : 'GMSA: no gmsa-webhook pod ready yet in kube-system; its webhook configurations follow once one is');
    }
    for (const { port, mapping: m } of this.components.published) {
      step(`NodePort ${m.nodePort} of ${m.node ?? 'the first Linux node'} published on http://127.0.0.1:${port}/`);
    }
    if (this.cfg.dashboardPort !== undefined) {
      this.dashboard = await startDashboard({
        // Reads nodes, pods, deployments and events everywhere: the winkube:dashboard ClusterRole (component-rbac.ts).
        client: this.controlPlane.client({ name: DASHBOARD_USER, groups: ['system:authenticated'] }),
        port: this.cfg.dashboardPort, logger: this.cfg.logger.child('dashboard'), clock: this.clock,
      });
      step(`dashboard at ${this.dashboard.url}`);
    }
  }

  writeKubeconfig(path: string): void {
    writeKubeconfig(path, this.serverUrl, this.pki);
  }

  /** `127.0.0.1:<hostPort> → NodePort <n>` for each published port. */
  get publishedPorts(): string[] {
    return (this.components?.published ?? []).map((p) => `127.0.0.1:${p.port} → NodePort ${p.mapping.nodePort}${p.mapping.node ? ` on ${p.mapping.node}` : ''}`);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.dashboard?.close();
    await this.dns?.stop();
    await this.components?.stop();
    await this.http.close();
    await this.controlPlane.stop();
  }
}
