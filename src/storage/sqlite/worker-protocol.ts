// The messages between ThreadedSqliteStore and its worker thread (store-worker.ts), and how errors cross over.

import { StoreError, type KeyValue, type ListOptions, type ListResult, type StoreEvent } from '../interfaces.js';
import type { SqliteLogOptions } from './sqlite-log.js';
import type { Replaced } from './statements.js';

export type Op =
  | { id: number; op: 'create'; key: string; value: string }
  | { id: number; op: 'update'; key: string; value: string; expected?: number }
  | { id: number; op: 'delete'; key: string; expected?: number }
  | { id: number; op: 'get'; key: string }
  | { id: number; op: 'list'; prefix: string; opts: ListOptions }
  | { id: number; op: 'replay'; prefix: string; after: number }
  | { id: number; op: 'compact'; revision: number }
  | { id: number; op: 'close' };

/** An operation before the store numbers it. */
export type OpBody = Op extends infer T ? (T extends Op ? Omit<T, 'id'> : never) : never;

/**
 * A committed write as the worker reports it; an update's replaced value travels along for the watchers' `prev`. A put's
 * kv comes back with an empty value: the store puts back the very string the caller wrote.
 */
export interface WriteResult {
  rev: number;
  kv: KeyValue;
  deleted: boolean;
  prev?: KeyValue | Replaced;
  prevValue?: string;
}

export type OpValue = WriteResult | KeyValue | ListResult | StoreEvent[] | undefined;

export interface WireError { name: string; message: string; code?: StoreError['code']; current?: KeyValue }

export type Result = { id: number; ok: true; value: OpValue } | { id: number; ok: false; error: WireError };

export type FromWorker =
  | { type: 'ready'; revision: number; compacted: number }
  | { type: 'failed'; error: WireError }
  | { type: 'results'; results: Result[]; compacted: number };

export type WorkerOptions = SqliteLogOptions;

export function toWire(err: unknown): WireError {
  if (err instanceof StoreError) return { name: 'StoreError', message: err.message, code: err.code, current: err.current };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

/** The error as the caller's thread would have thrown it: StoreErrors and RangeErrors keep their class. */
export function fromWire(e: WireError): Error {
  if (e.name === 'StoreError' && e.code) return new StoreError(e.code, e.message, e.current);
  if (e.name === 'RangeError') return new RangeError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}
