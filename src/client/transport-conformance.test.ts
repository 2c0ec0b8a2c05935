// Runs the Transport conformance suite for both transports against the same kind of control plane:
// in-process, and HTTP over HTTPS with client-certificate authentication through the real front end.

import { STRATEGIES } from '../api/strategies/index.js';
import { HttpFrontEnd } from '../apiserver/http-server.js';
import { createCa, issueCert, SERVER_DNS } from '../apiserver/pki.js';
import { ControlPlane } from '../cluster/control-plane.js';
import { RealClock } from '../util/clock.js';
import { silentLogger } from '../util/log.js';
import { createClient } from './client.js';
import { HttpTransport } from './http-transport.js';
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
