// Actual evaluation cost as cel-go's CostObserver counts it, and the per-expression limit kube sets
// (cel-go interpreter/runtimecost.go; ext/sets.go trackSetsCost; staging/src/k8s.io/apiserver/pkg/cel/library/cost.go
// and cost_test.go; pkg/apis/cel/config.go PerCallLimit).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, evaluateSyncWithCost, evaluateWithCost, type Declarations } from './compile.js';
import { PER_CALL_LIMIT } from './cost.js';
import { COST_LIMIT_MESSAGE } from './runtime-cost.js';
import { toCel } from './values.js';

const decls: Declarations = { variables: { self: 'dyn' } };
const self = toCel({ l: Array.from({ length: 1000 }, (_, i) => i), s: 'abcdefghij'.repeat(10), name: 'web' });

function program(expr: string) {
  const c = compile(expr, decls, []);
  if (!c.ok) throw new Error(c.detail);
  return c.program;
}

describe('actual cost of an evaluation', () => {
  const cases: [string, number][] = [
    // Literals are free; a variable or field read costs 1; each call or operator 1.
    ['1 + 2', 1],
    ['self.name', 2],
    ['self.name == "web"', 2 + 1],
    ['[1, 2, 3]', 10],
    ['{"a": 1}', 30],
    // kube's cost_test.go: sets functions and url accessors.
    ['sets.contains([], [])', 21],
    ['sets.contains([1], [1])', 22],
    ['sets.equivalent([1, 2], [2, 1])', 10 + 10 + 1 + 2 * 2 * 2],
    ['url("https://kubernetes.io/").getHost()', 4],
    // Strings are traversed at a tenth of their length: equality, concatenation, matches.
    ['self.s == self.s', 2 + 2 + 10],
    ['self.s + self.s', 2 + 2 + 20],
    ['self.s.matches("^a")', 2 + 1 * Math.ceil(101 * 0.1) * Math.ceil(2 * 0.25)],
    ['self.s.startsWith("abc")', 2 + 10],
    // has() tests for presence at no cost (PresenceTestHasCost(false)).
    ['has(self.name)', 1],
    // Comprehensions: the range, then per element the body plus what the expansion adds, then the result.
    ['self.l.all(x, x >= 0)', 2 + 1000 * (2 + 3) + 1],
    ['self.l.map(x, x * 2)', 2 + 10 + 1000 * (2 + 12) + 1],
    ['self.l.exists(x, x == 2)', 2 + 3 * (2 + 4) + 1],
    ['self.l.all(i, x, x >= i)', 2 + 1000 * (3 + 3) + 1],
    ['self.l.transformList(i, x, x)', 2 + 10 + 1000 * (1 + 12) + 1],
    ['cel.bind(n, self.name, n + n)', 2 + 10 + 1 + 1 + 1],
  ];
  for (const [expr, want] of cases) {
    it(`${expr} costs ${want}`, async () => assert.equal((await evaluateWithCost(program(expr), { self })).cost, want));
  }

  it('the synchronous path counts the same', () => {
    const p = program('self.l.filter(x, x > 500).size()');
    assert.equal(evaluateSyncWithCost(p, { self }).cost, 2 + 10 + 1000 * 2 + 499 * 13 + 501 * 1 + 1 + 1);
  });
});

describe('the per-expression cost limit', () => {
  it('is kube\'s PerCallLimit', () => assert.equal(PER_CALL_LIMIT, 1_000_000));

  const cancelled: string[] = [
    'self.l.all(x, self.l.all(y, x + y >= 0))',
    'self.l.map(x, self.l.map(y, x * y)).size() > 0',
    // Neither an error-absorbing || nor a quantifier may hide the cancellation.
    'self.l.exists(x, self.l.all(y, y < 999 || x > y)) || true',
    'self.l.all(i, x, !self.l.exists(j, y, y == 5000)) && false',
  ];
  for (const expr of cancelled) {
    it(`${expr} stops with cel-go's message`, async () => {
      const r = await evaluateWithCost(program(expr), { self });
      assert.equal(r.error, COST_LIMIT_MESSAGE);
      assert.ok(r.cost > PER_CALL_LIMIT);
      assert.deepEqual(evaluateSyncWithCost(program(expr), { self }).error, COST_LIMIT_MESSAGE);
    });
  }

  it('lets a cheap expression through and honours a lower limit', async () => {
    const p = program('self.l.all(x, x >= 0)');
    assert.deepEqual(await evaluate(p, { self }), { value: true });
    assert.deepEqual(await evaluateWithCost(p, { self }, 100), { error: COST_LIMIT_MESSAGE, cost: 101 });
  });

  it('keeps concurrent evaluations apart', async () => {
    const heavy = program('self.l.all(x, self.l.all(y, x + y >= 0))');
    const light = program('self.l.all(x, x >= 0)');
    const [a, b] = await Promise.all([evaluateWithCost(heavy, { self }), evaluateWithCost(light, { self })]);
    assert.equal(a.error, COST_LIMIT_MESSAGE);
    assert.deepEqual(b, { value: true, cost: 5003 });
  });
});
