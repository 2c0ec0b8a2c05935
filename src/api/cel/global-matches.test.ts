// cel-go's global matches(string, string) next to the member s.matches(re): same results and runtime error, cel-go's
// costs (only the member overload matches_string is sized; the global `matches` costs 1, interpreter/runtimecost.go),
// and ValidateRegexLiterals checking the global form's first argument (cel-go cel/validator.go formatValidator argNum 0).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluateWithCost, type Declarations } from './compile.js';
import { toCel } from './values.js';

const decls: Declarations = { variables: { self: 'dyn' } };

async function run(expr: string, self: unknown): Promise<{ value?: unknown; error?: string; cost: number }> {
  const c = compile(expr, decls, [], undefined, 'new');
  if (!c.ok) throw new Error(c.detail);
  return evaluateWithCost(c.program, { self: toCel(self) });
}

describe('global matches()', () => {
  const cases: [string, unknown, boolean][] = [
    ['^web-[0-9]+$', 'web-12', true],
    ['^web-[0-9]+$', 'web-x', false],
    ['b', 'abc', true],
    ['', '', true],
  ];
  for (const [re, s, want] of cases) {
    it(`matches(${JSON.stringify(s)}, ${JSON.stringify(re)}) is ${want}, as the member form says`, async () => {
      const global = await run(`matches(self.s, self.re)`, { s, re });
      const member = await run(`self.s.matches(self.re)`, { s, re });
      assert.equal(global.value, want);
      assert.equal(member.value, want);
    });
  }

  it('fails at run time as the member form does on a bad pattern', async () => {
    const global = await run('matches(self.s, self.re)', { s: 'a', re: '[' });
    const member = await run('self.s.matches(self.re)', { s: 'a', re: '[' });
    assert.equal(global.error, member.error);
    assert.equal(global.error, 'Invalid regular expression: [');
  });

  it('costs 1 for the call where the member form is sized by string and pattern', async () => {
    const s = 'a'.repeat(1000);
    const re = 'x'.repeat(40);
    const global = await run('matches(self.s, self.re)', { s, re });
    const member = await run('self.s.matches(self.re)', { s, re });
    // Both read self twice and select .s and .re (4); the member call adds ceil(1001 × 0.1) × ceil(40 × 0.25).
    assert.equal(global.cost, 4 + 1);
    assert.equal(member.cost, 4 + 101 * 10);
  });

  it('checks a constant first argument as a regex, as cel-go does for the global form', () => {
    const c = compile("matches('[', 'a')", decls, ['bool'], undefined, 'new');
    assert.equal(c.ok ? '' : c.detail, "compilation failed: ERROR: <input>:1:9: invalid matches argument\n | matches('[', 'a')\n | ........^");
    assert.ok(compile("matches('a', '[')", decls, ['bool'], undefined, 'new').ok);
  });
});
