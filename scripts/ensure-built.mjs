// What `npm test` and `npm run bench` do first: install on a fresh clone, compile, copy the non-TypeScript assets.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Exits the process with the failing step's status if installing or compiling fails. */
export function ensureBuilt(root) {
  if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  spawnSync(process.execPath, [join(root, 'scripts', 'copy-assets.mjs')], { stdio: 'inherit' });
}
