// `npm test`: builds, then runs every test with node's test runner — unit tests beside the code, integration
// tests on an in-process cluster, acceptance tests with the real kubectl and clients against `winkube up`.
// Pass a layer name (unit | integration | acceptance) to run only that layer.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from './ensure-built.mjs';

const root = new URL('..', import.meta.url).pathname;
const layers = process.argv.slice(2);
const want = (l) => layers.length === 0 || layers.includes(l);

ensureBuilt(root);

function testsUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...testsUnder(p));
    else if (e.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

const files = [
  ...(want('unit') ? testsUnder(join(root, 'dist', 'src')) : []),
  ...(want('integration') ? testsUnder(join(root, 'dist', 'test', 'integration')) : []),
  ...(want('acceptance') ? testsUnder(join(root, 'dist', 'test', 'acceptance')) : []),
];
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { cwd: root, stdio: 'inherit', env: { ...process.env, WINKUBE_LOG: process.env.WINKUBE_LOG ?? 'error' } });
process.exit(r.status ?? 1);
