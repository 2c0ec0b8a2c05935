// The shared Store conformance suite (node:test): every backend runs it to prove it has etcd's semantics.

import { describe } from 'node:test';
import type { Store } from './interfaces.js';
import { crudCases } from './conformance/crud.js';
import { persistenceCases, type PersistentBacking } from './conformance/persistence.js';
import { watchCases } from './conformance/watch.js';

export type { PersistentBacking } from './conformance/persistence.js';

export interface ConformanceOptions {
  /** A durable backing to close and reopen; without it the persistence cases are skipped. */
  persistent?: () => Promise<PersistentBacking>;
}

/**
 * Registers the suite under `describe(name)`. `makeStore` must return a fresh, empty store (or one
 * whose keys the tests cannot collide with). The cases assume no other writer touches the backend
 * while a case runs (they check that failed writes take no revision), and never assume that
 * revisions start at 1 or that live events arrive before a write resolves.
 */
export function storeConformance(name: string, makeStore: () => Promise<Store>, opts: ConformanceOptions = {}): void {
  describe(`Store conformance: ${name}`, () => {
    describe('reads and writes', () => crudCases(makeStore));
    describe('watch and compaction', () => watchCases(makeStore));
    const persistent = opts.persistent;
    if (persistent) describe('persistence', () => persistenceCases(persistent));
  });
}
