// Runs the Transport conformance suite for every transport against the same kind of control plane: in-process, over
// a MessagePort (worker-thread components), and HTTP over HTTPS with client-certificate authentication.

import assert from 'node:assert/strict';
import { STRATEGIES } from '../api/strategies/index.js';
import { HttpFrontEnd } from '../apiserver/http-server.js';
import { createCa, issueCert, SERVER_DNS } from '../apiserver/pki.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { RealClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { createClient } from './client.js';
import { HttpTransport } from './http-transport.js';
import { InProcessTransport } from './in-process.js';
import { PortTransport, servePort } from './port-transport.js';
import { MessageChannel } from 'node:worker_threads';
import { transportConformance } from './transport-conformance.js';

// Small enough that the 410 case needs only a few dozen writes.
const WATCH_WINDOW = 25;

async function controlPlane(): Promise<ControlPlane> {
  const cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES, watchCacheSize: WATCH_WINDOW });
  await cp.start();
  return cp;
}

transportConformance('in-process', async () => {
  const cp = await controlPlane();
  return { client: cp.client(), watchWindow: WATCH_WINDOW, stop: () => cp.stop() };
});

transportConformance('message port (a component in a worker thread)', async () => {
  const cp = await controlPlane();
  const { port1, port2 } = new MessageChannel();
  const endWatches = servePort(port2, new InProcessTransport(cp.api));
  const transport = new PortTransport(port1);
  return {
    client: createClient(transport),
    watchWindow: WATCH_WINDOW,
    stop: async () => {
      transport.close();
      endWatches();
      port1.close();
      await cp.stop();
    },
  };
});

transportConformance('message port, as a further identity (PortTransport.as)', async () => {
  const cp = await controlPlane();
  const { port1, port2 } = new MessageChannel();
  const endWatches = servePort(port2, { request: () => Promise.reject(new Error('not this identity')), watch: () => Promise.reject(new Error('not this identity')) },
    (name) => (name === 'admin' ? new InProcessTransport(cp.api) : assert.fail(`unexpected identity ${name}`)));
  const shared = new PortTransport(port1);
  return {
    client: createClient(shared.as('admin')),
    watchWindow: WATCH_WINDOW,
    stop: async () => {
      shared.close();
      endWatches();
      port1.close();
      await cp.stop();
    },
  };
});

transportConformance('HTTPS', async () => {
  const cp = await controlPlane();
  const ca = createCa();
  const server = issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } });
  const admin = issueCert(ca, { cn: 'conformance-admin', orgs: ['system:masters'] });
  const front = new HttpFrontEnd({ api: cp.api, logger: silentLogger, tls: { ...server, ca: ca.cert }, port: 0 });
  const port = await front.listen();
  const transport = new HttpTransport({ server: `https://127.0.0.1:${port}`, ca: ca.cert, cert: admin.cert, key: admin.key });
  return {
    client: createClient(transport),
    watchWindow: WATCH_WINDOW,
    stop: async () => {
      transport.close();
      await front.close();
      await cp.stop();
    },
  };
});
