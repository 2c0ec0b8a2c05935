// The worker-thread entry of the controller-manager as `winkube up` runs it (component-thread.ts): the same
// ControllerManager as in-process; its own client over the thread's port, and each controller's ServiceAccount client
// over the same port as that identity, which the host serves (PortTransport.as).

import { parentPort, workerData } from 'node:worker_threads';
import { TokenSigner } from '../../apiserver/authn/service-account-token.js';
import { createClient } from '../../client/client.js';
import { createEventRecorder } from '../../client/event-recorder.js';
import type { Client } from '../../client/interfaces.js';
import { limitInFlight } from '../../client/in-flight-limit.js';
import { PortTransport } from '../../client/port-transport.js';
import { MAX_IN_FLIGHT_PER_CONTROLLER, type ControllerClientBuilder } from '../../controllers/identity.js';
import { ControllerManager } from '../../controllers/manager.js';
import { RealClock } from '../../util/clock.js';
import { createLogger, type LogLevel } from '../../util/log.js';
import type { ThreadControl } from './component-thread.js';
import type { ControllerManagerThreadData } from './controller-manager-thread.js';

const port = parentPort!;
const post = (m: ThreadControl) => port.postMessage(m);
const data = workerData as ControllerManagerThreadData & { logLevel: LogLevel };
const transport = new PortTransport(port);
const own = createClient(transport);
const perAccount = new Map<string, Client>();
const clients: ControllerClientBuilder = {
  own,
  forServiceAccount(name) {
    let c = perAccount.get(name);
    // Each controller's requests are capped on its own (its own APF flow, as client-go gives each controller client
    // its own rate limiter); the manager's own client, which renews its leader lease, is never held back.
    if (!c) perAccount.set(name, (c = createClient(limitInFlight(transport.as(name), MAX_IN_FLIGHT_PER_CONTROLLER))));
    return c;
  },
};
const clock = new RealClock();
const logger = createLogger({ level: data.logLevel }).child('controller-manager');
const { signer, ...options } = data.options;
const cm = new ControllerManager({
  ...options, client: own, clients, clock, logger,
  serviceAccountTokenSigner: signer ? new TokenSigner(signer.keys, signer.issuer) : undefined,
  recorder: (component, client) => createEventRecorder({ client, clock, logger, component }),
});

port.on('message', (m: ThreadControl) => {
  if (m?.t !== 'shutdown') return;
  cm.stop();
  transport.close();
  post({ t: 'stopped' });
});

cm.start().then(
  () => post({ t: 'started', detail: `${cm.controllers.length} controllers` }),
  (err: unknown) => post({ t: 'failed', error: String(err) }),
);
