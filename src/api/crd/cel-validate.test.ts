import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateRules } from './cel-rules.js';
import { validateCelRules } from './cel-validate.js';
import type { JSONSchemaProps } from './types.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
        { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' },
        { rule: "self.name.startsWith('app-')" },
        { rule: 'self.minReplicas > 0', messageExpression: "'minReplicas is ' + string(self.minReplicas)", reason: 'FieldValueForbidden', fieldPath: '.minReplicas' },
      ],
      properties: {
        minReplicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        mode: { type: 'string' },
        name: { type: 'string' },
      },
    },
  },
};

const obj = (spec: Record<string, unknown>) => ({ apiVersion: 'x.io/v1', kind: 'W', metadata: { name: 'w' }, spec });
const texts = (errs: { toString(): string }[]) => errs.map((e) => e.toString());

describe('x-kubernetes-validations enforcement', () => {
  it('passes a valid object', () => {
    assert.deepEqual(texts(validateCelRules(schema, obj({ minReplicas: 1, maxReplicas: 2, mode: 'a', name: 'app-x' }), undefined)), []);
  });

  it('reports message, default "failed rule" text, messageExpression with reason and fieldPath', () => {
    assert.deepEqual(texts(validateCelRules(schema, obj({ minReplicas: 0, maxReplicas: -1, mode: 'a', name: 'x' }), undefined)), [
      'spec: Invalid value: "object": minReplicas must not exceed maxReplicas',
      "spec: Invalid value: \"object\": failed rule: self.name.startsWith('app-')",
      'spec.minReplicas: Forbidden: minReplicas is 0',
    ]);
  });

  it('runs transition rules only against an old value', () => {
    const next = obj({ minReplicas: 1, maxReplicas: 2, mode: 'b', name: 'app-x' });
    assert.deepEqual(texts(validateCelRules(schema, next, undefined)), []);
    assert.deepEqual(texts(validateCelRules(schema, next, obj({ minReplicas: 1, maxReplicas: 2, mode: 'a', name: 'app-x' }))), [
      'spec: Invalid value: "object": mode is immutable',
    ]);
  });

  it('reports evaluation errors with the rule', () => {
    const errs = texts(validateCelRules(schema, obj({ maxReplicas: 2, mode: 'a', name: 'app-x' }), undefined));
    assert.equal(errs[0], 'spec: Invalid value: "object": no such key: minReplicas evaluating rule: minReplicas must not exceed maxReplicas');
  });

  it('refuses rules that do not compile at CRD creation, with kube\'s path and %#v value', () => {
    const bad: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self.b == 1' }, { rule: 'self.a' }] } } };
    const errs = texts(validateRules(bad, 'spec.validation.openAPIV3Schema'));
    assert.equal(errs[0], 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.b == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'b\'\n | self.b == 1\n | ....^');
    assert.match(errs[1], /x-kubernetes-validations\[1\]\.rule: .*: cel expression must evaluate to a bool$/);
  });
});
