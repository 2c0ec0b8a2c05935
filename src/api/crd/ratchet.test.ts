import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCelRules } from './cel-validate.js';
import { validateValue, validateValueUpdate } from './schema-validate.js';
import type { JSONSchemaProps } from './types.js';

// Ratcheting rules: apiextensions-apiserver pkg/apiserver/validation/ratcheting.go, apiserver/pkg/cel/common/equality.go
// (correlation: object keys, listType=map items by key; sets and atomic lists only as a whole) and
// pkg/apiserver/schema/cel/validation.go (rules without oldSelf ratchet; transition rules never).
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1 },
        mode: { type: 'string', enum: ['Fast', 'Slow'] },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } } },
        },
        tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
        tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};
const obj = (spec: Record<string, unknown>) => ({ apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w' }, spec });
const texts = (errs: { toString(): string }[]) => errs.map(String);

describe('schema validation ratcheting', () => {
  const old = obj({ size: 0, mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'b', port: 1 }], tags: ['long-tag'] });
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['nothing changed', { size: 0, mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'b', port: 1 }], tags: ['long-tag'] }, []],
    ['another field changed; the invalid ones stay as they were',
      { size: 0, mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'b', port: 2 }], tags: ['long-tag'] }, []],
    ['a map-list reordered: items correlate by key', { size: 0, mode: 'Medium', ports: [{ name: 'b', port: 1 }, { name: 'a', port: 500 }], tags: ['long-tag'] }, []],
    ['an invalid value changed to another invalid one', { size: -1, mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'b', port: 1 }], tags: ['long-tag'] },
      ['spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 1']],
    ['a new invalid map-list item', { size: 0, mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'c', port: 101 }], tags: ['long-tag'] },
      ['spec.ports[1].port: Invalid value: 101: spec.ports[1].port in body should be less than or equal to 100']],
    ['an atomic list changed: its unchanged invalid item no longer ratchets', { size: 0, mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'b', port: 1 }], tags: ['long-tag', 'ok'] },
      ['spec.tags[0]: Too long: may not be more than 3 bytes']],
    ['a required field removed (the object changed)', { mode: 'Medium', ports: [{ name: 'a', port: 500 }, { name: 'b', port: 1 }], tags: ['long-tag'] },
      ['spec.size: Required value']],
  ];
  for (const [name, spec, want] of cases) it(name, () => assert.deepEqual(texts(validateValueUpdate(schema, obj(spec), old)), want));

  it('is not ratcheting on create, and embedded kind/apiVersion checks never ratchet', () => {
    assert.equal(validateValue(schema, old).length, 4);
    const withTmpl = obj({ size: 1, tmpl: { foo: 1 } });
    assert.deepEqual(texts(validateValueUpdate(schema, withTmpl, withTmpl)), [
      'spec.tmpl.kind: Required value: must not be empty', 'spec.tmpl.apiVersion: Required value: must not be empty',
    ]);
  });
});

describe('x-kubernetes-validations ratcheting', () => {
  const cel: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 10', message: 'a too big' }] },
          b: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'b may not shrink' }, { rule: 'self < 10', message: 'b too big' }] },
          list: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 10', message: 'item too big' }] } },
        },
      },
    },
  };
  it('drops failures of rules without oldSelf on unchanged values, through uncorrelated list items', () => {
    const old = obj({ a: 50, b: 50, list: [20] });
    assert.deepEqual(texts(validateCelRules(cel, obj({ a: 50, b: 50, list: [20] }), old)), []);
    assert.deepEqual(texts(validateCelRules(cel, obj({ a: 51, b: 50, list: [20, 1] }), old)), [
      'spec.a: Invalid value: "integer": a too big', 'spec.list[0]: Invalid value: "integer": item too big',
    ]);
  });
  it('never ratchets transition rules', () => {
    const rule: JSONSchemaProps = { type: 'object', properties: { b: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf + 1 || self == 0', message: 'must step' }] } } };
    assert.deepEqual(texts(validateCelRules(rule, { b: 3 }, { b: 3 })), ['b: Invalid value: "integer": must step']);
  });
  it('checks every rule on create', () => {
    assert.deepEqual(texts(validateCelRules(cel, obj({ a: 50, b: 50, list: [] }), undefined)), [
      'spec.a: Invalid value: "integer": a too big', 'spec.b: Invalid value: "integer": b too big',
    ]);
  });
});
