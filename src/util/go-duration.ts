// Go's time.ParseDuration, which kube's flags, query parameters (?timeout=) and API fields (metrics windows, cron
// @every) use for spans of time.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `40s`, `1m30s`, `1.5h`, `500ms` in milliseconds; throws Go's `time: invalid duration "<text>"` on anything else. */
export function parseGoDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let ms = 0;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
    ms += Number(m[1]) * UNIT_MS[m[2]];
    i = re.lastIndex;
  }
  if (!s) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
  return ms;
}
