// Custom resource rules that cost more at run time than kube allows: a rule over PerCallLimit (1,000,000) stops
// validation, as do rules together over RuntimeCELCostBudget (10,000,000) per object
// (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go; k8s.io/apiserver/pkg/apis/cel/config.go).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCelRules } from './cel-validate.js';
import type { JSONSchemaProps } from './types.js';

const texts = (errs: { toString(): string }[]) => errs.map(String);
const obj = (spec: Record<string, unknown>) => ({ apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w' }, spec });

const ints = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('runtime cost of x-kubernetes-validations', () => {
  // Estimated at about 6M (under the 10M a rule may be estimated at), it costs 6 per inner step at run time.
  const pairs = 'self.vals.all(x, self.vals.all(y, x + y >= 0))';
  const message = "self.vals.all(x, self.vals.all(y, x + y >= 0)) ? 'many' : 'few'";
  const spec = (maxItems: number, rules: JSONSchemaProps['x-kubernetes-validations']): JSONSchemaProps => ({
    type: 'object',
    properties: {
      spec: { type: 'object', 'x-kubernetes-validations': rules, properties: { vals: { type: 'array', maxItems, items: { type: 'integer' } } } },
    },
  });
  const schema = spec(1000, [{ rule: pairs }, { rule: 'self.vals.size() < 3', message: 'too many' }]);
  const withMessage = spec(500, [{ rule: 'self.vals.size() < 3', messageExpression: message }]);

  const cases: { name: string; schema: JSONSchemaProps; items: number; want: string[] }[] = [
    { name: 'runs the rule while its actual cost stays under the per-call limit', schema, items: 100, want: ['spec: Invalid value: "object": too many'] },
    {
      name: 'stops at the per-call limit and runs no further rule', schema, items: 1000,
      want: [`spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${pairs}`],
    },
    { name: 'evaluates a messageExpression under the per-call limit', schema: withMessage, items: 10, want: ['spec: Invalid value: "object": many'] },
    {
      name: 'stops at the per-call limit of a messageExpression too', schema: withMessage, items: 500,
      want: [`spec: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(message)}`],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(texts(validateCelRules(c.schema, obj({ vals: ints(c.items) }), undefined)), c.want));
  }

  // Each item's rule costs about 401,000: ceil((1 + 4000) × 0.1) × ceil(4000 × 0.25) for a 4000-character pattern.
  const pattern = 'x|'.repeat(1999) + 'x';
  const budgetSchema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          names: {
            type: 'array', maxItems: 30,
            items: { type: 'string', maxLength: 4000, 'x-kubernetes-validations': [{ rule: `!self.matches('${pattern}')`, message: 'has an x' }] },
          },
        },
      },
    },
  };

  it('stops when the rules of one object together run out of budget', () => {
    const errs = texts(validateCelRules(budgetSchema, obj({ names: Array.from({ length: 30 }, () => 'a'.repeat(4000)) }), undefined));
    // 24 items fit in 10,000,000; the 25th does not, and nothing after it runs.
    assert.deepEqual(errs, ['spec.names[24]: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run']);
  });

  it('reports ordinary failures when the items are few', () => {
    assert.deepEqual(texts(validateCelRules(budgetSchema, obj({ names: ['a'.repeat(4000), 'x'] }), undefined)), ['spec.names[1]: Invalid value: "string": has an x']);
  });
});
