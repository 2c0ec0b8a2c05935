// CRD rules refused for their estimated cost, with kube's texts (apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go getCostErrorMessage, StaticEstimatedCostLimit 10000000 per rule,
// StaticEstimatedCRDCostLimit 100000000 per schema; sizes from apiserver pkg/cel/common/schemas.go).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateRules } from './cel-rules.js';
import { costErrorMessage } from '../cel/cost.js';
import type { JSONSchemaProps } from './types.js';

const ROOT = 'spec.validation.openAPIV3Schema';
const texts = (schema: JSONSchemaProps) => validateRules(schema, ROOT).map((e) => `${e.field}: ${e.type}: ${e.detail}`);
const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

const list = (items: JSONSchemaProps, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'array', items, ...extra });
const spec = (props: Record<string, JSONSchemaProps>, rules: string[]): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: props, 'x-kubernetes-validations': rules.map((rule) => ({ rule })) } },
});

describe('estimated rule cost', () => {
  it('formats the factor as kube does', () => {
    assert.equal(costErrorMessage('estimated rule cost', 12_000_000, 10_000_000), `estimated rule cost exceeds budget by factor of 1.200000x ${HINT}`);
    assert.equal(costErrorMessage('estimated rule cost', 25_000_000, 10_000_000), `estimated rule cost exceeds budget by factor of 2.5x ${HINT}`);
    assert.equal(costErrorMessage('estimated rule cost', 2e9, 10_000_000), `estimated rule cost exceeds budget by factor of more than 100x ${HINT}`);
  });

  // One rule that far over budget also takes the whole schema over its total.
  const overBoth = [
    `${ROOT}.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`,
    `${ROOT}.properties[spec].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${ROOT}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`,
  ];
  const cases: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
    {
      name: 'regex over every item of unbounded lists of unbounded strings',
      schema: spec({ hosts: list({ type: 'string' }) }, ["self.hosts.all(h, h.matches('^[a-z.]+$'))"]),
      want: overBoth,
    },
    {
      name: 'the same rule with maxItems and maxLength',
      schema: spec({ hosts: list({ type: 'string', maxLength: 253 }, { maxItems: 16 }) }, ["self.hosts.all(h, h.matches('^[a-z.]+$'))"]),
      want: [],
    },
    {
      name: 'nested comprehensions over unbounded lists',
      schema: spec({ a: list({ type: 'integer' }), b: list({ type: 'integer' }) }, ['self.a.all(x, self.b.exists(y, x == y))']),
      want: overBoth,
    },
    {
      name: 'scalar comparisons stay cheap',
      schema: spec({ min: { type: 'integer' }, max: { type: 'integer' } }, ['self.min <= self.max']),
      want: [],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(texts(c.schema).filter((t) => t.includes('cost')), c.want));

  it('multiplies by the cardinality of unbounded ancestor lists and sums into the schema total', () => {
    // A rule on each item of an unbounded list of objects runs once per item that fits in a request.
    const item: JSONSchemaProps = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 64 }, tags: list({ type: 'string', maxLength: 64 }, { maxItems: 32 }) },
      'x-kubernetes-validations': [{ rule: "self.tags.all(t, t.startsWith(self.name))" }],
    };
    const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { items: list(item) } } } };
    const errs = texts(schema);
    const path = `${ROOT}.properties[spec].properties[items].items.x-kubernetes-validations[0].rule`;
    assert.ok(errs.some((e) => e.startsWith(`${path}: Forbidden: estimated rule cost exceeds budget by factor of `)), errs.join('\n'));
    assert.ok(errs.includes(`${path}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`), errs.join('\n'));
    assert.ok(errs.some((e) => e.startsWith(`${ROOT}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of `)), errs.join('\n'));
    // Bounded by maxItems on the outer list, the same rule fits.
    const bounded: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { items: list(item, { maxItems: 10 }) } } } };
    assert.deepEqual(texts(bounded), []);
  });
});
