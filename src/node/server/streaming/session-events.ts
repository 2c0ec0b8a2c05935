// Listener bookkeeping shared by the session implementations, and a helper that flushes an output stream.

import type { Writable } from 'node:stream';
import type { TerminalSize } from './types.js';

export class SessionEvents {
  private readonly resizeListeners: Array<(size: TerminalSize) => void> = [];
  private readonly closeListeners: Array<() => void> = [];
  private lastSize?: TerminalSize;
  private isClosed = false;

  onResize(listener: (size: TerminalSize) => void): void {
    this.resizeListeners.push(listener);
    // The client sends the initial size right after the streams open; a listener added a little later still gets it.
    const last = this.lastSize;
    if (last) queueMicrotask(() => listener({ ...last }));
  }

  onClose(listener: () => void): void {
    if (this.isClosed) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  resized(size: TerminalSize): void {
    this.lastSize = size;
    for (const l of this.resizeListeners) l({ ...size });
  }

  closed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const l of this.closeListeners.splice(0)) l();
  }
}

/** Ends `w` if needed and resolves once everything written to it has been handed on (or it was destroyed). */
export function flushWritable(w: Writable | undefined): Promise<void> {
  if (!w || w.writableFinished || w.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => resolve();
    w.once('finish', done);
    w.once('close', done);
    w.once('error', done);
    if (!w.writableEnded) w.end();
  });
}
