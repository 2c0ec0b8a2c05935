// upgradeRemoteCommand: negotiates an exec/attach upgrade (WebSocket or SPDY/3.1) the way the kubelet and API server do.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { goHeaderDump, writeGoHttpError, writeSwitchingProtocols } from './http-reply.js';
import {
  SPDY_REMOTE_COMMAND_PROTOCOLS, WS_REMOTE_COMMAND_PROTOCOLS, hasSpdyUpgradeHeaders, isWebSocketRequest, pickProtocol, spdyHandshake,
} from './protocols.js';
import { startSpdyRemoteCommand } from './remote-command-spdy.js';
import { WebSocketRemoteCommand } from './remote-command-ws.js';
import { acceptWebSocket, offeredSubprotocols, rejectSubprotocols } from './ws-channels.js';
import type { RemoteCommandSession, RemoteCommandTarget, StreamOptions, StreamingConfig } from './types.js';

/** kubelet DefaultStreamCreationTimeout */
export const DEFAULT_STREAM_CREATION_TIMEOUT_MS = 30_000;

export type RemoteCommandConfig = StreamingConfig & Partial<RemoteCommandTarget>;

/** exec or attach and the command, from the config or else the URL (kubelet /exec/… /attach/… or API …/exec, …/attach). */
function resolveTarget(req: IncomingMessage, cfg: RemoteCommandConfig): RemoteCommandTarget {
  let url: URL | undefined;
  try {
    url = new URL(req.url ?? '/', 'http://kubelet');
  } catch {
    url = undefined;
  }
  const segments = url?.pathname.split('/') ?? [];
  return {
    operation: cfg.operation ?? (segments.includes('attach') && !segments.includes('exec') ? 'attach' : 'exec'),
    command: cfg.command ?? url?.searchParams.getAll('command') ?? [],
  };
}

/**
 * Negotiates and upgrades an exec/attach request. WebSocket: the first of the client's subprotocols among v5, v4,
 * v4.base64, v3, v2, channel.k8s.io, base64.channel.k8s.io (none named: plain channel.k8s.io framing). SPDY/3.1:
 * X-Stream-Protocol-Version among v4, v3, v2, channel.k8s.io, then the client's streams are awaited. On failure the
 * HTTP answer the kubelet gives is written on the socket and the promise resolves undefined.
 */
export async function upgradeRemoteCommand(
  req: IncomingMessage, socket: Duplex, head: Buffer, options: StreamOptions, config: RemoteCommandConfig = {},
): Promise<RemoteCommandSession | undefined> {
  socket.on('error', () => socket.destroy());
  try {
    const target = resolveTarget(req, config);
    if (isWebSocketRequest(req)) {
      const offered = offeredSubprotocols(req);
      const protocol = offered.length === 0 ? '' : pickProtocol(offered, WS_REMOTE_COMMAND_PROTOCOLS);
      if (protocol === undefined) {
        config.logger?.debug('exec websocket: no supported subprotocol', { offered: offered.join(',') });
        rejectSubprotocols(socket);
        return undefined;
      }
      const ws = await acceptWebSocket(req, socket, head, protocol);
      return ws ? new WebSocketRemoteCommand(ws, protocol, options, target) : undefined;
    }

    const hs = spdyHandshake(req, SPDY_REMOTE_COMMAND_PROTOCOLS);
    if ('missing' in hs) {
      writeGoHttpError(socket, 400, hs.message);
      return undefined;
    }
    if ('forbidden' in hs) {
      // Handshake answers 403, then createHTTPStreamStreams calls http.Error again: the status stays 403 and the
      // message appears twice in the body.
      writeGoHttpError(socket, 403, hs.message, hs.accepted.map((p) => ['X-Accepted-Stream-Protocol-Versions', p]), 2);
      return undefined;
    }
    if (!hasSpdyUpgradeHeaders(req)) {
      writeGoHttpError(socket, 400, `unable to upgrade: missing upgrade headers in request: ${goHeaderDump(req)}`, [['X-Stream-Protocol-Version', hs.protocol]]);
      return undefined;
    }
    writeSwitchingProtocols(socket, [['Connection', 'Upgrade'], ['Upgrade', 'SPDY/3.1'], ['X-Stream-Protocol-Version', hs.protocol]]);
    const timeout = config.streamCreationTimeoutMs ?? DEFAULT_STREAM_CREATION_TIMEOUT_MS;
    const session = await startSpdyRemoteCommand(socket, head, hs.protocol, options, target, timeout);
    if (!session) config.logger?.debug('exec spdy: client did not create its streams', { protocol: hs.protocol });
    return session;
  } catch (err) {
    config.logger?.warn('exec upgrade failed', { error: String(err) });
    socket.destroy();
    return undefined;
  }
}
