// Sockets programs in a container listen on: registered with the kubelet (ContainerEnv.listen) so probes,
// port-forward and Services reach them, remembered here for netstat and loopback requests, closed on exit.

import type { ContainerEnv, HttpRequest, HttpResponse, Listener } from '../interfaces.js';

const OPEN = new WeakMap<ContainerEnv, Listener[]>();

export function listeners(env: ContainerEnv): readonly Listener[] {
  return OPEN.get(env) ?? [];
}

/** Opens a listening socket until `signal` aborts; 'in-use' when the port is taken. */
export function listen(env: ContainerEnv, l: Listener, signal: AbortSignal): 'ok' | 'in-use' {
  const mine = OPEN.get(env) ?? [];
  if (mine.some((x) => x.port === l.port && x.protocol === l.protocol)) return 'in-use';
  const handle = env.listen?.(l);
  if (handle === 'in-use') return 'in-use';
  mine.push(l);
  OPEN.set(env, mine);
  const close = () => {
    handle?.close();
    const list = OPEN.get(env) ?? [];
    const i = list.indexOf(l);
    if (i >= 0) list.splice(i, 1);
  };
  if (signal.aborted) close();
  else signal.addEventListener('abort', close, { once: true });
  return 'ok';
}

/** Serves a request from a listener in this container (loopback traffic). */
export async function loopback(env: ContainerEnv, port: number, req: HttpRequest): Promise<HttpResponse | undefined> {
  const l = listeners(env).find((x) => x.port === port && x.protocol === 'TCP');
  if (!l) return undefined;
  if (!l.handler) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  return l.handler(req);
}
