// `winkube controller-manager --kubeconfig K`: the controllers `winkube up` runs, as their own process, leading through
// the kube-system/kube-controller-manager Lease; signs node CSRs with --cluster-signing-cert-file/--key-file. Each
// controller acts as its kube-system ServiceAccount through TokenRequest tokens, as --use-service-account-credentials.

import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { startComponents } from '../cluster/components.js';
import { tokenRequestClientBuilder } from '../controllers/token-client-builder.js';
import { RealClock } from '../util/clock.js';
import type { LogLevel } from '../util/log.js';
import { addLeaderElection, addLogLevel, collect, kubeconfigClient, loggerFor, durationOption, runWhenLeading, serveUntilSignal, type LeaderElectionFlags } from './component-runtime.js';

interface Opts extends LeaderElectionFlags {
  kubeconfig?: string;
  controllers?: string[];
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  rootCaFile?: string;
  nodeMonitorGracePeriod: number;
  horizontalPodAutoscalerSyncPeriod: number;
  legacyServiceAccountTokenCleanUpPeriod: number;
  logLevel: LogLevel;
}

const read = (flag: string, path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new InvalidArgumentError(`${flag}: ${(err as Error).message}`);
  }
};

export function controllerManagerCommand(): Command {
  const cmd = new Command('controller-manager')
    .summary('run the controllers against any API server, with leader election')
    .description([
      'Runs the controllers against the kubeconfig\'s API server. With leader election (the default) they run only while',
      'this process holds the Lease kube-system/kube-controller-manager; a second one waits and takes over when it expires.',
      'With --cluster-signing-cert-file/--cluster-signing-key-file (the cluster CA, <apiserver data-dir>/pki/ca.crt and',
      'ca.key) it approves and signs node certificate requests, which `winkube node --token` needs.',
    ].join(' ').replace(/ {2}/g, '\n\n'))
    .option('--kubeconfig <file>', 'kubeconfig of the API server (default $KUBECONFIG)')
    .option('--controllers <names>', 'controllers to run: * (all), name, -name; comma-separated', collect)
    .option('--cluster-signing-cert-file <file>', 'CA certificate the CSR signer issues with')
    .option('--cluster-signing-key-file <file>', 'its private key')
    .option('--root-ca-file <file>', 'CA published as kube-root-ca.crt in every namespace (default: the kubeconfig\'s CA)')
    .addOption(durationOption('--node-monitor-grace-period <duration>', 'how long a silent node stays Ready', '50s'))
    .addOption(durationOption('--horizontal-pod-autoscaler-sync-period <duration>', 'how often HPAs are evaluated', '15s'))
    .addOption(durationOption('--legacy-service-account-token-clean-up-period <duration>', 'how long an unused auto-generated token Secret lives before it is marked invalid, and again before it is deleted', '8760h0m0s'));
  addLeaderElection(cmd, 'kube-controller-manager');
  addLogLevel(cmd);
  return cmd.action(async (o: Opts) => {
    if (!(o.legacyServiceAccountTokenCleanUpPeriod > 0)) throw new InvalidArgumentError('--legacy-service-account-token-clean-up-period must be greater than 0');
    if (!!o.clusterSigningCertFile !== !!o.clusterSigningKeyFile) throw new InvalidArgumentError('--cluster-signing-cert-file and --cluster-signing-key-file go together');
    const clusterSigning = o.clusterSigningCertFile && o.clusterSigningKeyFile
      ? { cert: read('--cluster-signing-cert-file', o.clusterSigningCertFile), key: read('--cluster-signing-key-file', o.clusterSigningKeyFile) }
      : undefined;
    const client = kubeconfigClient(o.kubeconfig);
    const kubeconfigPath = o.kubeconfig ?? process.env.KUBECONFIG?.split(':')[0];
    const target = loadKubeconfig(kubeconfigPath!);
    const rootCA = o.rootCaFile ? read('--root-ca-file', o.rootCaFile) : target.ca;
    const clock = new RealClock();
    // --use-service-account-credentials, kubeadm's setting: this process's own credentials create each controller's
    // ServiceAccount and its TokenRequest; the controllers then act only as their ServiceAccounts.
    const controllerClients = tokenRequestClientBuilder(target, clock);
    const logger = loggerFor(o.logLevel);
    let running: Awaited<ReturnType<typeof startComponents>> | undefined;
    const election = runWhenLeading({
      flags: o, client, clock, logger, component: 'controller-manager',
      start: async () => {
        running = await startComponents({
          controlPlane: { client: () => client }, controllerClients, clock, logger, profiles: [], run: { controllers: true, scheduler: false, nodes: false },
          rootCA, clusterSigning, controllers: o.controllers, progress: (s) => process.stdout.write(`  ✓ ${s}\n`),
          nodeLifecycle: { monitorGracePeriodMs: o.nodeMonitorGracePeriod }, podAutoscaler: { syncPeriodMs: o.horizontalPodAutoscalerSyncPeriod },
          legacyTokenCleanUpPeriodMs: o.legacyServiceAccountTokenCleanUpPeriod,
        });
      },
    });
    await serveUntilSignal('controller-manager', async () => {
      await running?.stop();
      await election.stop();
      controllerClients.close();
    });
  });
}
