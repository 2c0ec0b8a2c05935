// Status comparison helpers: Go's `omitempty` drops zero counts, so compare statuses after the same normalisation.

import { canonicalJson } from './json.js';

/** Drops zero counts the way Go's `omitempty` does, so a status read back compares equal to one computed. */
export function omitZero<T extends object>(s: T, keep: string[] = []): T {
  const out = { ...s } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) if ((v === 0 && !keep.includes(k)) || v === undefined) delete out[k];
  return out as T;
}

/** Equality of two statuses after omitempty normalisation. */
export function sameStatus(a: object | undefined, b: object | undefined): boolean {
  return canonicalJson(omitZero(a ?? {})) === canonicalJson(omitZero(b ?? {}));
}
