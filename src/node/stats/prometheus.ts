// Prometheus text exposition (format 0.0.4) as client_golang's expfmt writes it: families sorted by name, samples by
// label values, labels by name, Go's shortest float formatting, timestamps in milliseconds.

export type MetricType = 'counter' | 'gauge';

export interface Sample {
  labels?: Record<string, string>;
  value: number;
  /** Clock ms, written after the value when present. */
  timestampMs?: number;
}

export interface Family {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

/** The content type the kubelet's metrics endpoints answer with. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** strconv.FormatFloat(v, 'g', -1, 64): shortest digits, in exponent form when the exponent is < -4 or >= 6. */
export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return '0';
  const [mantissa, e] = v.toExponential().split('e');
  const exp = Number(e);
  // Go decides with precision 6 when the shortest digits were asked for (strconv/ftoa.go %g).
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (!keys.length) return '';
  return `{${keys.map((k) => `${k}="${escapeLabel(labels![k])}"`).join(',')}}`;
}

/** Orders samples by their label values in label-name order (client_golang sorts metrics within a family so). */
function sortSamples(samples: Sample[]): Sample[] {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.labels ?? {})))].sort();
  const keyed = samples.map((s) => ({ s, key: names.map((k) => s.labels?.[k] ?? '').join('\u0000') }));
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((x) => x.s);
}

/** Writes the families; families without samples are left out, as the registry's Gather leaves them out. */
export function formatFamilies(families: Family[]): string {
  const out: string[] = [];
  for (const f of [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!f.samples.length) continue;
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of sortSamples(f.samples)) {
      out.push(`${f.name}${labelText(s.labels)} ${formatFloat(s.value)}${s.timestampMs !== undefined ? ` ${Math.trunc(s.timestampMs)}` : ''}`);
    }
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** A parsed sample line (for readers of the text format, e.g. tests and scrapers). */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs?: number;
}

/** Parses sample lines of the text format (comments skipped). */
export function parseText(text: string): ParsedSample[] {
  const out: ParsedSample[] = [];
  const re = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/;
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = re.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]] = l[2].replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    }
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    out.push({ name: m[1], labels, value, ...(m[4] !== undefined ? { timestampMs: Number(m[4]) } : {}) });
  }
  return out;
}
