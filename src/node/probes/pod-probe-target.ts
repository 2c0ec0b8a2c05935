// How the kubelet's probers reach a pod: its servers (pod-servers.ts) for httpGet, tcpSocket and grpc, dialled at
// the pod IP from the node; exec runs in the container.

import { podListener, type ProcessListeners } from '../process/pod-servers.js';
import type { PodRuntime } from '../runtime-state.js';
import type { ProbeTarget } from './probe-runner.js';

export function podProbeTarget(rec: PodRuntime, nodeIP: string, exec: ProbeTarget['exec'], opened: ProcessListeners): ProbeTarget {
  // Other addresses are the network model's (issue 9): until then a probe to another host times out.
  const local = (host: string) => host === rec.podIP || host === 'localhost' || host === '127.0.0.1';
  const listener = (port: number) => podListener(rec, port, 'TCP', opened);
  return {
    podIP: rec.podIP ?? '',
    http: async ({ host, port, path, headers }) => {
      if (!local(host)) return { error: 'timeout' };
      const l = listener(port);
      if (!l?.handler) return { error: 'refused' };
      const r = await l.handler({ method: 'GET', path, headers, body: Buffer.alloc(0), remoteAddress: nodeIP, remotePort: 50000, localAddress: rec.podIP ?? '', localPort: port });
      return { status: r.status, body: r.body.toString() };
    },
    tcp: async (host, port) => (!local(host) ? 'timeout' : listener(port) ? 'open' : 'refused'),
    exec,
    // No emulated server speaks grpc.health.v1 yet: a listening port answers Unimplemented.
    grpc: async (port) => (listener(port) ? 'UNIMPLEMENTED' : 'refused'),
  };
}
