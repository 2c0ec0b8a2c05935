// The servers listening in a pod's network namespace: every running container's, on the ports its process serves.
// Probes, port-forward and exec's network commands reach a pod through this.

import { imageConfig, lookupImage } from '../images/catalogue.js';
import { serversOf, type ServerModel } from '../images/servers.js';
import type { ContainerRuntime, PodRuntime } from '../runtime-state.js';
import { processArgv } from './argv.js';
import type { Listener } from '../shell/interfaces.js';

export interface ListeningServer {
  container: ContainerRuntime;
  server: ServerModel;
  startedAt: number;
}

/** Servers of the pod's running containers (they share the pod's network namespace, as on Linux and Windows). */
export function podServers(rec: PodRuntime): ListeningServer[] {
  const out: ListeningServer[] = [];
  for (const c of rec.containers) {
    if (c.state !== 'running' && c.state !== 'killing') continue;
    const spec = (c.init ? rec.pod.spec?.initContainers : rec.pod.spec?.containers)?.find((s) => s.name === c.name);
    const img = lookupImage(c.image);
    if (!spec || !img) continue;
    const argv = processArgv(spec, imageConfig(img), c.env);
    const hostname = rec.pod.spec?.hostname ?? rec.pod.metadata?.name ?? '';
    for (const server of serversOf({ repository: img.ref.repository, argv, hostname, podIP: rec.podIP ?? '' })) {
      out.push({ container: c, server, startedAt: c.startedAt ?? 0 });
    }
  }
  return out;
}

/** The server on a TCP port of the pod, if any. */
export function serverOnPort(rec: PodRuntime, port: number, protocol: 'TCP' | 'UDP' = 'TCP'): ListeningServer | undefined {
  return podServers(rec).find((s) => s.server.port === port && s.server.protocol === protocol);
}

/** The servers a container's interpreted process registered (env.listen), by container. */
export type ProcessListeners = Map<ContainerRuntime, Listener[]>;

/**
 * What listens on a port of the pod, as a socket: a server the container's own process opened, else one the server
 * catalogue says the image runs.
 */
export function podListener(rec: PodRuntime, port: number, protocol: 'TCP' | 'UDP', now: number, opened?: ProcessListeners): Listener | undefined {
  for (const c of rec.containers) {
    if (c.state !== 'running' && c.state !== 'killing') continue;
    const l = opened?.get(c)?.find((x) => x.port === port && x.protocol === protocol);
    if (l) return l;
  }
  const s = serverOnPort(rec, port, protocol);
  if (!s) return undefined;
  const http = s.server.http;
  return {
    port, protocol, program: s.container.name,
    handler: http && (async (req) => {
      const q = req.path.indexOf('?');
      const a = http({
        method: req.method, path: q < 0 ? req.path : req.path.slice(0, q), query: new URLSearchParams(q < 0 ? '' : req.path.slice(q + 1)),
        uptimeMs: now - s.startedAt, now, clientIP: req.remoteAddress,
      });
      return { status: a.status, headers: { 'content-type': a.contentType, 'content-length': String(Buffer.byteLength(a.body)) }, body: Buffer.from(a.body) };
    }),
  };
}
