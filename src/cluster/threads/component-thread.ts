// Runs a component (the scheduler today) in a worker thread beside the API server, so it uses the second core: the
// worker reaches the API through a MessagePort served here with the component's own in-process client and identity.

import { Worker } from 'node:worker_threads';
import { servePort } from '../../client/port-transport.js';
import type { Transport } from '../../client/interfaces.js';
import type { Logger, LogLevel } from '../../util/log.js';

/** Sent by a worker entry once its component runs, and after it stopped; the host sends `shutdown`. */
export type ThreadControl = { t: 'started' } | { t: 'stopped' } | { t: 'failed'; error: string } | { t: 'shutdown' };

export interface ComponentThreadOptions {
  /** The worker's entry module (see scheduler-worker.ts). */
  entry: URL;
  /** How the component's requests reach the API server: its in-process client's transport. */
  transport: Transport;
  logger: Logger;
  /** The level its own logger uses (its lines go to stderr, as the main thread's do). */
  logLevel: LogLevel;
}

export interface ComponentThread {
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5000;

export async function startComponentThread(opts: ComponentThreadOptions): Promise<ComponentThread> {
  const worker = new Worker(opts.entry, { workerData: { logLevel: opts.logLevel } });
  const endWatches = servePort(worker, opts.transport);
  const control = (want: ThreadControl['t'], timeoutMs?: number) => new Promise<void>((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(resolve, timeoutMs);
    const onMessage = (m: ThreadControl) => {
      if (m?.t === want) done(resolve);
      else if (m?.t === 'failed') done(() => reject(new Error(m.error)));
    };
    const onExit = (code: number) => done(() => (want === 'stopped' ? resolve() : reject(new Error(`component thread exited with code ${code}`))));
    const onError = (err: Error) => done(() => reject(err));
    const done = (then: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('exit', onExit).off('error', onError);
      then();
    };
    worker.on('message', onMessage).on('exit', onExit).on('error', onError);
  });
  try {
    await control('started');
  } catch (err) {
    endWatches();
    await worker.terminate();
    throw err;
  }
  worker.on('error', (err) => opts.logger.error('component thread failed', { error: String(err) }));
  return {
    stop: async () => {
      const stopped = control('stopped', STOP_GRACE_MS);
      worker.postMessage({ t: 'shutdown' } satisfies ThreadControl);
      await stopped.catch(() => undefined);
      endWatches();
      await worker.terminate();
    },
  };
}
