// Starts the controller-manager in a worker thread (controller-manager-worker.ts) with the settings `winkube up`
// gives the in-process one, each controller acting as its kube-system ServiceAccount through the host's clients.

import type { Client } from '../../client/interfaces.js';
import { controllerUserAgent, serviceAccountUser, type ComponentUser } from '../../controllers/identity.js';
import type { ControllerManagerOptions } from '../../controllers/manager.js';
import type { Logger, LogLevel } from '../../util/log.js';
import { startComponentThread, type ComponentThread } from './component-thread.js';

/** What crosses into the worker: plain settings, and the signing key (KeyObjects clone across threads). */
export interface ControllerManagerThreadData {
  options: Pick<ControllerManagerOptions, 'rootCA' | 'clusterSigning' | 'controllers' | 'nodeLifecycle' | 'podAutoscaler' | 'podEventBatchMs' | 'legacyTokenCleanUpPeriodMs'> & {
    signer?: { keys: NonNullable<ControllerManagerOptions['serviceAccountTokenSigner']>['keys']; issuer: string };
  };
}

export async function startControllerManagerThread(opts: {
  own: Client;
  clientFor: (user: ComponentUser, userAgent: string) => Client;
  options: Omit<ControllerManagerOptions, 'client' | 'clients' | 'clock' | 'logger' | 'recorder' | 'informers' | 'registry'>;
  logger: Logger;
  logLevel: LogLevel;
}): Promise<ComponentThread> {
  const { serviceAccountTokenSigner: signer, ...rest } = opts.options;
  const data: ControllerManagerThreadData = {
    options: { ...rest, ...(signer ? { signer: { keys: signer.keys, issuer: signer.issuer } } : {}) },
  };
  return startComponentThread({
    entry: new URL('./controller-manager-worker.js', import.meta.url), transport: opts.own.transport, logger: opts.logger,
    logLevel: opts.logLevel, workerData: { ...data },
    identity: (name) => opts.clientFor(serviceAccountUser(name), controllerUserAgent(name)).transport,
  });
}
