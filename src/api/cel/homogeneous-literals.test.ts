// Mixed-type list and map literals fail to compile as in kube's CEL environment (cel-go cel/validator_test.go
// TestValidateHomogeneousAggregateLiterals; kube base.go cel.HomogeneousAggregateLiterals), format calls exempt.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, type Declarations } from './compile.js';

const decls: Declarations = { variables: { name: 'string', object: 'dyn' } };

const issue = (expr: string, col: number, expected: string, found: string) =>
  `ERROR: <input>:1:${col}: expected type '${expected}' but found '${found}'\n | ${expr}\n | ${'.'.repeat(col - 1)}^`;

describe('homogeneous aggregate literals', () => {
  const cases: [string, string | undefined][] = [
    [`name in ['hello', 0]`, issue(`name in ['hello', 0]`, 19, 'string', 'int')],
    [`{'hello':'world', 1:'!'}`, issue(`{'hello':'world', 1:'!'}`, 19, 'string', 'int')],
    [`name in {'hello':'world', 'goodbye':true}`, issue(`name in {'hello':'world', 'goodbye':true}`, 37, 'string', 'bool')],
    // A key and a value of one entry are both reported, in source order.
    [`{'a': 1, 2: 'b'}`, `${issue(`{'a': 1, 2: 'b'}`, 10, 'string', 'int')}\n${issue(`{'a': 1, 2: 'b'}`, 13, 'int', 'string')}`],
    [`[1, 2.0] == [1.0, 2.0]`, issue(`[1, 2.0] == [1.0, 2.0]`, 5, 'int', 'double')],
    // dyn is a type of its own: a field of an untyped object does not mix with a literal.
    [`'x' in [object.a, 'x']`, issue(`'x' in [object.a, 'x']`, 19, 'dyn', 'string')],
    [`[1, 2].all(x, [x, 'a'].size() > 0)`, issue(`[1, 2].all(x, [x, 'a'].size() > 0)`, 19, 'int', 'string')],
    [`name in ['hello', 'world']`, undefined],
    [`[object.a, object.b].size() == 2`, undefined],
    [`[[], [1]].size() == 2`, undefined],
    [`[1, size(name)].size() == 2`, undefined],
    // string.format takes mixed lists (ext/formatting.go exempts format calls).
    [`"%s %d".format(["a", 1]) == "a 1"`, undefined],
    [`"%s".format([[1, "a"]]) != ""`, undefined],
  ];
  for (const [expr, want] of cases) {
    it(expr, () => {
      const r = compile(expr, decls, []);
      assert.equal(r.ok ? undefined : r.detail, want === undefined ? undefined : `compilation failed: ${want}`);
    });
  }
});
