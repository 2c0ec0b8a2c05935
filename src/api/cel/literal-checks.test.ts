// Compile-time validation of constant duration, timestamp and regex arguments (cel-go cel/validator.go, in kube's
// base environment from 1.29: staging/src/k8s.io/apiserver/pkg/cel/environment/base.go ASTValidators).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, type Declarations } from './compile.js';

const decls: Declarations = { variables: { self: 'dyn' } };

describe('literal validators', () => {
  const refused: [string, string][] = [
    ["duration('1x') > duration('1s')", "ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^"],
    ["self.t < timestamp('2023-02-30T00:00:00Z')", "ERROR: <input>:1:20: invalid timestamp argument\n | self.t < timestamp('2023-02-30T00:00:00Z')\n | ...................^"],
    ["self.name.matches('[a-z')", "ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[a-z')\n | ..................^"],
    // Every refused literal is reported, in source order.
    ["duration('x') == duration('y')", "ERROR: <input>:1:10: invalid duration argument\n | duration('x') == duration('y')\n | .........^\nERROR: <input>:1:27: invalid duration argument\n | duration('x') == duration('y')\n | ..........................^"],
  ];
  for (const [expr, detail] of refused) {
    it(`${expr} is refused`, () => assert.deepEqual(compile(expr, decls, []), { ok: false, detail: `compilation failed: ${detail}` }));
  }

  const accepted = [
    "duration('-1h30m') < duration('90m')",
    "duration('1.5s') > duration('500ms')",
    "timestamp('2024-02-29T23:59:59.999+05:30') > timestamp('1970-01-01T00:00:00Z')",
    "self.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    // Only constants are checked at compile time.
    'duration(self.d) > duration(\'1s\')',
    "self.name.matches(self.pattern)",
  ];
  for (const expr of accepted) it(`${expr} compiles`, () => assert.equal(compile(expr, decls, []).ok, true));
});
