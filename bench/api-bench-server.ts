// The server half of bench/api.bench.ts, run as its own process: a winkube control plane (SQLite in a data
// directory) behind the HTTPS front end on a loopback port. It writes a kubeconfig there and says "ready" over IPC.

import { join } from 'node:path';
import { STRATEGIES } from '../src/api/strategies/index.js';
import { HttpFrontEnd } from '../src/apiserver/http-server.js';
import { createCa, issueCert, SERVER_DNS } from '../src/apiserver/pki.js';
import { ControlPlane } from '../src/cluster/control-plane.js';
import { writeKubeconfig } from '../src/cluster/kubeconfig.js';
import { RealClock } from '../src/util/clock.js';
import { silentLogger } from '../src/util/log.js';

const dataDir = process.argv[2];
if (!dataDir || !process.send) throw new Error('usage: forked by bench/api.bench.ts with a data directory');

const cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES, dataDir });
await cp.start();
const ca = createCa();
const pki = {
  ca,
  server: issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } }),
  admin: issueCert(ca, { cn: 'kubernetes-admin', orgs: ['system:masters'] }),
};
const front = new HttpFrontEnd({ api: cp.api, logger: silentLogger, tls: { ...pki.server, ca: ca.cert }, host: '127.0.0.1', port: 0 });
const port = await front.listen();
const kubeconfig = join(dataDir, 'kubeconfig');
writeKubeconfig(kubeconfig, `https://127.0.0.1:${port}`, pki);
const cpu0 = process.cpuUsage();
process.send({ ready: true, kubeconfig });

process.on('message', async (msg: { stop?: boolean }) => {
  if (!msg.stop) return;
  const cpu = process.cpuUsage(cpu0);
  process.send!({ cpuMs: Math.round((cpu.user + cpu.system) / 1000) });
  await front.close();
  await cp.stop();
  process.exit(0);
});
// The parent going away (Ctrl-C, crash) must not leave a server behind.
process.on('disconnect', () => process.exit(0));
