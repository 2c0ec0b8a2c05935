// Rebuilds watch events from rows of the sqlite event log, filling in the values that rows do not repeat.

import type { KeyValue, StoreEvent } from '../interfaces.js';
import type { EventRow } from './statements.js';

/**
 * Turns log rows (in revision order) into StoreEvents. A put's row does not hold the value it wrote (schema.ts):
 * that value is the prev_value of the key's next event, which is in `rows` too when there is one (it is newer
 * and has the same key), or else the key's current value, which `current` reads. Walking backwards meets the
 * next event first. A delete's row carries the deleted value as prev_value; schema 1 rows still carry `value`.
 */
export function replayEvents(rows: EventRow[], current: (key: string, rev: number) => string | undefined): StoreEvent[] {
  const out = new Array<StoreEvent>(rows.length);
  // key -> prev_value of the next event of that key (the one after the row being looked at)
  const next = new Map<string, string | null>();
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    let value: string | null | undefined;
    if (r.deleted) value = r.prev_value;
    else if (r.value !== null) value = r.value;
    else value = next.has(r.key) ? next.get(r.key) : current(r.key, r.rev);
    if (value === null || value === undefined) {
      throw new Error(`sqlite store: the value written at revision ${r.rev} to ${r.key} is missing from the log`);
    }
    next.set(r.key, r.prev_value);
    out[i] = toEvent(r, value);
  }
  return out;
}

function toEvent(r: EventRow, value: string): StoreEvent {
  const kv: KeyValue = Object.freeze({ key: r.key, value, createRevision: r.create_rev, modRevision: r.rev });
  const ev: StoreEvent = { type: r.deleted ? 'delete' : 'put', key: r.key, revision: r.rev, kv };
  if (r.prev_value !== null) {
    ev.prev = Object.freeze({ key: r.key, value: r.prev_value, createRevision: r.create_rev, modRevision: r.prev_mod_rev! });
  }
  return Object.freeze(ev);
}
