// The worker thread of ThreadedSqliteStore: runs the SqliteLog (statements, group commit, WAL checkpoints) off the
// API server's event loop and answers each batch of operations in order, writes only once they are committed.

import { parentPort, workerData } from 'node:worker_threads';
import { SqliteLog } from './sqlite-log.js';
import { toWire, type FromWorker, type Op, type OpValue, type Result, type WireError, type WorkerOptions } from './worker-protocol.js';

const port = parentPort!;
let log: SqliteLog | undefined;
/** Why operations cannot run: the file did not open, or the store was closed. */
let unusable: WireError = { name: 'StoreError', code: 'Unavailable', message: 'sqlite store is closed' };
try {
  log = new SqliteLog(workerData as WorkerOptions);
  post({ type: 'ready', revision: log.rev, compacted: log.compacted });
} catch (err) {
  unusable = toWire(err);
  post({ type: 'failed', error: unusable });
}

/** Answers waiting for the open transaction's COMMIT, in the order their operations arrived. */
let outbox: Result[] = [];
/** The counters before the open transaction: a failed COMMIT puts them back (nobody saw those writes). */
let before: { rev: number; compacted: number } | undefined;

port.on('message', (ops: Op[]) => {
  for (const op of ops) outbox.push(log ? run(log, op) : { id: op.id, ok: false, error: unusable });
  if (!before) flushOutbox();
});

function run(l: SqliteLog, op: Op): Result {
  try {
    return { id: op.id, ok: true, value: apply(l, op) };
  } catch (err) {
    return { id: op.id, ok: false, error: toWire(err) };
  }
}

function apply(l: SqliteLog, op: Op): OpValue {
  switch (op.op) {
    case 'create': return written(l, () => l.create(op.key, op.value));
    case 'update': return written(l, () => l.update(op.key, op.value, op.expected));
    case 'delete': return written(l, () => l.delete(op.key, op.expected));
    case 'get': return l.get(op.key);
    case 'list': return l.list(op.prefix, op.opts);
    case 'replay': return l.replay(op.prefix, op.after);
    case 'compact': return void l.compact(op.revision);
    case 'close':
      commit(l);
      l.close();
      log = undefined;
      return undefined;
  }
}

/**
 * Group commit: every write until the loop turns shares one transaction, committed before any of them is answered.
 * An update's answer carries the value it replaced, which the watchers' events need as `prev`.
 */
function written(l: SqliteLog, write: () => ReturnType<SqliteLog['create']>): OpValue {
  if (!before) {
    before = { rev: l.rev, compacted: l.compacted };
    l.begin();
    setImmediate(() => log && commit(log));
  }
  const w = write();
  const prevValue = w.prev && !('value' in w.prev) ? l.prevValue(w.rev) : undefined;
  // The caller has the value it wrote: only a delete's (the old one) travels back.
  const kv = w.deleted ? w.kv : { ...w.kv, value: '' };
  return { rev: w.rev, kv, deleted: w.deleted, prev: w.prev, prevValue };
}

function commit(l: SqliteLog): void {
  if (!before) return;
  const undo = before;
  before = undefined;
  try {
    l.commit();
  } catch (err) {
    // Nothing of this batch reached a watcher yet, so it simply did not happen: every operation in it fails.
    l.rev = undo.rev;
    l.compacted = undo.compacted;
    const error = toWire(new Error(`sqlite: commit failed: ${(err as Error).message}`));
    outbox = outbox.map((r) => ({ id: r.id, ok: false, error: { ...error, name: 'StoreError', code: 'Unavailable' } }));
  }
  flushOutbox();
}

function flushOutbox(): void {
  if (outbox.length === 0) return;
  const results = outbox;
  outbox = [];
  post({ type: 'results', results, compacted: log?.compacted ?? 0 });
}

function post(m: FromWorker): void {
  port.postMessage(m);
}
