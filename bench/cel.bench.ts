// CEL evaluation with kube's runtime cost tracking (src/api/cel/runtime-cost.ts) against cel-js alone: a small
// admission-style predicate, a comprehension over 1,000 elements and a two-variable transform, per evaluation.
// Run: npx tsc -p . && node dist/bench/cel.bench.js   (table, then one JSON line; BENCH_CEL_ITERATIONS)

import { compile, evaluateSyncWithCost } from '../src/api/cel/compile.js';
import { toCel } from '../src/api/cel/values.js';

const ITERATIONS = Number(process.env.BENCH_CEL_ITERATIONS ?? 2000);
const self = toCel({ name: 'web', l: Array.from({ length: 1000 }, (_, i) => i), labels: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, `v${i}`])) });

const CASES = [
  { what: 'predicate', expr: 'self.name == "web" && self.l.size() > 3' },
  { what: 'all over 1,000', expr: 'self.l.all(x, x >= 0)' },
  { what: 'transformList over 50 labels', expr: 'self.labels.transformList(k, v, k + "=" + v).size() == 50' },
];

const rows: { what: string; plainUs: number; trackedUs: number; cost: number }[] = [];
for (const c of CASES) {
  const r = compile(c.expr, { variables: { self: 'dyn' } }, []);
  if (!r.ok) throw new Error(r.detail);
  const p = r.program;
  const time = (fn: () => unknown) => {
    for (let i = 0; i < Math.min(ITERATIONS, 200); i++) fn();
    const t = performance.now();
    for (let i = 0; i < ITERATIONS; i++) fn();
    return ((performance.now() - t) / ITERATIONS) * 1000;
  };
  const plainUs = time(() => p.run({ self }));
  const trackedUs = time(() => evaluateSyncWithCost(p, { self }));
  rows.push({ what: c.what, plainUs: Math.round(plainUs * 10) / 10, trackedUs: Math.round(trackedUs * 10) / 10, cost: evaluateSyncWithCost(p, { self }).cost });
}
console.table(rows);
console.log(JSON.stringify({ bench: 'cel', iterations: ITERATIONS, rows }));
