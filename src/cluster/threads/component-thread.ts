// Runs a component (the scheduler, the controller-manager) in a worker thread beside the API server, so it uses the
// second core: the worker reaches the API through MessagePorts served here with in-process clients and identities.

import { Worker, type MessagePort } from 'node:worker_threads';
import { servePort } from '../../client/port-transport.js';
import type { Transport } from '../../client/interfaces.js';
import type { Logger, LogLevel } from '../../util/log.js';

/**
 * Sent by a worker entry once its component runs (with a line for the progress output), and after it stopped; the
 * host sends `shutdown`. `client` hands over a port for requests as the named identity (see `identity`).
 */
export type ThreadControl =
  | { t: 'started'; detail?: string } | { t: 'stopped' } | { t: 'failed'; error: string } | { t: 'shutdown' }
  | { t: 'client'; name: string; port: MessagePort };

export interface ComponentThreadOptions {
  /** The worker's entry module (see scheduler-worker.ts). */
  entry: URL;
  /** How the component's requests reach the API server: its in-process client's transport. */
  transport: Transport;
  logger: Logger;
  /** The level its own logger uses (its lines go to stderr, as the main thread's do). */
  logLevel: LogLevel;
  /** More for the worker (must survive structured clone). */
  workerData?: Record<string, unknown>;
  /** The transport for a further identity the worker asks for by name (a controller's ServiceAccount). */
  identity?: (name: string) => Transport;
}

export interface ComponentThread {
  /** What the worker said when it started (e.g. how many controllers run). */
  readonly detail?: string;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5000;

export async function startComponentThread(opts: ComponentThreadOptions): Promise<ComponentThread> {
  const worker = new Worker(opts.entry, { workerData: { ...opts.workerData, logLevel: opts.logLevel } });
  const ends = [servePort(worker, opts.transport)];
  const endWatches = () => ends.forEach((end) => end());
  worker.on('message', (m: ThreadControl) => {
    if (m?.t !== 'client') return;
    if (opts.identity) ends.push(servePort(m.port, opts.identity(m.name)));
    else m.port.close();
  });
  let detail: string | undefined;
  const control = (want: ThreadControl['t'], timeoutMs?: number) => new Promise<void>((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(resolve, timeoutMs);
    const onMessage = (m: ThreadControl) => {
      if (m?.t === 'started') detail = m.detail;
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
    detail,
    stop: async () => {
      const stopped = control('stopped', STOP_GRACE_MS);
      worker.postMessage({ t: 'shutdown' } satisfies ThreadControl);
      await stopped.catch(() => undefined);
      endWatches();
      await worker.terminate();
    },
  };
}
