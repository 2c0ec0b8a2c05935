// Runs a component (the scheduler, the controller-manager) in a worker thread beside the API server, so it uses the
// second core: the worker reaches the API through MessagePorts served here with in-process clients and identities.

import { Worker } from 'node:worker_threads';
import { servePort } from '../../client/port-transport.js';
import type { Transport } from '../../client/interfaces.js';
import type { Logger, LogLevel } from '../../util/log.js';

/**
 * Sent by a worker entry once its component runs (with a line for the progress output, and the loopback ports it
 * listens on for the host's published NodePorts), and after it stopped; the host sends `shutdown`.
 */
export type Started = { t: 'started'; detail?: string; published?: number[] };
export type ThreadControl = Started | { t: 'stopped' } | { t: 'failed'; error: string } | { t: 'shutdown' };

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
  /** The transport for a further identity the worker names (PortTransport.as: a controller's ServiceAccount). */
  identity?: (name: string) => Transport;
  /** The restart back-off's first and longest delay (RESTART_BASE_MS, RESTART_MAX_MS unless set). */
  restartBackoffMs?: { base: number; max: number };
}

export interface ComponentThread {
  /** What the worker said when it started (e.g. how many controllers run). */
  readonly detail?: string;
  /** The worker's first `started` message. */
  readonly started?: Started;
  /** A worker runs the component now (false while a crashed one waits to start again, and once stopped). */
  running(): boolean;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5000;
/**
 * A thread that dies is started again after a back-off that doubles from 10 s to 5 min, as a kubelet restarts a
 * crashing static pod of the control plane; one that ran this long before dying starts again from the shortest delay.
 */
const RESTART_BASE_MS = 10_000;
const RESTART_MAX_MS = 300_000;
const RESTART_RESET_MS = 600_000;

/** One worker and the ports served for it. */
interface Launched {
  worker: Worker;
  started?: Started;
  startedAt: number;
  /** Ends the watches served over its ports. */
  release(): void;
}

/**
 * Starts the worker and waits until its component runs; afterwards a thread that exits on its own (an uncaught
 * error in the component) is logged and started again (in one thread the same fault would have ended the process).
 */
export async function startComponentThread(opts: ComponentThreadOptions): Promise<ComponentThread> {
  let current: Launched | undefined = await launch(opts);
  const started = current.started;
  let stopping = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const supervise = (run: Launched) => {
    run.worker.once('exit', (code) => {
      run.release();
      if (stopping) return;
      current = undefined;
      if (Date.now() - run.startedAt >= RESTART_RESET_MS) failures = 0;
      restartLater(`exited with code ${code}`);
    });
  };
  const restartLater = (why: string) => {
    const { base, max } = opts.restartBackoffMs ?? { base: RESTART_BASE_MS, max: RESTART_MAX_MS };
    const delayMs = Math.min(base * 2 ** failures, max);
    failures++;
    opts.logger.error(`component thread ${why}; starting it again`, { inSeconds: delayMs / 1000 });
    timer = setTimeout(() => {
      launch(opts).then((run) => {
        if (stopping) return void stopWorker(run);
        current = run;
        supervise(run);
        opts.logger.info('component thread running again');
      }, (err: unknown) => {
        if (!stopping) restartLater(`failed to start: ${String(err)}`);
      });
    }, delayMs);
    timer.unref();
  };

  supervise(current);
  return {
    detail: started?.detail,
    started,
    running: () => current !== undefined && !stopping,
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      if (current) await stopWorker(current);
    },
  };
}

async function launch(opts: ComponentThreadOptions): Promise<Launched> {
  const worker = new Worker(opts.entry, { workerData: { ...opts.workerData, logLevel: opts.logLevel } });
  const release = servePort(worker, opts.transport, opts.identity);
  worker.on('error', (err) => opts.logger.error('component thread failed', { error: String(err) }));
  try {
    const started = await awaitControl(worker, 'started');
    return { worker, started: started?.t === 'started' ? started : undefined, startedAt: Date.now(), release };
  } catch (err) {
    release();
    await worker.terminate();
    throw err;
  }
}

/** Asks the worker to stop its component, waits a grace period for it, then ends the thread. */
async function stopWorker(run: Launched): Promise<void> {
  const stopped = awaitControl(run.worker, 'stopped', STOP_GRACE_MS);
  run.worker.postMessage({ t: 'shutdown' } satisfies ThreadControl);
  await stopped.catch(() => undefined);
  run.release();
  await run.worker.terminate();
}

/**
 * Resolves with the worker's `want` message (undefined when the timeout or, for `stopped`, the thread's exit comes
 * first); rejects when it reports `failed`, errors, or exits while starting.
 */
function awaitControl(worker: Worker, want: 'started' | 'stopped', timeoutMs?: number): Promise<ThreadControl | undefined> {
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => done(() => resolve(undefined)), timeoutMs);
    const onMessage = (m: ThreadControl) => {
      if (m?.t === want) done(() => resolve(m));
      else if (m?.t === 'failed') done(() => reject(new Error(m.error)));
    };
    const onExit = (code: number) => done(() => (want === 'stopped' ? resolve(undefined) : reject(new Error(`component thread exited with code ${code}`))));
    const onError = (err: Error) => done(() => reject(err));
    const done = (then: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('exit', onExit).off('error', onError);
      then();
    };
    worker.on('message', onMessage).on('exit', onExit).on('error', onError);
  });
}
