// Status comparison helpers: Go's `omitempty` drops zero counts, so compare statuses after the same normalisation.

/** Drops zero counts the way Go's `omitempty` does, so a status read back compares equal to one computed. */
export function omitZero<T extends object>(s: T, keep: string[] = []): T {
  const out = { ...s } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) if ((v === 0 && !keep.includes(k)) || v === undefined) delete out[k];
  return out as T;
}

/** Equality of two statuses after omitempty normalisation. */
export function sameStatus(a: object | undefined, b: object | undefined): boolean {
  return canonical(omitZero(a ?? {})) === canonical(omitZero(b ?? {}));
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : x);
}
