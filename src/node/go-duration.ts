// Go's time.Duration.String(), for kubelet messages such as "Successfully pulled image "x" in 1.234s".

/** Formats milliseconds like Go formats a Duration truncated to milliseconds: 850ms, 1.2s, 1m5.25s, 2h0m0s. */
export function goDuration(ms: number): string {
  ms = Math.trunc(ms);
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  let out: string;
  if (rest < 1000) {
    out = `${rest}ms`;
  } else {
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const secs = (rest / 1000).toFixed(3).replace(/\.?0+$/, '');
    out = h > 0 ? `${h}h${m}m${secs}s` : m > 0 ? `${m}m${secs}s` : `${secs}s`;
  }
  return neg ? `-${out}` : out;
}
