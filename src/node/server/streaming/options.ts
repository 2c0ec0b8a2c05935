// Query options of exec/attach (stdin, stdout, stderr, tty, command) and port-forward (ports), validated like the kubelet.

import type { StreamOptions } from './types.js';

/**
 * The kubelet compares these with "1" (the API server rewrites PodExecOptions to 1 when it proxies); clients that
 * reach this server directly send "true". Go's strconv.ParseBool spellings of true are all accepted.
 */
const TRUE_VALUES = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

function flag(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  return v !== null && TRUE_VALUES.has(v);
}

/**
 * Parses exec/attach options as pkg/kubelet/cri/streaming/remotecommand NewOptions does: tty drops stderr (the
 * terminal merges it into stdout), and at least one stream is required. `command` (repeated) is read for exec; an
 * empty command is not rejected here, as the kubelet passes it to the runtime, which is where it fails.
 */
export function parseStreamOptions(query: URLSearchParams, withCommand: boolean): { options: StreamOptions; command: string[] } | { error: string } {
  const tty = flag(query, 'tty');
  const stdin = flag(query, 'stdin');
  const stdout = flag(query, 'stdout');
  const stderr = flag(query, 'stderr') && !tty;
  if (!stdin && !stdout && !stderr) return { error: 'you must specify at least 1 of stdin, stdout, stderr' };
  return { options: { stdin, stdout, stderr, tty }, command: withCommand ? query.getAll('command') : [] };
}

/** Go's strconv.ParseUint(s, 10, 16), with its error text. */
function parsePort(s: string): number | { error: string } {
  if (!/^[0-9]+$/.test(s)) return { error: `strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax` };
  const n = Number(s);
  if (n > 0xffff) return { error: `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range` };
  return n;
}

/**
 * Ports of a channel-based WebSocket port-forward (kubelet portforward NewV4Options). The kubelet reads `port`
 * (the API server rewrites the client's `ports` to it); clients talking to this server directly send `ports`.
 */
export function parsePortForwardPorts(query: URLSearchParams): { ports: number[] } | { error: string } {
  const values = [...query.getAll('ports'), ...query.getAll('port')];
  if (values.length === 0) return { error: 'query parameter "port" is required' };
  const ports: number[] = [];
  for (const value of values) {
    if (value.length === 0) return { error: 'query parameter "port" cannot be empty' };
    for (const p of value.split(',')) {
      const port = parsePort(p);
      if (typeof port !== 'number') return { error: `unable to parse ${JSON.stringify(value)} as a port: ${port.error}` };
      if (port < 1) return { error: `port ${JSON.stringify(value)} must be > 0` };
      ports.push(port);
    }
  }
  return { ports };
}

/** Validates the `port` header of a SPDY port-forward stream (kubelet httpStreamReceived); the error is only logged there. */
export function parseStreamPort(value: string): number | { error: string } {
  if (value.length === 0) return { error: '"port" header is required' };
  const port = parsePort(value);
  if (typeof port !== 'number') return { error: `unable to parse ${JSON.stringify(value)} as a port: ${port.error}` };
  if (port < 1) return { error: `port ${JSON.stringify(value)} must be > 0` };
  return port;
}
