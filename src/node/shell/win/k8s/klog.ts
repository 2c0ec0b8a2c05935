// klog's text header (`I1125 12:00:00.000000    4680 file.go:123] `) with structured (`"msg" key="value"`) or
// printf-style bodies, as kube-proxy and flanneld write them to stderr (k8s.io/klog/v2 klog.go formatHeader).

import type { Ctx } from '../../core/ctx.js';

export type KlogLevel = 'I' | 'W' | 'E';
/** `{ go: … }` is a value klog prints with %+v (a struct pointer such as `&{name:x}`), unquoted. */
type KV = Record<string, string | number | boolean | string[] | { go: string }>;

/** The header of one line at time `ms` from process `pid` at `site` (file:line). */
export function klogHeader(level: KlogLevel, ms: number, pid: number, site: string): string {
  const d = new Date(ms);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const micros = String(d.getUTCMilliseconds() * 1000).padStart(6, '0');
  return `${level}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${micros} ${String(pid).padStart(7)} ${site}] `;
}

/** klog's value rendering for InfoS: strings quoted, slices as JSON arrays, the rest bare. */
function value(v: KV[string]): string {
  if (typeof v === 'object' && !Array.isArray(v)) return v.go;
  return Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(',')}]` : typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** A process's klog: structured (InfoS/ErrorS) and printf-style (Infof) lines to stderr, on the container's clock. */
export function klog(ctx: Ctx, pid: number) {
  const write = (level: KlogLevel, site: string, body: string) => ctx.stderr.write(`${klogHeader(level, ctx.env.clock.now(), pid, site)}${body}\n`);
  return {
    s: (level: KlogLevel, site: string, msg: string, kv: KV = {}) => write(level, site, `${JSON.stringify(msg)}${Object.entries(kv).map(([k, v]) => ` ${k}=${value(v)}`).join('')}`),
    f: (level: KlogLevel, site: string, text: string) => write(level, site, text),
  };
}

/** Go's flag package: `--name=value`, `--name value`, `-name`; booleans take `=value` only. */
export function goFlags(argv: string[], booleans: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/s.exec(argv[i]);
    if (!m) continue;
    let v = m[2];
    if (v === undefined) v = booleans.has(m[1]) ? 'true' : argv[++i] ?? '';
    out.set(m[1], [...(out.get(m[1]) ?? []), v]);
  }
  return out;
}
