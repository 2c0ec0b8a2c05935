// A kube-proxy's log: klog's structured lines (`E1125 12:00:00.000000 4268 proxier.go] "msg" key="value"`), kept in a
// bounded ring so the CLI can show what a node's proxy said, as `kubectl logs kube-proxy-…` would on a real cluster.

export type ProxyLogLevel = 'I' | 'W' | 'E';

const MAX_LINES = 500;

export class ProxyLog {
  private readonly lines: string[] = [];

  constructor(private readonly now: () => number, private readonly pid = 4268, private readonly file = 'proxier.go') {}

  write(level: ProxyLogLevel, msg: string, kv: Record<string, string | number | boolean> = {}): void {
    const d = new Date(this.now());
    const p2 = (n: number) => String(n).padStart(2, '0');
    const stamp = `${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
    const pairs = Object.entries(kv).map(([k, v]) => ` ${k}=${typeof v === 'string' ? JSON.stringify(v) : v}`).join('');
    this.lines.push(`${level}${stamp} ${String(this.pid).padStart(7)} ${this.file}] ${JSON.stringify(msg)}${pairs}`);
    if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
  }

  info(msg: string, kv?: Record<string, string | number | boolean>): void { this.write('I', msg, kv); }
  warn(msg: string, kv?: Record<string, string | number | boolean>): void { this.write('W', msg, kv); }
  error(msg: string, kv?: Record<string, string | number | boolean>): void { this.write('E', msg, kv); }

  text(): string {
    return this.lines.map((l) => `${l}\n`).join('');
  }

  /** Lines containing `needle` (tests and `winkube net trace` explanations). */
  grep(needle: string): string[] {
    return this.lines.filter((l) => l.includes(needle));
  }
}
