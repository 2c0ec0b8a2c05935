import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCrd } from './crd-validation.js';
import { validateDefaults } from './default-validation.js';
import type { Crd, JSONSchemaProps } from './types.js';

const ROOT = 'spec.validation.openAPIV3Schema';
const root = (props: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties: props });
const messages = (s: JSONSchemaProps) => validateDefaults(s, ROOT).map(String);

// Texts: defaulting/validation.go (validate), validation/validation.go kubeOpenAPIResultToFieldErrors, and the
// kube-openapi validator at the default's root, whose name is empty (`%s in %s …` with "" and "body").
describe('CRD default validation', () => {
  it('checks each default against its own schema, under the default\'s path', () => {
    const cases: [string, JSONSchemaProps, string[]][] = [
      ['a number below the minimum', root({ size: { type: 'integer', minimum: 1, default: 0 } }),
        [`${ROOT}.properties[size].default: Invalid value: 0:  in body should be greater than or equal to 1`]],
      ['the wrong type', root({ name: { type: 'string', default: 5 } }),
        [`${ROOT}.properties[name].default: Invalid value: "integer":  in body must be of type string: "integer"`]],
      ['a value not in the enum', root({ mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Medium' } }),
        [`${ROOT}.properties[mode].default: Unsupported value: "Medium": supported values: "Fast", "Slow"`]],
      ['a field of an object default', root({ spec: { type: 'object', properties: { n: { type: 'integer', maximum: 3 } }, default: { n: 5 } } }),
        [`${ROOT}.properties[spec].default.n: Invalid value: 5: n in body should be less than or equal to 3`]],
      ['an array item default', root({ list: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$', default: 'A1' } } }),
        [`${ROOT}.properties[list].items.default: Invalid value: "A1":  in body should match '^[a-z]+$'`]],
      ['unknown fields', root({ spec: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } }),
        [`${ROOT}.properties[spec].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`]],
      ['a rule the default breaks', root({ n: { type: 'integer', default: 5, 'x-kubernetes-validations': [{ rule: 'self < 3', message: 'must be small' }] } }),
        [`${ROOT}.properties[n].default: Invalid value: "integer": must be small`]],
    ];
    for (const [name, schema, want] of cases) assert.deepEqual(messages(schema), want, name);
  });

  it('accepts valid and preserved defaults, and ignores a null default', () => {
    const ok: [string, JSONSchemaProps][] = [
      ['valid nested defaults', root({ spec: { type: 'object', properties: { a: { type: 'string', default: 'x' }, n: { type: 'integer', minimum: 1, default: 1 } }, default: { a: 'y' } } })],
      ['unknown fields under preserve-unknown-fields', root({ raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { any: 1 } } })],
      ['an embedded resource with its type meta', root({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { foo: { type: 'string' } }, default: { apiVersion: 'v1', kind: 'Foo', metadata: { name: 'x' }, foo: 'a' } } })],
      ['a null default', root({ a: { type: 'string', default: null } })],
    ];
    for (const [name, schema] of ok) assert.deepEqual(messages(schema), [], name);
  });

  it('requires apiVersion and kind in an embedded resource\'s default', () => {
    const s = root({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { foo: { type: 'string' } }, default: { foo: 'a' } } });
    assert.deepEqual(messages(s), [
      `${ROOT}.properties[tmpl].default.kind: Required value: must not be empty`,
      `${ROOT}.properties[tmpl].default.apiVersion: Required value: must not be empty`,
    ]);
  });

  it('is part of CRD validation, at spec.validation when all versions share a schema and per version otherwise', () => {
    const bad = root({ spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1, default: 0 } } } });
    const good = root({ spec: { type: 'object', properties: { size: { type: 'integer' } } } });
    const crd = (schemas: JSONSchemaProps[]): Crd => ({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: schemas.map((s, i) => ({ name: `v${i + 1}`, served: true, storage: i === 0, schema: { openAPIV3Schema: s } })),
      },
    }) as Crd;
    const defaultErrs = (c: Crd) => validateCrd(c).map(String).filter((m) => m.includes('.default'));
    assert.deepEqual(defaultErrs(crd([bad, bad])), [`${ROOT}.properties[spec].properties[size].default: Invalid value: 0:  in body should be greater than or equal to 1`]);
    assert.deepEqual(defaultErrs(crd([good, bad])), ['spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: 0:  in body should be greater than or equal to 1']);
  });
});
