// One Server-Sent Events connection: sends each snapshot as an event, keeps only the newest one for slow readers.

import type { ServerResponse } from 'node:http';
import type { SerializedSnapshot } from './snapshot-source.js';

/** Comment lines keep proxies and the browser from timing out an idle stream. */
export const HEARTBEAT_MS = 15_000;

/** How long the browser waits before reconnecting after the stream drops (the SSE `retry:` field). */
const RETRY_MS = 2_000;

export class SseConnection {
  private waiting = false;
  private pending: SerializedSnapshot | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n\n`);
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
    res.on('drain', () => {
      this.waiting = false;
      const next = this.pending;
      this.pending = undefined;
      if (next) this.send(next);
    });
  }

  /** Sends a snapshot; while the socket is backed up only the newest one is kept, since each one is complete. */
  send(snap: SerializedSnapshot): void {
    if (this.waiting) {
      this.pending = snap;
      return;
    }
    // JSON.stringify without indentation has no newlines, so the whole snapshot fits one `data:` line.
    this.write(`id: ${snap.version}\nevent: snapshot\ndata: ${snap.json}\n\n`);
  }

  close(): void {
    clearInterval(this.heartbeat);
    if (!this.res.writableEnded) this.res.end();
  }

  private write(chunk: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!this.res.write(chunk)) this.waiting = true;
  }
}
