// validateIndexesFormat and parseIndexInterval (pkg/apis/batch/validation/validation.go): "1,3-5" lists of
// completion indexes, increasing and below completions; returns the number of indexes or kube's parse error text.

const atoi = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);

function parseInterval(text: string, completions: number): [number, number] | string {
  const limits = text.split('-');
  if (limits.length > 2) return `the fragment ${JSON.stringify(text)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const x = atoi(limits[0]);
  if (x === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[0])}`;
  if (x >= completions) return `too large index: ${JSON.stringify(limits[0])}`;
  if (limits.length === 1) return [x, x];
  const y = atoi(limits[1]);
  if (y === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[1])}`;
  if (y >= completions) return `too large index: ${JSON.stringify(limits[1])}`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

export function parseIndexList(text: string, completions: number): number | string {
  if (!text) return 0;
  let total = 0;
  let last: number | undefined;
  for (const part of text.split(',')) {
    const r = parseInterval(part, completions);
    if (typeof r === 'string') return r;
    if (last !== undefined && last >= r[0]) return `non-increasing order, previous: ${last}, current: ${r[0]}`;
    total += r[1] - r[0] + 1;
    last = r[1];
  }
  return total;
}
