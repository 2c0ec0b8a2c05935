// Kubernetes resource.Quantity: parse `100m`, `1Gi`, `2e3`, `1.5`, compare, add and print canonically
// (k8s.io/apimachinery/pkg/api/resource/quantity.go, suffix.go, amount.go).

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/**
 * A parsed quantity. The amount is held exactly as an integer count of nano-units (1n = 1e-9), which is the
 * finest precision kube keeps: finer input is rounded up, as ParseQuantity does.
 */
export interface Quantity {
  readonly nano: bigint;
  readonly format: QuantityFormat;
}

/** resource.ErrFormatWrong. kube-apiserver reports it while decoding the request body. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** resource.ErrSuffix. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

export class QuantityParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityParseError';
  }
}

const NANO = 1_000_000_000n;
const FORMAT_RE = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const NUMBER_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/;

const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_BY_EXP = new Map(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_BY_EXP = new Map(Object.entries(BINARY_SUFFIX).map(([s, e]) => [e, s]));

/** Divides rounding toward +infinity, as kube rounds sub-nano input and MilliValue/Value up. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a > 0n) === (b > 0n)) ? q + 1n : q;
}

/** Parses a quantity string (or a JSON number, which kube also accepts). Throws QuantityParseError. */
export function parseQuantity(input: string | number): Quantity {
  const str = typeof input === 'number' ? String(input) : input.trim();
  const m = FORMAT_RE.exec(str);
  if (!m) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  const num = NUMBER_RE.exec(m[1]);
  if (!num || (num[2] === '' && !num[3])) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  const negative = num[1] === '-';
  const whole = num[2] || '0';
  const frac = num[3] ?? '';

  let base: 2 | 10;
  let exp: number;
  let format: QuantityFormat;
  const suf = m[2];
  if (suf in BINARY_SUFFIX) {
    base = 2; exp = BINARY_SUFFIX[suf]; format = 'BinarySI';
  } else if (suf in DECIMAL_SUFFIX) {
    base = 10; exp = DECIMAL_SUFFIX[suf]; format = 'DecimalSI';
  } else if (/^[eE][-+]?[0-9]+$/.test(suf)) {
    base = 10; exp = Number(suf.slice(1)); format = 'DecimalExponent';
  } else {
    throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
  }

  // mantissa / 10^frac.length * base^exp, expressed in nano-units.
  let numer = BigInt(whole + frac) * NANO;
  let denom = 10n ** BigInt(frac.length);
  if (base === 2) numer *= 2n ** BigInt(exp);
  else if (exp >= 0) numer *= 10n ** BigInt(exp);
  else denom *= 10n ** BigInt(-exp);
  // Sub-nano input rounds away from zero (inf.RoundUp in ParseQuantity).
  const magnitude = ceilDiv(numer, denom);
  return { nano: negative ? -magnitude : magnitude, format };
}

/** Parses, returning undefined instead of throwing. */
export function tryParseQuantity(input: unknown): Quantity | undefined {
  if (typeof input !== 'string' && typeof input !== 'number') return undefined;
  try {
    return parseQuantity(input);
  } catch {
    return undefined;
  }
}

/** Quantity.String(): the canonical form kube stores and prints (CanonicalizeBytes). */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const abs = q.nano < 0n ? -q.nano : q.nano;
    // Small or fractional binary amounts print as DecimalSI to avoid rounding.
    if (abs < 1024n * NANO || abs % NANO !== 0n) format = 'DecimalSI';
  }
  const sign = q.nano < 0n ? '-' : '';
  let amount = q.nano < 0n ? -q.nano : q.nano;
  if (format === 'BinarySI') {
    amount /= NANO;
    let exp = 0;
    while (exp < 60 && amount % 1024n === 0n) {
      amount /= 1024n;
      exp += 10;
    }
    return `${sign}${amount}${BINARY_BY_EXP.get(exp) ?? ''}`;
  }
  // Move factors of ten into the exponent, then back off until the exponent is a multiple of 3.
  let exp = -9;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exp++;
  }
  while (((exp % 3) + 3) % 3 !== 0) {
    amount *= 10n;
    exp--;
  }
  if (format === 'DecimalExponent') return `${sign}${amount}${exp === 0 ? '' : `e${exp}`}`;
  const suffix = DECIMAL_BY_EXP.get(exp);
  return suffix !== undefined ? `${sign}${amount}${suffix}` : `${sign}${amount}e${exp}`;
}

/** Canonical form of a quantity string, e.g. `1.5` → `1500m`, `2048Ki` → `2Mi`. Throws on bad input. */
export function canonicalQuantity(input: string | number): string {
  return formatQuantity(parseQuantity(input));
}

/** MilliValue(): thousandths, rounded up (CPU in millicores). */
export function milliValue(q: Quantity): number {
  return Number(ceilDiv(q.nano, 1_000_000n));
}

/** Value(): whole units, rounded up (bytes for memory, counts for pods). */
export function unitValue(q: Quantity): number {
  return Number(ceilDiv(q.nano, NANO));
}

export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** Sum; the result keeps the first operand's format, as Quantity.Add does. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.format };
}

export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.format };
}

export function isZeroQuantity(q: Quantity): boolean {
  return q.nano === 0n;
}

/** NewMilliQuantity. */
export function quantityFromMilli(milli: number, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nano: BigInt(Math.trunc(milli)) * 1_000_000n, format };
}

/** NewQuantity (bytes or counts). */
export function quantityFromValue(value: number, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nano: BigInt(Math.trunc(value)) * NANO, format };
}
