// The fold behind the two-variable comprehensions: what each macro accumulates per element, when it stops, what it
// answers, and what cel-go's expansion costs around the user's expression (cel-go v0.23 ext/comprehensions.go
// steps, common/types InsertMapKeyValue's `insert failed: key x already exists`).

import { CelRuntimeError } from './library-ext.js';
import { chargeCost } from './runtime-cost.js';

export type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

/** The entries a comprehension ranges over: (index, element) of a list, (key, value) of a map. */
export function entries(range: unknown): [unknown, unknown][] {
  if (Array.isArray(range)) return range.map((v, i) => [BigInt(i), v]);
  if (range instanceof Map) return [...range.entries()];
  if (range && typeof range === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(range))) {
    return Object.entries(range);
  }
  throw new CelRuntimeError('no such overload');
}

/** cel-go's %v of a map key, for the duplicate-key error. */
const keyText = (k: unknown) => String(k);

/** Map keys as cel-js's map literals hold them: strings (int and bool keys written out). */
function put(out: Record<string, unknown>, k: unknown, v: unknown): void {
  Object.defineProperty(out, String(k), { value: v, enumerable: true, writable: true, configurable: true });
}

export class Accumulator {
  done = false;
  private verdict: boolean;
  private error: unknown;
  private count = 0;
  private readonly list: unknown[] = [];
  private readonly map: Record<string, unknown> = {};

  constructor(private readonly kind: Kind) {
    this.verdict = kind === 'all';
    // The accumulator's initial value: [] or {} literals (ListCreateBaseCost, MapCreateBaseCost).
    if (kind === 'transformList') chargeCost(10);
    if (kind === 'transformMap' || kind === 'transformMapEntry') chargeCost(30);
  }

  get absorbsErrors(): boolean {
    return this.kind === 'all' || this.kind === 'exists';
  }

  /** Per iteration: all's loop condition @not_strictly_false(accu) and accu read; exists adds the negation. */
  get overhead(): number {
    return this.kind === 'all' ? 3 : this.kind === 'exists' ? 4 : 0;
  }

  fail(err: unknown): void {
    this.error ??= err;
  }

  add(key: unknown, v: unknown): void {
    switch (this.kind) {
      case 'all': case 'exists': {
        if (typeof v !== 'boolean') return this.fail(new CelRuntimeError('no such overload'));
        // all stops at the first false, exists at the first true.
        if (v === (this.kind === 'exists')) {
          this.verdict = v;
          this.done = true;
        }
        return;
      }
      case 'existsOne':
        if (typeof v !== 'boolean') throw new CelRuntimeError('no such overload');
        if (v) this.count++;
        return chargeCost(v ? 2 : 1);
      case 'transformList':
        this.list.push(v);
        return chargeCost(12); // accu + [v]: the read, the list literal, the add
      case 'transformMap':
        put(this.map, key, v);
        return chargeCost(3); // cel.@mapInsert(accu, k, v): the call and two reads
      case 'transformMapEntry': {
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new CelRuntimeError('no such overload');
        const pairs = v instanceof Map ? [...v.entries()] : Object.entries(v);
        for (const [k, x] of pairs) {
          if (Object.prototype.hasOwnProperty.call(this.map, String(k))) throw new CelRuntimeError(`insert failed: key ${keyText(k)} already exists`);
          put(this.map, k, x);
        }
        return chargeCost(2); // cel.@mapInsert(accu, entry): the call and the read
      }
    }
  }

  result(): unknown {
    switch (this.kind) {
      case 'all': case 'exists':
        chargeCost(1);
        if (this.done || this.error === undefined) return this.verdict;
        throw this.error;
      case 'existsOne':
        chargeCost(2); // accu == 1
        return this.count === 1;
      case 'transformList':
        chargeCost(1);
        return this.list;
      default:
        chargeCost(1);
        return this.map;
    }
  }
}
