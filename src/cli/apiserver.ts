// `winkube apiserver`: the API server alone (what `winkube up` runs first), on SQLite in its data dir or on a shared
// etcd cluster; writes an admin kubeconfig. Several may run on one etcd when they share the CA (<data-dir>/pki).

import { resolve, join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { parseServiceCidrs } from '../apiserver/allocators/service-cidrs.js';
import { caCertHash } from '../bootstrap/ca-hash.js';
import { Cluster } from '../cluster/cluster.js';
import { EtcdStore } from '../storage/etcd/etcd-store.js';
import { addLogLevel, collect, loggerFor, parsePort, serveUntilSignal } from './component-runtime.js';
import type { LogLevel } from '../util/log.js';
import { AUTHORIZATION_MODE_CHOICES, authorizationModesFromFlag, DEFAULT_AUTHORIZATION_MODES } from '../apiserver/authz/modes.js';
import { checkMaxInFlight, type MaxInFlightLimits } from '../apiserver/max-in-flight.js';

interface Opts {
  dataDir: string;
  port: number;
  storage: string;
  etcdServers: string[];
  serviceClusterIpRange: string;
  controlPlaneEndpoint?: string;
  writeKubeconfig?: string;
  authorizationMode: string;
  enablePriorityAndFairness: boolean;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  logLevel: LogLevel;
}

export function apiserverCommand(): Command {
  const cmd = new Command('apiserver')
    .summary('run the API server alone (SQLite, or several on one etcd cluster)')
    .description([
      'Runs the API server alone: HTTPS on 127.0.0.1, state in <data-dir>/state.db (SQLite) or in etcd.',
      'Creates the cluster CA and keys in <data-dir>/pki on first start; further API servers on the same etcd',
      'need the same pki folder (the same --data-dir, or a copy of pki/, as kubeadm copies /etc/kubernetes/pki).',
      'Writes an admin kubeconfig for this server to --write-kubeconfig (default <data-dir>/kubeconfig) and prints',
      'the CA hash joining nodes pin (--discovery-token-ca-cert-hash).',
    ].join(' ').replace(/ {2}/g, '\n\n'))
    .option('--data-dir <dir>', 'certificates, SQLite state and kubeconfig', '.winkube')
    .option('--port <port>', 'HTTPS port on 127.0.0.1; 0 picks a free one', parsePort, 6443)
    .option('--storage <kind>', 'sqlite | etcd', 'sqlite')
    .option('--etcd-servers <urls>', 'with --storage etcd: etcd client URLs, comma-separated (kube-apiserver\'s flag)', collect)
    .option('--service-cluster-ip-range <cidrs>', 'Service ClusterIP ranges: one CIDR, or two of different families', '10.96.0.0/12')
    .option('--control-plane-endpoint <url>', 'the URL joining nodes are told (kube-public/cluster-info); this server when absent')
    .option('--write-kubeconfig <file>', 'where to write the admin kubeconfig (default <data-dir>/kubeconfig)')
    .option('--max-requests-inflight <n>', 'reads in flight; with API Priority and Fairness, summed with --max-mutating-requests-inflight into the seats it shares among its priority levels', Number, 400)
    .option('--max-mutating-requests-inflight <n>', 'writes in flight (see --max-requests-inflight); summed with it into API Priority and Fairness\'s seats', Number, 200)
    .option('--enable-priority-and-fairness [bool]', 'classify, queue and limit requests with API Priority and Fairness; false serves every request at once', (v: string) => v !== 'false', true)
    .option('--authorization-mode <modes>', `ordered list of authorizers after system:masters, comma-separated: ${AUTHORIZATION_MODE_CHOICES.join(',')} (Node, RBAC, AlwaysAllow, AlwaysDeny are served)`, DEFAULT_AUTHORIZATION_MODES.join(','));
  addLogLevel(cmd);
  return cmd.action(async (o: Opts) => {
    if (o.storage !== 'sqlite' && o.storage !== 'etcd') throw new InvalidArgumentError(`invalid --storage "${o.storage}": sqlite or etcd`);
    const endpoints = o.etcdServers ?? [];
    if (o.storage === 'etcd' && !endpoints.length) throw new InvalidArgumentError('--storage etcd needs --etcd-servers');
    for (const e of endpoints) if (!/^http:\/\/[^/]+\/?$/.test(e)) throw new InvalidArgumentError(`invalid --etcd-servers entry "${e}": want http://HOST:PORT`);
    try {
      parseServiceCidrs(o.serviceClusterIpRange);
    } catch (err) {
      throw new InvalidArgumentError(`invalid --service-cluster-ip-range "${o.serviceClusterIpRange}": ${(err as Error).message}`);
    }
    let authorizationModes: string[];
    try {
      authorizationModes = authorizationModesFromFlag(o.authorizationMode);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
    let maxInFlight: MaxInFlightLimits;
    try {
      maxInFlight = checkMaxInFlight({ readOnly: o.maxRequestsInflight, mutating: o.maxMutatingRequestsInflight }, o.enablePriorityAndFairness !== false);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
    const logger = loggerFor(o.logLevel);
    const dataDir = resolve(o.dataDir);
    const store = o.storage === 'etcd' ? new EtcdStore({ endpoints, logger: logger.child('storage/etcd') }) : undefined;
    if (store) await store.revision().catch(async (err) => {
      await store.close();
      throw new Error(`etcd at ${endpoints.join(',')} is not reachable: ${(err as Error).message}`);
    });
    const say = (m: string) => process.stdout.write(`${m}\n`);
    // The same Cluster `winkube up` runs, with no component beside the API server.
    const cluster = new Cluster({
      dataDir, port: o.port, logger, store, serviceCidr: o.serviceClusterIpRange, controlPlaneEndpoint: o.controlPlaneEndpoint,
      components: { controllers: false, scheduler: false, nodes: false }, progress: (s) => say(`  ✓ ${s}`), authorizationModes, priorityAndFairness: o.enablePriorityAndFairness !== false, maxInFlight,
    });
    try {
      await cluster.start();
    } catch (err) {
      await cluster.stop().catch(() => {});
      throw err;
    }
    const kubeconfig = resolve(o.writeKubeconfig ?? join(dataDir, 'kubeconfig'));
    cluster.writeKubeconfig(kubeconfig);
    say(`winkube apiserver: serving at ${cluster.serverUrl}`);
    say(`CA hash: ${caCertHash(cluster.caCert)}`);
    say(`kubeconfig: ${kubeconfig}`);
    await serveUntilSignal('apiserver', () => cluster.stop());
  });
}
