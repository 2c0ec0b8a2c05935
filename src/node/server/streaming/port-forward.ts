// upgradePortForward: negotiates a port-forward upgrade: raw SPDY/3.1, SPDY tunneled in WebSocket, or channel WebSocket.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createWebSocketStream } from 'ws';
import { goHeaderDump, writeGoHttpError, writeRawResponse, writeRestfulError, writeSwitchingProtocols } from './http-reply.js';
import { parsePortForwardPorts } from './options.js';
import { startSpdyPortForward } from './port-forward-spdy.js';
import { startWebSocketPortForward } from './port-forward-ws.js';
import {
  PORT_FORWARD_PROTOCOL, TUNNEL_PREFIX, WS_PORT_FORWARD_PROTOCOLS, hasSpdyUpgradeHeaders, isWebSocketRequest, pickProtocol, spdyHandshake,
} from './protocols.js';
import { DEFAULT_STREAM_CREATION_TIMEOUT_MS } from './remote-command.js';
import { acceptWebSocket, offeredSubprotocols, rejectSubprotocols } from './ws-channels.js';
import type { PortForwardHandle, PortForwardStream, StreamingConfig } from './types.js';

const SUPPORTED = [PORT_FORWARD_PROTOCOL];

/**
 * Upgrades a port-forward request and calls onStream once per forwarded connection. A WebSocket offering
 * `SPDY/3.1+portforward.k8s.io` is a tunnel (kubectl 1.31+); any other WebSocket is the channel protocol with
 * `?ports=` (or the kubelet's `?port=`); everything else is raw SPDY/3.1 (kubectl up to 1.30). On failure the HTTP
 * answer is written on the socket and the promise resolves undefined.
 */
export async function upgradePortForward(
  req: IncomingMessage, socket: Duplex, head: Buffer, onStream: (s: PortForwardStream) => void, config: StreamingConfig = {},
): Promise<PortForwardHandle | undefined> {
  socket.on('error', () => socket.destroy());
  const timeout = config.streamCreationTimeoutMs ?? DEFAULT_STREAM_CREATION_TIMEOUT_MS;
  try {
    if (isWebSocketRequest(req)) {
      const offered = offeredSubprotocols(req);
      const tunneled = offered.filter((p) => p.startsWith(TUNNEL_PREFIX) && p.endsWith(PORT_FORWARD_PROTOCOL)).map((p) => p.slice(TUNNEL_PREFIX.length));
      if (tunneled.length > 0) return await tunnel(req, socket, head, tunneled, onStream, timeout, config);

      const query = new URL(req.url ?? '/', 'http://kubelet').searchParams;
      const parsed = parsePortForwardPorts(query);
      if ('error' in parsed) {
        writeRestfulError(socket, 400, parsed.error);
        return undefined;
      }
      const protocol = offered.length === 0 ? '' : pickProtocol(offered, WS_PORT_FORWARD_PROTOCOLS);
      if (protocol === undefined) {
        rejectSubprotocols(socket);
        return undefined;
      }
      const ws = await acceptWebSocket(req, socket, head, protocol);
      return ws ? startWebSocketPortForward(ws, protocol, parsed.ports, onStream) : undefined;
    }

    const hs = spdyHandshake(req, SUPPORTED);
    if ('missing' in hs) {
      // The kubelet's port-forward handler only logs this and returns without writing: Go answers an empty 200.
      writeRawResponse(socket, 200, []);
      return undefined;
    }
    if ('forbidden' in hs) {
      writeGoHttpError(socket, 403, hs.message, hs.accepted.map((p) => ['X-Accepted-Stream-Protocol-Versions', p]));
      return undefined;
    }
    if (!hasSpdyUpgradeHeaders(req)) {
      writeGoHttpError(socket, 400, `unable to upgrade: missing upgrade headers in request: ${goHeaderDump(req)}`, [['X-Stream-Protocol-Version', hs.protocol]]);
      return undefined;
    }
    writeSwitchingProtocols(socket, [['Connection', 'Upgrade'], ['Upgrade', 'SPDY/3.1'], ['X-Stream-Protocol-Version', hs.protocol]]);
    return startSpdyPortForward({ transport: socket, head, onStream, streamCreationTimeoutMs: timeout, logger: config.logger });
  } catch (err) {
    config.logger?.warn('port-forward upgrade failed', { error: String(err) });
    socket.destroy();
    return undefined;
  }
}

/**
 * The API server's TunnelingHandler: the WebSocket subprotocol carries the SPDY protocol to negotiate; once upgraded
 * every binary message is SPDY bytes. A negotiation failure is the kubelet's raw 403, relayed as is.
 */
async function tunnel(
  req: IncomingMessage, socket: Duplex, head: Buffer, spdyProtocols: string[], onStream: (s: PortForwardStream) => void, timeout: number, config: StreamingConfig,
): Promise<PortForwardHandle | undefined> {
  const protocol = pickProtocol(spdyProtocols, SUPPORTED);
  if (protocol === undefined) {
    writeGoHttpError(socket, 403, `unable to upgrade: unable to negotiate protocol: client supports [${spdyProtocols.join(' ')}], server accepts [${SUPPORTED.join(' ')}]`,
      SUPPORTED.map((p) => ['X-Accepted-Stream-Protocol-Versions', p]));
    return undefined;
  }
  const ws = await acceptWebSocket(req, socket, head, TUNNEL_PREFIX + protocol);
  if (!ws) return undefined;
  const transport = createWebSocketStream(ws);
  transport.on('error', () => transport.destroy());
  return startSpdyPortForward({
    transport, head: Buffer.alloc(0), onStream, streamCreationTimeoutMs: timeout, logger: config.logger,
    // client-go reads only close code 1000 as a clean end of the tunnel.
    endTransport: () => (ws.readyState === ws.OPEN ? ws.close(1000) : ws.terminate()),
  });
}
