// A stand-in for the kubelet in controller tests: marks pods Running and Ready with an IP.

import { R } from '../../client/resources.js';
import { rfc3339 } from '../../util/clock.js';
import type { PodObj } from '../util/types.js';
import type { FakeClient } from './fake-client.js';
import type { FakeClock } from '../../util/clock.js';

let ipSeq = 1;

/** Makes every pod that is not yet ready Running+Ready now; returns how many changed. */
export async function markPodsReady(client: FakeClient, clock: FakeClock, namespace: string): Promise<number> {
  let n = 0;
  for (const p of client.all<PodObj>(R.pods, namespace)) {
    if (p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
    const ip = `10.244.0.${ipSeq++ % 250 + 2}`;
    const status = {
      phase: 'Running', podIP: ip, podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(clock.now()) }],
    };
    await client.update(R.pods, namespace, { ...p, spec: { ...p.spec!, nodeName: p.spec?.nodeName ?? 'node-1' }, status } as PodObj, { subresource: 'status' });
    n++;
  }
  return n;
}
