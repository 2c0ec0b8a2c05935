// The worker-thread entry of the scheduler as `winkube up` runs it (component-thread.ts): the same Scheduler as
// in-process, with its client over the thread's MessagePort, identity system:kube-scheduler on the host side.

import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '../../client/client.js';
import { InformerFactory } from '../../client/informer.js';
import { PortTransport } from '../../client/port-transport.js';
import { Scheduler } from '../../scheduler/scheduler.js';
import { RealClock } from '../../util/clock.js';
import { createLogger, type LogLevel } from '../../util/log.js';
import type { ThreadControl } from './component-thread.js';

const port = parentPort!;
const post = (m: ThreadControl) => port.postMessage(m);
const transport = new PortTransport(port);
const client = createClient(transport);
const clock = new RealClock();
const logger = createLogger({ level: (workerData as { logLevel: LogLevel }).logLevel, component: 'scheduler' });
const informers = new InformerFactory({ client, clock, logger });
const scheduler = new Scheduler({ client, informers, clock, logger });

port.on('message', (m: ThreadControl) => {
  if (m?.t !== 'shutdown') return;
  scheduler.stop();
  informers.stop();
  transport.close();
  post({ t: 'stopped' });
});

scheduler.start().then(() => post({ t: 'started' }), (err: unknown) => post({ t: 'failed', error: String(err) }));
