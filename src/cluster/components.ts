// Starts the components beside the API server — controller-manager, scheduler, node agent — each with its own
// in-process client and identity, and waits until every node of the fleet is Ready.

import { readFileSync } from 'node:fs';
import { createEventRecorder } from '../client/event-recorder.js';
import { InformerFactory } from '../client/informer.js';
import { ControllerManager, type ControllerManagerOptions } from '../controllers/manager.js';
import type { NodeLifecycleConfig } from '../controllers/nodelifecycle/config.js';
import { NodeAgent, type NodeAgentOptions } from '../node/agent.js';
import type { KubeletServerTls } from '../node/server/kubelet-server.js';
import { defaultFleet } from '../node/fleet-defaults.js';
import { parseFleet } from '../node/fleet.js';
import type { NodeProfile } from '../node/profile.js';
import { Scheduler } from '../scheduler/scheduler.js';
import type { Clock } from '../util/clock.js';
import type { Logger, LogLevel } from '../util/log.js';
import { startComponentThread, type ComponentThread } from './threads/component-thread.js';
import { startControllerManagerThread } from './threads/controller-manager-thread.js';
import { startNodeAgentThread } from './threads/node-agent-thread.js';
import { PublishedPort, type PortMapping } from '../network/publish/published-ports.js';
import type { ControlPlane } from './control-plane.js';
import { NODE_AGENT_USER, NODE_AGENTS_GROUP } from './component-rbac.js';
import type { Client } from '../client/interfaces.js';
import { inProcessClientBuilder, type ControllerClientBuilder } from '../controllers/identity.js';

/**
 * The identities of the in-process components (docs/cli.md, component identities): the scheduler and each kubelet as
 * kube names them (system:kube-scheduler; system:node:<name> in system:nodes, limited by the Node authorizer and
 * NodeRestriction), the node agent's shared informers as system:winkube:node-agent, and the controller-manager as
 * kube's --use-service-account-credentials runs it: its informers as system:kube-controller-manager, each controller
 * as its ServiceAccount kube-system/<name>, held to the system:controller:<name> role (src/controllers/identity.ts).
 */
const AUTHENTICATED = ['system:authenticated'];
/** A burst of pod status changes (thousands of pods starting) is one ReplicaSet sync per 100 ms or more, not one per pod. */
const POD_EVENT_BATCH_MS = 100;

export interface ComponentsConfig {
  /** Where each component gets its client: the in-process API server, or a kubeconfig's server (separate processes). */
  controlPlane: Pick<ControlPlane, 'client'>;
  /**
   * The controller-manager's clients (its own, and one per controller ServiceAccount); in-process identities from
   * `controlPlane.client` when absent. `winkube controller-manager` passes TokenRequest-backed ones.
   */
  controllerClients?: ControllerClientBuilder;
  /** Each kubelet's own client (system:node:<name>); the agent's client serves them all when absent. */
  nodeClient?: (node: string) => Client;
  clock: Clock;
  logger: Logger;
  /** A fleet file; the default fleet when absent. */
  fleetFile?: string;
  /** Profiles given directly (tests); wins over fleetFile. */
  profiles?: NodeProfile[];
  progress?: (step: string) => void;
  /** The cluster CA certificate, which the controller-manager publishes as kube-root-ca.crt. */
  rootCA?: string;
  /** The CA the controller-manager's CSR signer issues node certificates with. */
  clusterSigning?: { cert: string; key: string };
  /** The ServiceAccount key's signer, for the tokens controller (--service-account-private-key-file). */
  serviceAccountTokenSigner?: ControllerManagerOptions['serviceAccountTokenSigner'];
  /** The controller-manager's --controllers (all by default). */
  controllers?: string[];
  /** TLS of the node agent's kubelet server; without it logs, exec and port-forward are not served. */
  kubeletServerTls?: KubeletServerTls;
  /** The Service CIDRs (kube-apiserver --service-cluster-ip-range), which the network model needs for its verdicts. */
  serviceCidrs?: readonly string[];
  /** kube-apiserver as pods reach it (the `kubernetes` Service's endpoint and the real server behind it). */
  apiServer?: NodeAgentOptions['apiServer'];
  /** NodePorts to publish on 127.0.0.1 (`winkube up --publish`), once the nodes are Ready. */
  publish?: PortMapping[];
  /** Which components to run (all by default). */
  run?: { controllers?: boolean; scheduler?: boolean; nodes?: boolean };
  /** Where the node agent keeps network volume data (shared with other agents pointed at it); memory when absent. */
  volumeDir?: string;
  /**
   * Run the scheduler, the controller-manager and the node agent in worker threads (`winkube up --threads`), their
   * loggers at this level; all in this thread when absent.
   */
  threads?: { logLevel: LogLevel };
  /** The node lifecycle controller's settings (--node-monitor-grace-period). */
  nodeLifecycle?: Partial<NodeLifecycleConfig>;
  /** The horizontal pod autoscaler's settings (--horizontal-pod-autoscaler-sync-period). */
  podAutoscaler?: ControllerManagerOptions['podAutoscaler'];
  /** --legacy-service-account-token-clean-up-period in ms. */
  legacyTokenCleanUpPeriodMs?: number;
}

export interface RunningComponents {
  nodeCount: number;
  /** Whether each component this process started runs right now (ComponentStatus asks). */
  running: { scheduler?: () => boolean; controllerManager?: () => boolean };
  scheduler?: Scheduler;
  controllers?: ControllerManager;
  /** The in-process node agent (absent when it runs in a worker thread). */
  nodes?: NodeAgent;
  /** Each published NodePort and the loopback port it listens on. */
  published: { port: number; mapping: PortMapping }[];
  stop(): Promise<void>;
}

export function loadProfiles(fleetFile: string | undefined): NodeProfile[] {
  return fleetFile ? parseFleet(readFileSync(fleetFile, 'utf8'), fleetFile) : defaultFleet();
}

export async function startComponents(cfg: ComponentsConfig): Promise<RunningComponents> {
  const { controlPlane, clock, logger } = cfg;
  const step = cfg.progress ?? (() => {});
  const run = { controllers: true, scheduler: true, nodes: true, ...cfg.run };
  const profiles = cfg.profiles ?? loadProfiles(cfg.fleetFile);
  const out: RunningComponents = { nodeCount: 0, published: [], running: {}, stop: async () => {} };
  const stops: (() => void)[] = [];
  const closers: (() => Promise<void>)[] = [];
  const threads: ComponentThread[] = [];

  if (run.controllers && cfg.threads && !cfg.controllerClients) {
    // The same controllers in a worker thread, each acting as its ServiceAccount through a client served here.
    const thread = await startControllerManagerThread({
      own: inProcessClientBuilder((user, userAgent) => controlPlane.client(user, userAgent)).own,
      clientFor: (user, userAgent) => controlPlane.client(user, userAgent),
      options: {
        rootCA: cfg.rootCA, clusterSigning: cfg.clusterSigning, serviceAccountTokenSigner: cfg.serviceAccountTokenSigner, controllers: cfg.controllers,
        nodeLifecycle: cfg.nodeLifecycle, podAutoscaler: cfg.podAutoscaler, podEventBatchMs: POD_EVENT_BATCH_MS,
        legacyTokenCleanUpPeriodMs: cfg.legacyTokenCleanUpPeriodMs,
      },
      logger: logger.child('controller-manager'), logLevel: cfg.threads.logLevel,
    });
    threads.push(thread);
    out.running.controllerManager = thread.running;
    step(`controller-manager running (${thread.detail}, worker thread)`);
  } else if (run.controllers) {
    const clients = cfg.controllerClients ?? inProcessClientBuilder((user, userAgent) => controlPlane.client(user, userAgent));
    const cm = new ControllerManager({
      client: clients.own, clients, clock, logger: logger.child('controller-manager'), rootCA: cfg.rootCA, clusterSigning: cfg.clusterSigning, serviceAccountTokenSigner: cfg.serviceAccountTokenSigner, controllers: cfg.controllers, nodeLifecycle: cfg.nodeLifecycle, podAutoscaler: cfg.podAutoscaler,
      podEventBatchMs: POD_EVENT_BATCH_MS, legacyTokenCleanUpPeriodMs: cfg.legacyTokenCleanUpPeriodMs,
      recorder: (component, client) => createEventRecorder({ client, clock, logger, component }),
    });
    await cm.start();
    let cmRunning = true;
    stops.push(() => { cm.stop(); cmRunning = false; });
    out.running.controllerManager = () => cmRunning;
    out.controllers = cm;
    step(`controller-manager running (${cm.controllers.length} controllers)`);
  }
  if (run.scheduler && cfg.threads) {
    // The same scheduler in a worker thread: its filtering and scoring run on the second core.
    const client = controlPlane.client({ name: 'system:kube-scheduler', groups: AUTHENTICATED });
    const thread = await startComponentThread({
      entry: new URL('./threads/scheduler-worker.js', import.meta.url), transport: client.transport, logger: logger.child('scheduler'),
      logLevel: cfg.threads.logLevel,
    });
    threads.push(thread);
    out.running.scheduler = thread.running;
    step('scheduler running (worker thread)');
  } else if (run.scheduler) {
    const client = controlPlane.client({ name: 'system:kube-scheduler', groups: AUTHENTICATED });
    const informers = new InformerFactory({ client, clock, logger: logger.child('scheduler') });
    const scheduler = new Scheduler({ client, informers, clock, logger: logger.child('scheduler') });
    await scheduler.start();
    let schedulerRunning = true;
    stops.push(() => {
      scheduler.stop();
      informers.stop();
      schedulerRunning = false;
    });
    out.running.scheduler = () => schedulerRunning;
    out.scheduler = scheduler;
    step('scheduler running');
  }
  if (run.nodes && profiles.length) {
    const client = controlPlane.client({ name: NODE_AGENT_USER, groups: [NODE_AGENTS_GROUP, ...AUTHENTICATED] });
    const options = { profiles, serverTls: cfg.kubeletServerTls, apiServer: cfg.apiServer, volumeDir: cfg.volumeDir,
      serviceCIDR: cfg.serviceCidrs?.find((c) => !c.includes(':')), serviceCIDRv6: cfg.serviceCidrs?.find((c) => c.includes(':')) };
    const windows = profiles.filter((p) => p.os === 'windows').length;
    const ready = `${profiles.length} nodes Ready (${profiles.length - windows} Linux, ${windows} Windows)`;
    if (cfg.threads) {
      // The kubelets, their runtimes and the network model on another core; each kubelet still acts as its node.
      const thread = await startNodeAgentThread({
        own: client, nodeClient: cfg.nodeClient, options, publish: cfg.publish ?? [], logger: logger.child('node-agent'), logLevel: cfg.threads.logLevel,
      });
      threads.push(thread);
      out.published = thread.published;
      step(`${ready}, node agent in a worker thread`);
    } else {
      const agent = new NodeAgent({ ...options, client, clientFor: cfg.nodeClient, clock, logger: logger.child('node-agent'), slicedStages: true });
      await agent.start();
      stops.push(() => agent.stop());
      out.nodes = agent;
      for (const m of cfg.publish ?? []) {
        const p = new PublishedPort(agent.network, m);
        await p.listen();
        out.published.push({ port: p.port, mapping: m });
        closers.push(() => p.close());
      }
      step(ready);
    }
    out.nodeCount = profiles.length;
  }
  out.stop = async () => {
    for (const c of closers) await c();
    for (const s of stops.reverse()) s();
    await Promise.all(threads.map((t) => t.stop()));
  };
  return out;
}
