// What the separately run components share: commander option parsers, a client from a kubeconfig, leader election
// flags (kube's --leader-elect*), and a stop-on-signal loop that ends the process once everything is stopped.

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { createHttpClient } from '../client/http-transport.js';
import type { Client } from '../client/interfaces.js';
import { LeaderElector, DEFAULT_LEASE_DURATION_MS, DEFAULT_RENEW_DEADLINE_MS, DEFAULT_RETRY_PERIOD_MS } from '../client/leaderelection/leader-elector.js';
import { parseGoDuration } from '../util/go-duration.js';
import type { Clock } from '../util/clock.js';
import { createLogger, type Logger, type LogLevel } from '../util/log.js';

export const parseDuration = (v: string): number => {
  try {
    return parseGoDuration(v);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
};

/** A Go-style duration flag whose help shows its default as kube's flag does ("15s"), not in milliseconds. */
export function durationOption(flags: string, help: string, defaultText: string): Option {
  return new Option(flags, help).argParser(parseDuration).default(parseDuration(defaultText), defaultText);
}

export const parsePort = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('not a port (0-65535)');
  return n;
};

export const parseLevel = (v: string): LogLevel => {
  if (!['error', 'warn', 'info', 'debug'].includes(v)) throw new InvalidArgumentError('error | warn | info | debug');
  return v as LogLevel;
};

export const parseBool = (v: string): boolean => {
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new InvalidArgumentError('true or false');
};

export const collect = (v: string, prev: string[] = []): string[] => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)];

export function addLogLevel(cmd: Command): Command {
  return cmd.option('--log-level <level>', 'error | warn | info | debug', parseLevel, 'info' as LogLevel);
}

/** A client for the kubeconfig's current context (the component's own identity comes from its credentials). */
export function kubeconfigClient(path: string | undefined): Client {
  const file = path ?? process.env.KUBECONFIG?.split(':')[0];
  if (!file) throw new InvalidArgumentError('--kubeconfig is required');
  if (!existsSync(file)) throw new InvalidArgumentError(`no kubeconfig at ${file}`);
  return createHttpClient(file);
}

export interface LeaderElectionFlags {
  leaderElect: boolean;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectRetryPeriod: number;
  leaderElectResourceNamespace: string;
  leaderElectResourceName: string;
}

/** kube-controller-manager's and kube-scheduler's --leader-elect* flags (component-base/config/options). */
export function addLeaderElection(cmd: Command, lockName: string): Command {
  return cmd
    .option('--leader-elect [bool]', 'take part in leader election on a Lease before running; only the leader works (--leader-elect=false: run at once, alone)', parseBool, true)
    .addOption(durationOption('--leader-elect-lease-duration <duration>', 'how long a standby waits, after the last renewal it saw, before taking over', `${DEFAULT_LEASE_DURATION_MS / 1000}s`))
    .addOption(durationOption('--leader-elect-renew-deadline <duration>', 'how long the leader retries renewing before it gives up leading', `${DEFAULT_RENEW_DEADLINE_MS / 1000}s`))
    .addOption(durationOption('--leader-elect-retry-period <duration>', 'how often candidates try to acquire or renew', `${DEFAULT_RETRY_PERIOD_MS / 1000}s`))
    .option('--leader-elect-resource-namespace <ns>', 'namespace of the Lease', 'kube-system')
    .option('--leader-elect-resource-name <name>', 'name of the Lease', lockName);
}

/**
 * Runs `start` now, or once this process leads. Losing the lease ends the process, as kube's components do
 * ("leaderelection lost"): the next leader starts from the API's state, so nothing half-done survives in memory.
 */
export function runWhenLeading(o: { flags: LeaderElectionFlags; client: Client; clock: Clock; logger: Logger; component: string; start: () => Promise<void> }): { stop(): Promise<void> } {
  if (!o.flags.leaderElect) {
    void o.start();
    return { stop: async () => {} };
  }
  // kube's identity: <hostname>_<uuid>, so two candidates on one machine differ.
  const identity = `${hostname()}_${randomUUID()}`;
  const elector = new LeaderElector({
    client: o.client, clock: o.clock, logger: o.logger.child('leaderelection'), identity,
    namespace: o.flags.leaderElectResourceNamespace, name: o.flags.leaderElectResourceName,
    leaseDurationMs: o.flags.leaderElectLeaseDuration, renewDeadlineMs: o.flags.leaderElectRenewDeadline, retryPeriodMs: o.flags.leaderElectRetryPeriod,
  }, {
    onStartedLeading: async () => {
      process.stdout.write(`winkube ${o.component}: leading (lease ${o.flags.leaderElectResourceNamespace}/${o.flags.leaderElectResourceName}, identity ${identity})\n`);
      await o.start();
    },
    onStoppedLeading: () => {
      if (stopping) return;
      process.stderr.write(`winkube ${o.component}: leaderelection lost\n`);
      process.exit(1);
    },
    onNewLeader: (who) => { if (who !== identity) process.stdout.write(`winkube ${o.component}: standby; ${who} leads\n`); },
  });
  let stopping = false;
  process.stdout.write(`winkube ${o.component}: waiting to lead (identity ${identity})\n`);
  elector.run();
  return { stop: async () => { stopping = true; await elector.stop(); } };
}

/** Serves until SIGINT/SIGTERM, then runs `stop` and exits 0. */
export function serveUntilSignal(component: string, stop: () => Promise<void>): Promise<never> {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`winkube ${component}: ${signal} received, stopping…\n`);
    stop().catch(() => {}).finally(() => process.exit(0));
  };
  // The clock's timers are unref'd: without this a standby with nothing but timers would exit at once.
  setInterval(() => {}, 1 << 30);
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
  return new Promise<never>(() => {});
}

export const loggerFor = (level: LogLevel) => createLogger({ level });
