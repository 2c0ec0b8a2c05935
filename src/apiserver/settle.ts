// Stored objects as every reader shares them: deep-frozen, and without the undefined-valued keys JSON leaves out.

/**
 * Freezes a JSON value and everything under it, and returns it. Stops at frozen objects: a copy-on-write update
 * shares the unchanged parts with the previous revision, which are frozen already, so only new parts are visited.
 * An object holding undefined-valued keys (which JSON, and so the stored value, leaves out) is replaced by a copy
 * without them, so the shared object looks exactly like the stored one.
 */
export function settle<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v) || ArrayBuffer.isView(v)) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = settle(x);
      if (y !== x) v[i] = y;
    }
    return Object.freeze(v);
  }
  const o = v as Record<string, unknown>;
  let holes = false;
  for (const k in o) {
    const x = o[k];
    if (x === undefined) {
      holes = true;
      continue;
    }
    const y = settle(x);
    if (y !== x) o[k] = y;
  }
  if (!holes) return Object.freeze(v);
  const out: Record<string, unknown> = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return Object.freeze(out) as T;
}
