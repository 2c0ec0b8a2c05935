// Public types of the kubelet's streaming endpoints (exec, attach, port-forward), shared by every transport.

import type { Duplex, Readable, Writable } from 'node:stream';
import type { Logger } from '../../../util/log.js';

export interface TerminalSize {
  width: number;
  height: number;
}

export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** How a remote command ended: an exit code, or an error the runtime hit before/while running it. */
export type CommandResult = { exitCode: number } | { error: string };

export interface RemoteCommandSession {
  /** Negotiated subprotocol, e.g. 'v5.channel.k8s.io' or 'v4.channel.k8s.io' ('' when a WebSocket client named none). */
  readonly protocol: string;
  readonly transport: 'websocket' | 'spdy';
  /** Ends when the client half-closes stdin (v5 close frame [255,0] / SPDY FIN), or goes away. */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Absent when tty: the kubelet merges stderr into stdout then. */
  readonly stderr?: Writable;
  /** Terminal size changes (tty only); a listener added late is first told the latest size. */
  onResize(listener: (size: TerminalSize) => void): void;
  /** The client went away before finish(); called at once if it already has. */
  onClose(listener: () => void): void;
  /**
   * Flushes stdout/stderr, writes the final Status on the error channel exactly as the kubelet does, then closes
   * cleanly (WebSocket close 1000 / SPDY FIN + GOAWAY + socket end). Later calls do nothing.
   */
  finish(result: CommandResult): void;
}

export interface PortForwardStream {
  readonly port: number;
  /** The forwarded connection: read what the client sends, write what the pod answers, end() when the pod closes. */
  readonly data: Duplex;
  /** Reports an error for this connection on its error stream/channel (e.g. the kubelet's text for a refused connection), then ends it. */
  fail(message: string): void;
}

export interface PortForwardHandle {
  /** Ends the whole port-forward session and every forwarded connection. */
  close(): void;
}

/** Tuning shared by the upgrade functions; everything has the kubelet's default. */
export interface StreamingConfig {
  /** How long the client may take to open its SPDY streams (kubelet streamCreationTimeout, 30 s). */
  streamCreationTimeoutMs?: number;
  logger?: Logger;
}

/** What an exec/attach session runs, used for the kubelet's Status wording; read from the request URL when absent. */
export interface RemoteCommandTarget {
  operation: 'exec' | 'attach';
  command: string[];
}
