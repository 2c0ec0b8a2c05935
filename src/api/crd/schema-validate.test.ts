import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyDefaults } from './schema-defaults.js';
import { pruneObject } from './schema-prune.js';
import { validateValue } from './schema-validate.js';
import type { JSONSchemaProps } from './types.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', enum: ['Fast', 'Slow'] },
        name: { type: 'string', maxLength: 5, minLength: 2, pattern: '^[a-z]+$' },
        port: { 'x-kubernetes-int-or-string': true },
        raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const messages = (obj: unknown) => validateValue(schema, obj).map(String);

describe('custom resource schema validation', () => {
  it('words errors as kube-openapi through apiextensions-apiserver does', () => {
    const cases: [unknown, string[]][] = [
      [{ spec: { size: 0 } }, ['spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1']],
      [{ spec: { size: 11 } }, ['spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10']],
      [{ spec: { size: 1, replicas: 'three' } }, ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']],
      [{ spec: {} }, ['spec.size: Required value']],
      [{ spec: { size: 1, mode: 'Medium' } }, ['spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"']],
      [{ spec: { size: 1, name: 'toolong' } }, ['spec.name: Too long: may not be more than 5 bytes']],
      [{ spec: { size: 1, name: 'a' } }, ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long']],
      [{ spec: { size: 1, name: 'AB' } }, ["spec.name: Invalid value: \"AB\": spec.name in body should match '^[a-z]+$'"]],
      [{ spec: { size: 1, port: true } }, ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']],
      [{ spec: { size: 1, tags: ['a', 'b', 'c'] } }, ['spec.tags: Too many: 3: must have at most 2 items']],
      [{ spec: { size: 1, tags: [1] } }, ['spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer"']],
      [{ spec: { size: 1, labels: { a: 1 } } }, ['spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"']],
      [{ spec: { size: 1, template: {} } }, ['spec.template.kind: Required value: must not be empty', 'spec.template.apiVersion: Required value: must not be empty']],
      [{ spec: { size: 2, port: 'http', raw: { anything: [1] } } }, []],
    ];
    for (const [obj, want] of cases) assert.deepEqual(messages(obj), want, JSON.stringify(obj));
  });

  it('prints bounds the way Go prints float64', () => {
    const big: JSONSchemaProps = { type: 'object', properties: { n: { type: 'number', minimum: 1000000 } } };
    assert.deepEqual(validateValue(big, { n: 5 }).map(String), ['n: Invalid value: 5: n in body should be greater than or equal to 1e+06']);
  });

  it('prunes unknown fields but keeps preserved ones and the API server’s own', () => {
    const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, extra: 1, spec: { size: 1, bogus: true, raw: { keep: 1 }, tags: ['a'], labels: { k: 'v' } } };
    assert.deepEqual(pruneObject(schema, obj, false), ['extra', 'spec.bogus']);
    assert.deepEqual(pruneObject(schema, obj, true), ['extra', 'spec.bogus']);
    assert.deepEqual(obj, { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: { size: 1, raw: { keep: 1 }, tags: ['a'], labels: { k: 'v' } } });
  });

  it('defaults missing fields with copies', () => {
    const a = { spec: { size: 1 } };
    applyDefaults(schema, a);
    assert.deepEqual(a, { spec: { size: 1, replicas: 1 } });
  });
});
