// Go's %v rendering of the values kube-openapi puts in its messages: float64 bounds print the way Go's
// strconv 'g' shortest form does (1e+06, not 1000000), slices as [a b].

/** fmt.Sprintf("%v", float64(n)). */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  // %v is %g with the shortest digits, which switches to exponent form from 1e+06 (fmt.Println(1e6) prints 1e+06).
  if (exp < -4 || exp >= 6) {
    const [mant, e] = n.toExponential().split('e');
    const ev = Number(e);
    return `${mant}e${ev < 0 ? '-' : '+'}${String(Math.abs(ev)).padStart(2, '0')}`;
  }
  return String(n);
}

/** fmt.Sprint of a decoded JSON value (jsonpath printing of printer columns). */
export function goSprint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goSprint).join(' ')}]`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${entries.map(([k, x]) => `${k}:${goSprint(x)}`).join(' ')}]`;
}

/** fmt.Sprintf("%#v", v) of a decoded JSON value held in an interface{} (integers are int64, others float64). */
export function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]interface {}{${entries.map(([k, x]) => `${JSON.stringify(k)}:${goSyntax(x)}`).join(', ')}}`;
}
