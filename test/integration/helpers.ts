// Shared set-up for integration tests: an in-process control plane on an in-memory store.

import { STRATEGIES } from '../../src/api/strategies/index.js';
import type { Client } from '../../src/client/interfaces.js';
import { ControlPlane } from '../../src/cluster/control-plane.js';
import { RealClock, type Clock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';

export interface TestControlPlane {
  cp: ControlPlane;
  client: Client;
  stop(): Promise<void>;
}

export async function startControlPlane(clock: Clock = new RealClock(), opts: { watchCacheSize?: number } = {}): Promise<TestControlPlane> {
  const cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES, watchCacheSize: opts.watchCacheSize });
  await cp.start();
  return { cp, client: cp.client(), stop: () => cp.stop() };
}

/** Runs one request through the API server core and returns status + body (no client-side error mapping). */
export async function raw(t: TestControlPlane, req: Parameters<Client['transport']['request']>[0]): Promise<{ status: number; body: any }> {
  const res = await t.client.transport.request(req);
  return { status: res.status, body: res.body };
}
