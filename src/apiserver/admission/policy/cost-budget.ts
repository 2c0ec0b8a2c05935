// The runtime cost budget one policy evaluation shares: each filter (matchConditions, validations, then the
// messageExpressions on what the validations left) evaluates its expressions in order under the per-call limit and
// charges each one's actual cost, plus the cost of the composited variables it is first to read, against the budget;
// past it the filter stops with kube's error (staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/filter.go
// ForInput, composition.go; policy/validating/validator.go Validate; pkg/apis/cel/config.go).

import type { ASTNode } from '@marcbachmann/cel-js';
import { evaluateWithCost, type CompiledExpression } from '../../../api/cel/compile.js';
import { visit } from '../../../api/cel/ast-checks.js';

/** filter.go's detail when an expression's cost passes what is left of the budget. */
export const OUT_OF_BUDGET_MESSAGE = 'validation failed due to running out of cost budget, no further validation rules will be run';

export class OutOfBudget extends Error {
  constructor() {
    super(OUT_OF_BUDGET_MESSAGE);
    this.name = 'OutOfBudget';
  }
}

/** A composited variable already evaluated: its value (absent when it failed), its own cost, the variables it reads. */
export interface VariableResult {
  value?: unknown;
  cost: number;
  reads: string[];
}

/** The names `expression` reads as `variables.<name>`. */
export function variableReads(ast: ASTNode): string[] {
  const names = new Set<string>();
  visit(ast, (n) => {
    if (n.op !== '.' && n.op !== '.?') return;
    const [target, field] = n.args as [ASTNode, string];
    if (target.op === 'id' && target.args === 'variables' && typeof field === 'string') names.add(field);
  });
  return [...names];
}

/**
 * One filter run (one ForInput): a budget, and the variables already charged in it — composited variables are
 * evaluated lazily once per run, by the first expression that reads them, which pays for them.
 */
export class FilterRun {
  private readonly charged = new Set<string>();
  constructor(public remaining: number, private readonly variables: ReadonlyMap<string, VariableResult> = new Map()) {}

  /** The cost of the variables `ast` reads that this run has not evaluated yet, transitively. */
  private compositionCost(names: string[]): number {
    let cost = 0;
    for (const name of names) {
      const v = this.variables.get(name);
      if (!v || this.charged.has(name)) continue;
      this.charged.add(name);
      cost += this.compositionCost(v.reads) + v.cost;
    }
    return cost;
  }

  /** Evaluates `p` and charges it; throws OutOfBudget when the budget cannot cover it (nothing further runs). */
  async run(p: CompiledExpression, vars: Record<string, unknown>): Promise<{ value?: unknown; error?: string }> {
    const r = await evaluateWithCost(p, vars);
    const composition = this.compositionCost(variableReads(p.ast));
    if (composition > this.remaining) throw new OutOfBudget();
    this.remaining -= composition;
    if (r.cost > this.remaining) throw new OutOfBudget();
    this.remaining -= r.cost;
    return r.error !== undefined ? { error: r.error } : { value: r.value };
  }
}
