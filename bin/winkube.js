#!/usr/bin/env node
// Entry point: runs the compiled CLI (npm start / npm test build it first).
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { if (code !== undefined && code !== null) process.exitCode = code; },
  (err) => { process.stderr.write(`winkube: ${err && err.stack ? err.stack : err}\n`); process.exitCode = 1; },
);
