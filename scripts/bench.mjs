// `npm run bench [name…]`: builds, then runs the benchmarks under bench/ one after another (all of them, or those
// named, e.g. `npm run bench scale api`), each printing its table and a JSON line. Environment variables tune each
// bench (see the header of its file, e.g. BENCH_NODES and BENCH_PODS for scale).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from './ensure-built.mjs';

const root = new URL('..', import.meta.url).pathname;
ensureBuilt(root);

const dir = join(root, 'dist', 'bench');
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.js')).map((f) => f.slice(0, -'.bench.js'.length)).sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`no such bench: ${unknown.join(', ')} (there are: ${all.join(', ')})`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length ? wanted : all) {
  console.log(`\n== ${name}`);
  // Run from dist/ so worker threads find their compiled entry points.
  const r = spawnSync(process.execPath, [join(dir, `${name}.bench.js`)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
