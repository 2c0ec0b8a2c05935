// Starts the node agent in a worker thread (node-agent-worker.ts) with the settings `winkube up` gives the
// in-process one: its kubelets act as their nodes through clients the host serves, its NodePorts publish from there.

import type { Client } from '../../client/interfaces.js';
import type { PortMapping } from '../../network/publish/published-ports.js';
import type { NodeAgentOptions } from '../../node/agent.js';
import type { Logger, LogLevel } from '../../util/log.js';
import { startComponentThread, type ComponentThread } from './component-thread.js';

/** What crosses into the worker: plain settings (profiles, certificates and addresses clone as data). */
export interface NodeAgentThreadData {
  options: Pick<NodeAgentOptions, 'profiles' | 'serverTls' | 'serviceCIDR' | 'serviceCIDRv6' | 'apiServer' | 'volumeDir'>;
  /** Whether kubelets act as their own nodes (nodeClient given) or through the agent's client. */
  perNodeIdentity: boolean;
  publish: PortMapping[];
}

export interface NodeAgentThread extends ComponentThread {
  /** The published NodePorts and the loopback port each listens on, in the order asked for. */
  readonly published: { port: number; mapping: PortMapping }[];
}

export async function startNodeAgentThread(opts: {
  own: Client;
  nodeClient?: (node: string) => Client;
  options: NodeAgentThreadData['options'];
  publish: PortMapping[];
  logger: Logger;
  logLevel: LogLevel;
}): Promise<NodeAgentThread> {
  const data: NodeAgentThreadData = { options: opts.options, perNodeIdentity: opts.nodeClient !== undefined, publish: opts.publish };
  const nodeClient = opts.nodeClient;
  const thread = await startComponentThread({
    entry: new URL('./node-agent-worker.js', import.meta.url), transport: opts.own.transport, logger: opts.logger,
    logLevel: opts.logLevel, workerData: { ...data },
    ...(nodeClient ? { identity: (node: string) => nodeClient(node).transport } : {}),
  });
  // A restarted thread listens again on the same host ports, or on new ones where the mapping asked for port 0.
  const ports = thread.started?.published ?? [];
  return Object.assign(thread, { published: opts.publish.map((mapping, i) => ({ port: ports[i] ?? 0, mapping })) });
}
