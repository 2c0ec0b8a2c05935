// Two-variable comprehensions as kube 1.32+ evaluates them (cel-go v0.23 ext/comprehensions.go and its tests'
// semantics; checker/checker.go checkComprehension and checker/errors.go for the compile-time texts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, type Declarations } from './compile.js';
import { estimateCost } from './cost.js';
import { toCel } from './values.js';

const decls: Declarations = { variables: { self: 'dyn', nums: 'list<int>', labels: 'map<string, string>' } };
const vars = {
  self: toCel({ items: [{ name: 'a', port: 80 }, { name: 'b', port: 443 }], zero: [0, 1, 2] }),
  nums: toCel([1, 2, 3]),
  labels: toCel({ app: 'web', tier: 'front' }),
};

async function run(expr: string): Promise<{ value?: unknown; error?: string; type?: string }> {
  const c = compile(expr, decls, []);
  if (!c.ok) return { error: c.detail };
  return { ...(await evaluate(c.program, vars)), type: c.program.outputType };
}

describe('two-variable comprehensions evaluate as cel-go does', () => {
  const cases: [string, unknown, string][] = [
    ['nums.all(i, v, i < v)', true, 'bool'],
    ['nums.all(i, v, v > 1)', false, 'bool'],
    ['labels.all(k, v, k != v)', true, 'bool'],
    ['labels.exists(k, v, k == "tier" && v.startsWith("fr"))', true, 'bool'],
    ['nums.exists(i, v, v == 3 && i == 5)', false, 'bool'],
    ['[1, 2, 1, 3].existsOne(i, v, i == 0 || v == 1)', false, 'bool'],
    ['[1, 1, 2, 2].existsOne(i, v, i == 2 && v == 2)', true, 'bool'],
    ['labels.exists_one(k, v, v == "web")', true, 'bool'],
    ['nums.transformList(i, v, i * v + v)', [1n, 4n, 9n], 'list(int)'],
    ['nums.transformList(i, v, i % 2 == 0, i * v + v)', [1n, 9n], 'list(int)'],
    ['labels.transformList(k, v, k + "=" + v)', ['app=web', 'tier=front'], 'list(string)'],
    ['labels.transformList(k, v, k.startsWith("x"), v)', [], 'list(string)'],
    ['labels.transformMap(k, v, v + "!")', { app: 'web!', tier: 'front!' }, 'map(string, string)'],
    ['labels.transformMap(k, v, k == "app", v.upperAscii())', { app: 'WEB' }, 'map(string, string)'],
    ['nums.transformMap(i, v, v * 10) == {0: 10, 1: 20, 2: 30}', true, 'bool'],
    ['labels.transformMapEntry(k, v, {v: k})', { web: 'app', front: 'tier' }, 'map(string, string)'],
    ['labels.transformMapEntry(k, v, k == "app", {v: k})', { web: 'app' }, 'map(string, string)'],
    ['labels.transformMapEntry(k, v, {})', {}, 'map(dyn, dyn)'],
    // A two-variable form nests with the one-variable macros and with itself.
    ['self.items.all(i, it, it.port > 0 && self.items.exists(j, o, j != i && o.name != it.name))', true, 'bool'],
    ['self.items.transformMapEntry(i, it, {it.name: it.port})', { a: 80n, b: 443n }, 'map(dyn, dyn)'],
    ['dyn(labels).transformList(k, v, k)', ['app', 'tier'], 'list(dyn)'],
    // all and exists absorb an error when another element decides the answer (logical && and || folds).
    ['self.zero.all(i, v, 6 / v > 4)', false, 'bool'],
    ['self.zero.exists(i, v, 6 / v == 3)', true, 'bool'],
  ];
  for (const [expr, value, type] of cases) {
    it(expr, async () => assert.deepEqual(await run(expr), { value, type }));
  }

  const failures: [string, string][] = [
    ['self.zero.all(i, v, 6 / v > 0)', 'division by zero'],
    ['self.zero.existsOne(i, v, 6 / v == 6)', 'division by zero'],
    ['[1, 2, 1].transformMapEntry(i, v, {v: i})', 'insert failed: key 1 already exists'],
    ['labels.transformMapEntry(k, v, {"same": v})', 'insert failed: key same already exists'],
  ];
  for (const [expr, error] of failures) {
    it(`${expr} fails`, async () => assert.equal((await run(expr)).error, error));
  }
});

describe('two-variable comprehension compile errors (cel-go macro expansion and checker texts)', () => {
  const cases: [string, string][] = [
    ['nums.all(i, i, true)', 'ERROR: <input>:1:13: duplicate variable name: i\n | nums.all(i, i, true)\n | ............^'],
    ['nums.exists(i.j, v, true)', 'ERROR: <input>:1:14: argument must be a simple name\n | nums.exists(i.j, v, true)\n | .............^'],
    ['nums.existsOne(i, v.k, true)', 'ERROR: <input>:1:20: argument must be a simple name\n | nums.existsOne(i, v.k, true)\n | ...................^'],
    ['nums.transformList(__result__, v, v)', 'ERROR: <input>:1:20: iteration variable overwrites accumulator variable\n | nums.transformList(__result__, v, v)\n | ...................^'],
    ['1.all(i, v, true)', "ERROR: <input>:1:1: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)\n | 1.all(i, v, true)\n | ^"],
    ['"abc".existsOne(i, v, true)', "ERROR: <input>:1:1: expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)\n | \"abc\".existsOne(i, v, true)\n | ^"],
    ['nums.all(i, v, v)', "ERROR: <input>:1:9: found no matching overload for '_&&_' applied to '(bool, int)'\n | nums.all(i, v, v)\n | ........^"],
    ['labels.exists(k, v, v)', "ERROR: <input>:1:14: found no matching overload for '_||_' applied to '(bool, string)'\n | labels.exists(k, v, v)\n | .............^"],
    ['nums.transformList(i, v, v, v)', "ERROR: <input>:1:19: found no matching overload for '_?_:_' applied to '(int, list(int), list(int))'\n | nums.transformList(i, v, v, v)\n | ..................^"],
    // The one-variable quantifiers report their expansion's overload the same way (parser/macro.go makeQuantifier).
    ['nums.all(x, x)', "ERROR: <input>:1:9: found no matching overload for '_&&_' applied to '(bool, int)'\n | nums.all(x, x)\n | ........^"],
    ['labels.exists(k, k)', "ERROR: <input>:1:14: found no matching overload for '_||_' applied to '(bool, string)'\n | labels.exists(k, k)\n | .............^"],
    ['nums.exists_one(x, x)', "ERROR: <input>:1:16: found no matching overload for '_?_:_' applied to '(int, int, int)'\n | nums.exists_one(x, x)\n | ...............^"],
    // The iteration variables exist only inside the macro.
    ['nums.all(i, v, true) && v > 0', "ERROR: <input>:1:25: undeclared reference to 'v' (in container '')\n | nums.all(i, v, true) && v > 0\n | ........................^"],
  ];
  for (const [expr, detail] of cases) {
    it(expr, () => assert.deepEqual(compile(expr, decls, []), { ok: false, detail: `compilation failed: ${detail}` }));
  }

  it('types the index int and the element as the list declares', () => {
    const c = compile('nums.transformList(i, v, [i, v])', decls, []);
    assert.equal(c.ok && c.program.outputType, 'list(list(int))');
    const bad = compile('nums.all(i, v, i == "x")', decls, []);
    assert.match(bad.ok ? '' : bad.detail, /found no matching overload for '_==_' applied to '\(int, string\)'/);
  });
});

describe('static cost of two-variable comprehensions (checker/cost.go costComprehension)', () => {
  const schema = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } } as const;
  // self (1) + per element: body + the macro's loop condition and step + the result read.
  const cases: [string, number][] = [
    ['self.all(i, v, i < 5)', 1 + 10 * (2 + 3) + 1],
    // Equality traverses the shorter operand: the one-character literal.
    ['self.exists(i, v, v == "x")', 1 + 10 * (1 + 1 + 4) + 1],
    ['self.transformList(i, v, i)', 1 + 10 + 10 * (1 + 12) + 1],
  ];
  for (const [expr, want] of cases) {
    it(expr, () => {
      const c = compile(expr, decls, []);
      assert.ok(c.ok);
      assert.equal(estimateCost(c.program.ast, { self: schema }), want);
    });
  }
});
