// Runs one probe action (exec, httpGet, tcpSocket, grpc) against a container and words the result as the kubelet's
// probers do (pkg/probe/{exec,http,tcp,grpc}, pkg/kubelet/prober/prober.go runProbe).

import type { Container, Probe } from 'kubernetes-types/core/v1.js';

/** How the probe reaches the container: its pod network and its exec interface. */
export interface ProbeTarget {
  podIP: string;
  /** An HTTP request to ip:port inside the cluster network (the kubelet dials the pod IP from the node). */
  http(req: { host: string; port: number; path: string; scheme: string; headers: Record<string, string>; timeoutMs: number }): Promise<{ status: number; body: string } | { error: 'refused' | 'timeout' | 'unreachable' }>;
  tcp(host: string, port: number, timeoutMs: number): Promise<'open' | 'refused' | 'timeout' | 'unreachable'>;
  exec(argv: string[], timeoutMs: number): Promise<{ exitCode: number; output: string } | { error: string }>;
  /** grpc.health.v1 Check of `service` on port: SERVING, NOT_SERVING, or a connection failure. */
  grpc(port: number, service: string, timeoutMs: number): Promise<'SERVING' | 'NOT_SERVING' | 'UNIMPLEMENTED' | 'refused' | 'timeout'>;
}

export type ProbeOutcome = { ok: true } | { ok: false; message: string };

/** A named port of the container, or the number as given (probe.go findPortByName). */
export function resolvePort(c: Container, port: number | string): number | string {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  const found = c.ports?.find((p) => p.name === port);
  return found ? found.containerPort : `couldn't find port: ${port} in ${JSON.stringify(c.name)}`;
}

export async function runProbe(p: Probe, c: Container, t: ProbeTarget): Promise<ProbeOutcome> {
  const timeoutMs = (p.timeoutSeconds ?? 1) * 1000;
  if (p.exec) {
    const r = await t.exec(p.exec.command ?? [], timeoutMs);
    if ('error' in r) return { ok: false, message: r.error };
    // exec.go: a non-zero exit is a failure whose message is what the command printed.
    return r.exitCode === 0 ? { ok: true } : { ok: false, message: r.output };
  }
  if (p.httpGet) {
    const port = resolvePort(c, p.httpGet.port);
    if (typeof port === 'string') return { ok: false, message: port };
    const scheme = (p.httpGet.scheme ?? 'HTTP').toLowerCase();
    const host = p.httpGet.host || t.podIP;
    const path = p.httpGet.path ? (p.httpGet.path.startsWith('/') ? p.httpGet.path : `/${p.httpGet.path}`) : '/';
    const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
    const headers = Object.fromEntries((p.httpGet.httpHeaders ?? []).map((h) => [h.name, h.value]));
    const r = await t.http({ host, port, path, scheme, headers, timeoutMs });
    if ('error' in r) return { ok: false, message: `Get "${url}": ${dialError(host, port, r.error)}` };
    // http.go: 200–399 succeed; anything else fails with the status code.
    return r.status >= 200 && r.status < 400 ? { ok: true } : { ok: false, message: `HTTP probe failed with statuscode: ${r.status}` };
  }
  if (p.tcpSocket) {
    const port = resolvePort(c, p.tcpSocket.port);
    if (typeof port === 'string') return { ok: false, message: port };
    const host = p.tcpSocket.host || t.podIP;
    const r = await t.tcp(host, port, timeoutMs);
    return r === 'open' ? { ok: true } : { ok: false, message: dialError(host, port, r) };
  }
  if (p.grpc) {
    const service = p.grpc.service ?? '';
    const r = await t.grpc(p.grpc.port, service, timeoutMs);
    if (r === 'SERVING') return { ok: true };
    // grpc.go: connection failures and non-serving answers as the prober words them.
    if (r === 'refused' || r === 'timeout') return { ok: false, message: `timeout: failed to connect service "${t.podIP}:${p.grpc.port}" within ${p.timeoutSeconds ?? 1}s: context deadline exceeded` };
    if (r === 'UNIMPLEMENTED') return { ok: false, message: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): rpc error: code = Unimplemented desc = unknown service grpc.health.v1.Health` };
    return { ok: false, message: `service unhealthy (responded with "${r}")` };
  }
  return { ok: false, message: 'missing probe handler' };
}

/** Go's net dialer errors, as the kubelet's HTTP and TCP probers report them. */
function dialError(host: string, port: number, kind: 'refused' | 'timeout' | 'unreachable'): string {
  const addr = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (kind === 'refused') return `dial tcp ${addr}: connect: connection refused`;
  if (kind === 'unreachable') return `dial tcp ${addr}: connect: no route to host`;
  return `dial tcp ${addr}: i/o timeout`;
}
