// How the kubelet's probers reach a pod: its servers (pod-servers.ts) for httpGet, tcpSocket and grpc, dialled at
// the pod IP from the node; exec runs in the container.

import type { Clock } from '../../util/clock.js';
import { serverOnPort } from '../process/pod-servers.js';
import type { PodRuntime } from '../runtime-state.js';
import type { ProbeTarget } from './probe-runner.js';

export function podProbeTarget(rec: PodRuntime, clock: Clock, nodeIP: string, exec: ProbeTarget['exec']): ProbeTarget {
  // Other addresses are the network model's (issue 9): until then a probe to another host times out.
  const local = (host: string) => host === rec.podIP || host === 'localhost' || host === '127.0.0.1';
  return {
    podIP: rec.podIP ?? '',
    http: async ({ host, port, path }) => {
      if (!local(host)) return { error: 'timeout' };
      const s = serverOnPort(rec, port);
      if (!s?.server.http) return { error: 'refused' };
      const q = path.indexOf('?');
      const a = s.server.http({
        method: 'GET', path: q < 0 ? path : path.slice(0, q), query: new URLSearchParams(q < 0 ? '' : path.slice(q + 1)),
        uptimeMs: clock.now() - s.startedAt, now: clock.now(), clientIP: nodeIP,
      });
      return { status: a.status, body: a.body };
    },
    tcp: async (host, port) => (!local(host) ? 'timeout' : serverOnPort(rec, port) ? 'open' : 'refused'),
    exec,
    // No catalogued server speaks grpc.health.v1 yet: a listening port answers Unimplemented.
    grpc: async (port) => (serverOnPort(rec, port) ? 'UNIMPLEMENTED' : 'refused'),
  };
}
