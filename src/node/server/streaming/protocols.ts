// Subprotocol names and negotiation for the streaming endpoints (apimachinery util/remotecommand, util/portforward, httpstream).

import type { IncomingMessage } from 'node:http';

export const V5 = 'v5.channel.k8s.io';
/**
 * On a real cluster a v5 (WebSocket) session reaches the kubelet through the API server's stream translator, which
 * first dials the kubelet over SPDY and opens its streams, so the session's first bytes come that much after the
 * upgrade. client-go's WebSocket executor (kubectl 1.30+) creates its streams only after the upgrade and drops
 * messages that come first (`Unknown stream id 1, discarding message`, then `error: closed all streams`): emulated
 * sessions, which could answer at once, wait about as long.
 */
export const V5_TRANSLATOR_SETUP_MS = 3;
export const V4 = 'v4.channel.k8s.io';
export const V3 = 'v3.channel.k8s.io';
export const V2 = 'v2.channel.k8s.io';
export const V1 = 'channel.k8s.io';
export const V4_BASE64 = 'v4.base64.channel.k8s.io';
export const V1_BASE64 = 'base64.channel.k8s.io';

/** What the kubelet's SPDY handshake accepts for exec/attach (SupportedStreamingProtocols, minus the WebSocket-only v5). */
export const SPDY_REMOTE_COMMAND_PROTOCOLS = [V4, V3, V2, V1];

/**
 * WebSocket exec/attach: v5 is what a real API server (1.30+) answers itself; v4, channel.k8s.io and the base64
 * variants are the kubelet's own; v3 and v2 are not offered by a real cluster but client-go's WebSocket executor
 * speaks them, so they are accepted with their SPDY meaning.
 */
export const WS_REMOTE_COMMAND_PROTOCOLS = [V5, V4, V4_BASE64, V3, V2, V1, V1_BASE64];

export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';
/** kubectl 1.31+ tunnels SPDY in WebSocket binary messages under this subprotocol prefix (client-go tunneling_dialer.go). */
export const TUNNEL_PREFIX = 'SPDY/3.1+';
/** The kubelet's channel-based WebSocket port-forward. */
export const WS_PORT_FORWARD_PROTOCOLS = [V4, V4_BASE64];

/** Every value of a header, comma-split and trimmed (Node joins repeated headers with ", "). */
export function headerList(req: IncomingMessage, name: string): string[] {
  const raw = req.headers[name.toLowerCase()];
  const joined = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return joined.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/** wsstream.IsWebSocketRequest: Upgrade is websocket and Connection lists upgrade. */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  const upgrade = String(req.headers.upgrade ?? '');
  if (upgrade.toLowerCase() !== 'websocket') return false;
  return headerList(req, 'connection').some((t) => t.toLowerCase() === 'upgrade');
}

/** spdy.responseUpgrader's check: Connection mentions upgrade and Upgrade mentions SPDY/3.1. */
export function hasSpdyUpgradeHeaders(req: IncomingMessage): boolean {
  const connection = String(req.headers.connection ?? '').toLowerCase();
  const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
  return connection.includes('upgrade') && upgrade.includes('spdy/3.1');
}

/** The first protocol the client offers that the server supports (client preference wins, as in the kubelet). */
export function pickProtocol(offered: string[], supported: string[]): string | undefined {
  return offered.find((p) => supported.includes(p));
}

/** Go's %v of a []string. */
export function goList(items: string[]): string {
  return `[${items.join(' ')}]`;
}

export type HandshakeResult =
  | { protocol: string }
  | { missing: true; message: string }
  | { forbidden: true; message: string; accepted: string[] };

/** httpstream.Handshake on X-Stream-Protocol-Version; the caller writes the failure as its handler would. */
export function spdyHandshake(req: IncomingMessage, supported: string[]): HandshakeResult {
  const offered = headerList(req, 'x-stream-protocol-version');
  if (offered.length === 0) return { missing: true, message: 'unable to upgrade: X-Stream-Protocol-Version is required' };
  const protocol = pickProtocol(offered, supported);
  if (protocol !== undefined) return { protocol };
  return {
    forbidden: true,
    accepted: supported,
    message: `unable to upgrade: unable to negotiate protocol: client supports ${goList(offered)}, server accepts ${goList(supported)}`,
  };
}
