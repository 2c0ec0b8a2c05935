// Human-readable ages for Table cells, matching apimachinery's duration package and the printers' timestamp helpers.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * k8s.io/apimachinery/pkg/util/duration.HumanDuration: ~2-3 significant figures.
 * Go truncates toward zero (`int(d.Seconds())`), so -1.9s still counts as "0s"; a clock skew of two
 * seconds or more in the past prints `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 10) {
    const s = Math.floor(ms / SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** k8s.io/apimachinery/pkg/util/duration.ShortHumanDuration: a single unit. */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.floor(hours / 24)}d`;
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** Go's zero time.Time (0001-01-01T00:00:00Z); metav1.Time.IsZero() treats it like an absent timestamp. */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z'); // Date.UTC(1, ...) would mean 1901

/**
 * Parses an RFC 3339 timestamp (metav1.Time or MicroTime) to epoch ms; undefined when absent, unparsable
 * or Go's zero time, which is what the printers' `IsZero()` checks treat as unset.
 */
export function parseTimestamp(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined;
  const t = Date.parse(ts);
  if (Number.isNaN(t) || t === GO_ZERO_TIME) return undefined;
  return t;
}

/** pkg/printers/internalversion/printers.go translateTimestampSince (and translateMicroTimestampSince). */
export function translateTimestampSince(ts: string | null | undefined, now: number): string {
  const t = parseTimestamp(ts);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}
