// One filter run's budget: actual costs add up across its expressions, the run stops with kube's text once an
// expression costs more than is left, and a composited variable is paid for once per run by its first reader
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/filter.go ForInput, composition.go).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, type CompiledExpression, type Declarations } from '../../../api/cel/compile.js';
import { RUNTIME_CEL_COST_BUDGET } from '../../../api/cel/cost.js';
import { toCel } from '../../../api/cel/values.js';
import { FilterRun, OUT_OF_BUDGET_MESSAGE, OutOfBudget, variableReads, type VariableResult } from './cost-budget.js';

const decls: Declarations = { variables: { self: 'dyn', variables: 'dyn' } };
const program = (expr: string): CompiledExpression => {
  const c = compile(expr, decls, []);
  if (!c.ok) throw new Error(c.detail);
  return c.program;
};

// ceil((1 + 99,999) × 0.1) × ceil(360 × 0.25) = 10,000 × 90 = 900,000, plus 4 for reading self twice and two selects.
const COSTLY = program('self.s.matches(self.re)');
const COSTLY_COST = 900_004;
const vars = { self: toCel({ s: 'a'.repeat(99_999), re: 'x'.repeat(360) }), variables: {} };

describe('FilterRun', () => {
  it('sums the actual costs of its expressions', async () => {
    const run = new FilterRun(RUNTIME_CEL_COST_BUDGET);
    for (let i = 0; i < 11; i++) assert.deepEqual(await run.run(COSTLY, vars), { value: false });
    assert.equal(run.remaining, RUNTIME_CEL_COST_BUDGET - 11 * COSTLY_COST);
  });

  it('stops once an expression costs more than what is left', async () => {
    const run = new FilterRun(RUNTIME_CEL_COST_BUDGET);
    for (let i = 0; i < 11; i++) await run.run(COSTLY, vars);
    await assert.rejects(run.run(COSTLY, vars), (err: unknown) => err instanceof OutOfBudget && err.message === OUT_OF_BUDGET_MESSAGE);
    assert.equal(OUT_OF_BUDGET_MESSAGE, 'validation failed due to running out of cost budget, no further validation rules will be run');
  });

  it('charges a composited variable to its first reader in each run, with the variables it reads', async () => {
    const evaluated = new Map<string, VariableResult>([
      ['base', { value: 1n, cost: 400_000, reads: [] }],
      ['derived', { value: 2n, cost: 300_000, reads: ['base'] }],
    ]);
    const reader = program('variables.derived + variables.base > 0');
    assert.deepEqual(variableReads(reader.ast).sort(), ['base', 'derived']);
    const run = new FilterRun(1_000_000, evaluated);
    const vs = { self: toCel({}), variables: { base: 1n, derived: 2n } };
    assert.deepEqual(await run.run(reader, vs), { value: true });
    const first = 1_000_000 - run.remaining;
    assert.equal(first, 700_000 + 6);
    await run.run(reader, vs);
    assert.equal(1_000_000 - run.remaining, first + 6);
    // A fresh run (another filter) evaluates the variables again and cannot afford them twice over.
    const small = new FilterRun(600_000, evaluated);
    await assert.rejects(small.run(reader, vs), OutOfBudget);
  });
});
