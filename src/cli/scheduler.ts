// `winkube scheduler --kubeconfig K`: the scheduler `winkube up` runs, as its own process, leading through the
// kube-system/kube-scheduler Lease so a standby can wait beside it.

import { Command } from 'commander';
import { startComponents } from '../cluster/components.js';
import { RealClock } from '../util/clock.js';
import type { LogLevel } from '../util/log.js';
import { addLeaderElection, addLogLevel, kubeconfigClient, loggerFor, runWhenLeading, serveUntilSignal, type LeaderElectionFlags } from './component-runtime.js';

interface Opts extends LeaderElectionFlags {
  kubeconfig?: string;
  logLevel: LogLevel;
}

export function schedulerCommand(): Command {
  const cmd = new Command('scheduler')
    .summary('run the scheduler against any API server, with leader election')
    .description('Runs the scheduler against the kubeconfig\'s API server. With leader election (the default) it works only while it holds the Lease kube-system/kube-scheduler; a second one waits and takes over when the lease expires.')
    .option('--kubeconfig <file>', 'kubeconfig of the API server (default $KUBECONFIG)');
  addLeaderElection(cmd, 'kube-scheduler');
  addLogLevel(cmd);
  return cmd.action(async (o: Opts) => {
    const client = kubeconfigClient(o.kubeconfig);
    const clock = new RealClock();
    const logger = loggerFor(o.logLevel);
    let running: Awaited<ReturnType<typeof startComponents>> | undefined;
    const election = runWhenLeading({
      flags: o, client, clock, logger, component: 'scheduler',
      start: async () => {
        running = await startComponents({
          controlPlane: { client: () => client }, clock, logger, profiles: [], run: { controllers: false, scheduler: true, nodes: false },
          progress: (s) => process.stdout.write(`  ✓ ${s}\n`),
        });
      },
    });
    await serveUntilSignal('scheduler', async () => {
      await running?.stop();
      await election.stop();
    });
  });
}
