// What listens in a pod's network namespace: the sockets its containers' processes opened (the emulated shells'
// servers: nginx, agnhost, httpd, IIS, the seed's HttpListener script …). Probes, port-forward and the flat network
// reach a pod through this.

import type { Listener } from '../shell/interfaces.js';
import type { ContainerRuntime, PodRuntime } from '../runtime-state.js';

/** The sockets each container's process opened. */
export type ProcessListeners = (c: ContainerRuntime) => Listener[] | undefined;

/** The listener on a port of the pod, among its running containers (they share the pod's network namespace). */
export function podListener(rec: PodRuntime, port: number, protocol: 'TCP' | 'UDP', opened: ProcessListeners): Listener | undefined {
  for (const c of rec.containers) {
    if (c.state !== 'running' && c.state !== 'killing') continue;
    const l = opened(c)?.find((x) => x.port === port && x.protocol === protocol);
    if (l) return l;
  }
  return undefined;
}
