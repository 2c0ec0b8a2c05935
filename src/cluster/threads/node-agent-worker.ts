// The worker-thread entry of the node agent as `winkube up` runs it (component-thread.ts): the same NodeAgent as
// in-process, its shared informers over the thread's port as system:winkube:node-agent and each kubelet's requests
// over the same port as its node (PortTransport.as), which the host serves as system:node:<name>. The published
// NodePorts listen here, beside the network model they enter.

import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '../../client/client.js';
import type { Client } from '../../client/interfaces.js';
import { PortTransport } from '../../client/port-transport.js';
import { PublishedPort } from '../../network/publish/published-ports.js';
import { NodeAgent } from '../../node/agent.js';
import { RealClock } from '../../util/clock.js';
import { createLogger, type LogLevel } from '../../util/log.js';
import type { ThreadControl } from './component-thread.js';
import type { NodeAgentThreadData } from './node-agent-thread.js';

const port = parentPort!;
const post = (m: ThreadControl) => port.postMessage(m);
const data = workerData as NodeAgentThreadData & { logLevel: LogLevel };
const transport = new PortTransport(port);
const perNode = new Map<string, Client>();
const clock = new RealClock();
const logger = createLogger({ level: data.logLevel }).child('node-agent');
const agent = new NodeAgent({
  ...data.options, client: createClient(transport), clock, logger, slicedStages: true,
  clientFor: data.perNodeIdentity
    ? (node) => {
      let c = perNode.get(node);
      if (!c) perNode.set(node, (c = createClient(transport.as(node))));
      return c;
    }
    : undefined,
});
const published: PublishedPort[] = [];

async function start(): Promise<void> {
  await agent.start();
  for (const m of data.publish) {
    const p = new PublishedPort(agent.network, m);
    await p.listen();
    published.push(p);
  }
}

port.on('message', (m: ThreadControl) => {
  if (m?.t !== 'shutdown') return;
  void Promise.all(published.map((p) => p.close())).then(() => {
    agent.stop();
    transport.close();
    post({ t: 'stopped' });
  });
});

start().then(
  () => post({ t: 'started', published: published.map((p) => p.port) }),
  (err: unknown) => post({ t: 'failed', error: String(err) }),
);
