// `npm start`: installs dependencies and builds on first run (or when sources changed), then runs `winkube up`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  console.log('winkube: installing dependencies (first run; building better-sqlite3 takes about a minute)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}
const built = join(root, 'dist', 'src', 'cli', 'main.js');
if (!existsSync(built) || statSync(built).mtimeMs < newestMtime(join(root, 'src'))) {
  console.log('winkube: building…');
  run('npx', ['tsc', '-p', 'tsconfig.json']);
  run(process.execPath, [join(root, 'scripts', 'copy-assets.mjs')]);
}
const args = process.argv.slice(2);
const r = spawnSync(process.execPath, [join(root, 'bin', 'winkube.js'), ...(args.length ? args : ['up'])], { cwd: process.cwd(), stdio: 'inherit' });
process.exit(r.status ?? 0);
