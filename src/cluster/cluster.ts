// One whole cluster in one process, as `winkube up` runs it: control plane + HTTPS front end, scheduler,
// controller-manager and a node agent hosting the fleet's emulated nodes. Components share only the API.

import { join } from 'node:path';
import { HttpFrontEnd } from '../apiserver/http-server.js';
import { loadOrCreatePki, type ClusterPki } from '../apiserver/pki.js';
import { STRATEGIES } from '../api/strategies/index.js';
import { RealClock, type Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { ControlPlane } from './control-plane.js';
import { writeKubeconfig } from './kubeconfig.js';
import { startComponents, type RunningComponents } from './components.js';
import { startDashboard } from '../dashboard/server.js';
import type { NodeProfile } from '../node/profile.js';
import type { Store } from '../storage/interfaces.js';

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
}

export class Cluster {
  readonly controlPlane: ControlPlane;
  private readonly http: HttpFrontEnd;
  private readonly pki: ClusterPki;
  private components?: RunningComponents;
  private dashboard?: Awaited<ReturnType<typeof startDashboard>>;
  private readonly clock: Clock;

  constructor(private readonly cfg: ClusterConfig) {
    this.clock = cfg.clock ?? new RealClock();
    this.pki = loadOrCreatePki(cfg.dataDir, ['127.0.0.1', '::1', '10.96.0.1']);
    this.controlPlane = new ControlPlane({
      dataDir: cfg.dataDir, store: cfg.store, clock: this.clock, logger: cfg.logger, strategies: STRATEGIES,
      kubeletClient: { ...this.pki.kubeletClient, ca: this.pki.ca.cert },
    });
    this.http = new HttpFrontEnd({
      api: this.controlPlane.api,
      logger: cfg.logger.child('http'),
      tls: { cert: this.pki.server.cert, key: this.pki.server.key, ca: this.pki.ca.cert },
      port: cfg.port,
    });
  }

  get serverUrl(): string {
    return `https://127.0.0.1:${this.http.port}`;
  }

  get dashboardUrl(): string | undefined {
    return this.dashboard?.url;
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
    this.components = await startComponents({
      controlPlane: this.controlPlane, clock: this.clock, logger: this.cfg.logger, profiles: this.cfg.profiles, progress: step,
      kubeletServerTls: { ...this.pki.kubeletServer, ca: this.pki.ca.cert },
      rootCA: this.pki.ca.cert,
    });
    if (this.cfg.dashboardPort !== undefined) {
      this.dashboard = await startDashboard({
        client: this.controlPlane.client({ name: 'system:winkube-dashboard', groups: ['system:authenticated'] }),
        port: this.cfg.dashboardPort, logger: this.cfg.logger.child('dashboard'), clock: this.clock,
      });
      step(`dashboard at ${this.dashboard.url}`);
    }
  }

  writeKubeconfig(path: string): void {
    writeKubeconfig(path, this.serverUrl, this.pki);
  }

  async stop(): Promise<void> {
    await this.dashboard?.close();
    await this.components?.stop();
    await this.http.close();
    await this.controlPlane.stop();
  }
}
