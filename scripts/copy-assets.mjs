// Copies the non-TypeScript files the compiled code reads at run time (JSON data, golden test files) from src/
// into dist/src/, since tsc only emits .js. Called after every build.
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function copyJson(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) copyJson(p);
    else if (e.name.endsWith('.json')) cpSync(p, join(root, 'dist', relative(root, p)));
  }
}

if (existsSync(join(root, 'dist'))) copyJson(join(root, 'src'));
