// Private resource.Quantity parser for the scheduler (k8s.io/apimachinery/pkg/api/resource/quantity.go).
// TODO(merge): replace with src/api/quantity.ts once that module lands; only `milliValue`/`value` are needed here.

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const RE = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

/** The quantity as a plain number (e.g. "1.5Gi" → 1610612736); NaN when malformed. */
export function parseQuantityNumber(s: string | number | undefined): number {
  if (s === undefined) return 0;
  if (typeof s === 'number') return s;
  const m = RE.exec(s.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  if (m[3] !== undefined) return n * 10 ** Number(m[3]);
  const suffix = m[2] ?? '';
  return n * (BINARY[suffix] ?? DECIMAL[suffix]!);
}

/** Quantity.MilliValue(): thousandths, rounded up, as kube uses for CPU. */
export function milliValue(s: string | number | undefined): number {
  const v = parseQuantityNumber(s);
  return Number.isFinite(v) ? Math.ceil(Math.round(v * 1e6) / 1e3) : 0;
}

/** Quantity.Value(): whole units, rounded up, as kube uses for memory, storage, pods and extended resources. */
export function value(s: string | number | undefined): number {
  const v = parseQuantityNumber(s);
  return Number.isFinite(v) ? Math.ceil(Math.round(v * 1e3) / 1e3) : 0;
}
