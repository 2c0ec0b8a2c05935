// `winkube up`: starts a whole cluster in this process (API server over HTTPS, scheduler, controllers, emulated
// nodes), writes the kubeconfig once every node is Ready, and stops cleanly on Ctrl-C.

import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseServiceCidrs } from '../apiserver/allocators/service-cidrs.js';
import { Cluster } from '../cluster/cluster.js';
import { parsePortMapping, type PortMapping } from '../network/publish/published-ports.js';
import { loadProfiles } from '../cluster/components.js';
import { parseGoDuration } from '../util/go-duration.js';
import { fleetWarnings, formatFleetWarnings } from '../node/fleet-support.js';
import { EtcdStore } from '../storage/etcd/etcd-store.js';
import { AUTHORIZATION_MODE_CHOICES, authorizationModesFromFlag, DEFAULT_AUTHORIZATION_MODES } from '../apiserver/authz/modes.js';
import { createLogger, type LogLevel } from '../util/log.js';
import { checkMaxInFlight, type MaxInFlightLimits } from '../apiserver/max-in-flight.js';
import { flagHelp, parseFlags, UsageError, type FlagSpec } from './flags.js';
import type { Command } from './main.js';

const FLAGS: FlagSpec[] = [
  { name: 'data-dir', type: 'string', help: 'where the cluster keeps its state, certificates and kubeconfig', default: '.winkube', placeholder: 'DIR' },
  { name: 'port', type: 'number', help: 'HTTPS port of the API server on 127.0.0.1; 0 picks a free one', default: 6443 },
  { name: 'fleet', type: 'string', help: 'a fleet file (YAML or JSON) describing the nodes; replaces the default fleet', placeholder: 'FILE' },
  { name: 'log-level', type: 'string', help: 'error | warn | info | debug', default: 'info', placeholder: 'LEVEL' },
  { name: 'dashboard', type: 'boolean', help: 'serve the dashboard (a web page of the fleet, pods and events) on 127.0.0.1; --dashboard=false turns it off', default: true },
  { name: 'dashboard-port', type: 'number', help: 'port of the dashboard; 0 picks a free one', default: 0 },
  { name: 'publish', type: 'string', help: 'publish NodePorts on 127.0.0.1, as kind\'s extraPortMappings: HOSTPORT:NODEPORT[@NODE], comma-separated (HOSTPORT 0 picks a free one)', placeholder: 'MAPPINGS' },
  { name: 'gmsa-webhook', type: 'boolean', help: 'install windows-gmsa as its Helm chart does: the GMSACredentialSpec CRD and the admission webhook (kube-system/gmsa-webhook) that resolves gmsaCredentialSpecName and checks the `use` verb; --gmsa-webhook=false leaves both out', default: true },
  { name: 'dns-port', type: 'number', help: 'port of the cluster DNS server on 127.0.0.1 (UDP and TCP, kube-dns\'s answers); 0 picks a free one', default: 0 },
  { name: 'service-cidr', type: 'string', help: 'Service ClusterIP ranges, as kube-apiserver\'s --service-cluster-ip-range: one CIDR, or two of different families (comma-separated, primary first) for dual-stack Services', default: '10.96.0.0/12', placeholder: 'CIDRS' },
  { name: 'storage', type: 'string', help: 'sqlite (a file in the data dir) | etcd (a running etcd 3.4+ cluster)', default: 'sqlite', placeholder: 'KIND' },
  { name: 'etcd-endpoints', type: 'string', help: 'with --storage etcd: comma-separated client URLs', default: 'http://127.0.0.1:2379', placeholder: 'URLS' },
  { name: 'horizontal-pod-autoscaler-sync-period', type: 'string', help: 'kube-controller-manager\'s: how often the horizontal pod autoscaler looks at each HPA\'s metrics and target', default: '15s', placeholder: 'DURATION' },
  { name: 'max-requests-inflight', type: 'number', help: 'kube-apiserver\'s: reads in flight; with API Priority and Fairness, summed with --max-mutating-requests-inflight into the seats it shares among its priority levels', default: 400, placeholder: 'N' },
  { name: 'max-mutating-requests-inflight', type: 'number', help: 'kube-apiserver\'s: writes in flight (see --max-requests-inflight); summed with it into API Priority and Fairness\'s seats', default: 200, placeholder: 'N' },
  { name: 'enable-priority-and-fairness', type: 'boolean', help: 'kube-apiserver\'s: classify, queue and limit requests with API Priority and Fairness (FlowSchemas and PriorityLevelConfigurations); false serves every request at once', default: true },
  { name: 'authorization-mode', type: 'string', help: `kube-apiserver's: ordered list of authorizers after system:masters, comma-separated: ${AUTHORIZATION_MODE_CHOICES.join(',')} (winkube serves Node, RBAC, AlwaysAllow and AlwaysDeny)`, default: DEFAULT_AUTHORIZATION_MODES.join(','), placeholder: 'MODES' },
  { name: 'threads', type: 'boolean', help: 'run the scheduler, the controller-manager and the node agent in worker threads beside the API server, so they use a second core; --threads=false keeps them on the API server\'s thread', default: true },
  { name: 'legacy-service-account-token-clean-up-period', type: 'string', help: 'kube-controller-manager\'s: how long an auto-generated ServiceAccount token Secret may go unused before the legacy token cleaner marks it invalid, and how long it then stays before it is deleted', default: '8760h0m0s', placeholder: 'DURATION' },
  { name: 'node-monitor-grace-period', type: 'string', help: 'kube-controller-manager\'s: how long a node\'s kubelet may stay silent (no Lease renewal, no status) before the node is NotReady; keep it above the kubelets\' 10s Lease renewal plus the 5s monitor period', default: '50s', placeholder: 'DURATION' },
];

export const upCommand: Command = {
  name: 'up',
  summary: 'start a cluster (API server, scheduler, controllers, emulated Linux + Windows nodes) in the foreground',
  help: () => [
    'Usage: winkube up [flags]',
    '',
    'Starts a cluster in the foreground and prints progress. When every node is Ready it writes',
    '<data-dir>/kubeconfig (scripts can wait for that file) and prints the line to export it.',
    'Starting again on the same data directory keeps every object. Ctrl-C stops the cluster.',
    '',
    'The default fleet: a Linux control-plane node, a Linux worker, two Windows Server 2019 workers and',
    'one Windows Server 2022 worker. --fleet replaces it (see docs/node-profiles.md for the format).',
    '',
    'kubeadm\'s DNS add-on (the kube-dns Service at 10.96.0.10, the coredns Deployment) is created, and a real',
    'DNS server answers for it on 127.0.0.1: `dig @127.0.0.1 -p PORT kubernetes.default.svc.cluster.local`.',
    'up prints "DNS: 127.0.0.1:PORT"; the kube-dns Service carries it as annotation winkube.io/dns-server.',
    '',
    'Flags:',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(argv) {
    const { flags, rest } = parseFlags(argv, FLAGS);
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const level = flags['log-level'] as LogLevel;
    if (!['error', 'warn', 'info', 'debug'].includes(level)) throw new UsageError(`invalid --log-level "${level}"`);
    const port = flags.port as number;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`invalid --port ${port}`);
    const dataDir = resolve(flags['data-dir'] as string);
    const fleetFile = flags.fleet as string | undefined;
    if (fleetFile && !existsSync(fleetFile)) throw new UsageError(`fleet file not found: ${fleetFile}`);
    // Read the fleet before anything starts, so a mistake in it is reported at once.
    let profiles;
    try {
      profiles = loadProfiles(fleetFile);
    } catch (err) {
      process.stderr.write(`winkube up: ${(err as Error).message}\n`);
      return 1;
    }
    // kube-apiserver's start-up checks of --service-cluster-ip-range, before anything starts.
    const serviceCidr = flags['service-cidr'] as string;
    try {
      parseServiceCidrs(serviceCidr);
    } catch (err) {
      throw new UsageError(`invalid --service-cidr "${serviceCidr}": ${(err as Error).message}`);
    }
    // kube-apiserver's start-up check of --authorization-mode, worded as it words it.
    let authorizationModes: string[];
    try {
      authorizationModes = authorizationModesFromFlag(flags['authorization-mode'] as string);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    let maxInFlight: MaxInFlightLimits;
    try {
      maxInFlight = checkMaxInFlight({ readOnly: flags['max-requests-inflight'] as number, mutating: flags['max-mutating-requests-inflight'] as number }, flags['enable-priority-and-fairness'] as boolean);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const storage = flags.storage as string;
    if (storage !== 'sqlite' && storage !== 'etcd') throw new UsageError(`invalid --storage "${storage}": sqlite or etcd`);
    const endpoints = (flags['etcd-endpoints'] as string).split(',').map((e) => e.trim()).filter(Boolean);
    if (storage === 'etcd' && endpoints.length === 0) throw new UsageError('--storage etcd needs --etcd-endpoints');
    for (const e of endpoints) if (!/^http:\/\/[^/]+\/?$/.test(e)) throw new UsageError(`invalid --etcd-endpoints entry "${e}": want http://HOST:PORT`);
    let nodeMonitorGracePeriodMs: number;
    try {
      nodeMonitorGracePeriodMs = parseGoDuration(flags['node-monitor-grace-period'] as string);
    } catch (err) {
      throw new UsageError(`invalid --node-monitor-grace-period: ${(err as Error).message}`);
    }
    let hpaSyncPeriodMs: number;
    try {
      hpaSyncPeriodMs = parseGoDuration(flags['horizontal-pod-autoscaler-sync-period'] as string);
    } catch (err) {
      throw new UsageError(`invalid --horizontal-pod-autoscaler-sync-period: ${(err as Error).message}`);
    }
    let legacyTokenCleanUpPeriodMs: number;
    try {
      legacyTokenCleanUpPeriodMs = positiveDuration(flags['legacy-service-account-token-clean-up-period'] as string);
    } catch (err) {
      throw new UsageError(`invalid --legacy-service-account-token-clean-up-period: ${(err as Error).message}`);
    }
    const logger = createLogger({ level });
    const store = storage === 'etcd' ? new EtcdStore({ endpoints, logger: logger.child('storage/etcd') }) : undefined;
    if (store) {
      try {
        await store.revision(); // fail now, clearly, rather than half-way through start-up
      } catch (err) {
        process.stderr.write(`winkube up: etcd at ${endpoints.join(',')} is not reachable: ${(err as Error).message}\n`);
        await store.close();
        return 1;
      }
    }
    let publish: PortMapping[] = [];
    try {
      publish = String(flags.publish ?? '').split(',').filter((x) => x.trim()).map(parsePortMapping);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const kubeconfig = join(dataDir, 'kubeconfig');
    // A kubeconfig from an earlier run would tell a waiting script the cluster is ready before it is.
    rmSync(kubeconfig, { force: true });
    const started = Date.now();
    const say = (msg: string) => process.stdout.write(`${msg}\n`);
    say(`winkube: starting cluster in ${dataDir}`);
    // Pairs the Windows docs do not list (OS build, runtime, version skew) start anyway; say so up front.
    for (const w of formatFleetWarnings(fleetWarnings(profiles))) say(`  ! warning: ${w}`);
    const dashboardPort = flags['dashboard-port'] as number;
    if (!Number.isInteger(dashboardPort) || dashboardPort < 0 || dashboardPort > 65535) throw new UsageError(`invalid --dashboard-port ${dashboardPort}`);
    const dnsPort = flags['dns-port'] as number;
    if (!Number.isInteger(dnsPort) || dnsPort < 0 || dnsPort > 65535) throw new UsageError(`invalid --dns-port ${dnsPort}`);
    const cluster = new Cluster({
      dataDir, port, profiles, logger, store, progress: (step) => say(`  ✓ ${step}`),
      dashboardPort: flags.dashboard ? dashboardPort : undefined, dnsPort, publish, nodeMonitorGracePeriodMs, hpaSyncPeriodMs, legacyTokenCleanUpPeriodMs, serviceCidr,
      gmsaWebhook: flags['gmsa-webhook'] as boolean, authorizationModes, priorityAndFairness: flags['enable-priority-and-fairness'] as boolean, maxInFlight,
      threads: flags.threads ? { logLevel: level } : undefined,
    });
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      say(`\nwinkube: ${signal} received, stopping…`);
      await cluster.stop();
      say('winkube: stopped');
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
    try {
      await cluster.start();
    } catch (err) {
      process.stderr.write(`winkube up: failed to start: ${(err as Error).message}\n`);
      await cluster.stop().catch(() => {});
      return 1;
    }
    cluster.writeKubeconfig(kubeconfig);
    const secs = ((Date.now() - started) / 1000).toFixed(2);
    say(`winkube: cluster ready in ${secs}s — ${cluster.nodeCount} nodes Ready, API server at ${cluster.serverUrl}`);
    if (cluster.dashboardUrl) say(`dashboard: ${cluster.dashboardUrl}`);
    if (cluster.dnsAddress) say(`DNS: ${cluster.dnsAddress}`);
    for (const p of cluster.publishedPorts) say(`published: ${p}`);
    say(`export KUBECONFIG=${kubeconfig}`);
    await new Promise(() => {}); // serve until a signal arrives
    return 0;
  },
};

/** A Go duration above zero (the legacy token cleaner refuses others: `invalid CleanUpPeriod`). */
function positiveDuration(text: string): number {
  const ms = parseGoDuration(text);
  if (!(ms > 0)) throw new Error('must be greater than 0');
  return ms;
}
