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

// defaulting/validation.go validate (insideMeta): the default lands in an object of kind Validation whose metadata must
// pass objectmeta/validation.go validateEmbeddedResource (ValidateObjectMeta with path.ValidatePathSegmentName).
describe('CRD defaults inside metadata', () => {
  const meta = (m: JSONSchemaProps): JSONSchemaProps => root({ metadata: { type: 'object', ...m } });
  const tmpl = (m: JSONSchemaProps): JSONSchemaProps => root({
    tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'object', ...m }, foo: { type: 'string' } } },
  });
  it('reports a default that makes invalid ObjectMeta, with the default as the bad value', () => {
    const cases: [string, JSONSchemaProps, string[]][] = [
      ['the metadata object', meta({ default: { name: 'a/b' } }),
        [`${ROOT}.properties[metadata].default: Invalid value: map[string]interface {}{"name":"a/b"}: must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`]],
      ['metadata.name', meta({ properties: { name: { type: 'string', default: '..' } } }),
        [`${ROOT}.properties[metadata].properties[name].default: Invalid value: "..": must result in valid metadata: metadata.name: Invalid value: "..": may not be '..'`]],
      ['metadata.generateName', meta({ properties: { generateName: { type: 'string', default: 'x%' } } }),
        [`${ROOT}.properties[metadata].properties[generateName].default: Invalid value: "x%": must result in valid metadata: metadata.generateName: Invalid value: "x%": may not contain '%'`]],
      ['several errors, aggregated', tmpl({ default: { name: 'a/b', namespace: 'No' } }),
        [`${ROOT}.properties[tmpl].properties[metadata].default: Invalid value: map[string]interface {}{"name":"a/b", "namespace":"No"}: must result in valid metadata: [metadata.name: Invalid value: "a/b": may not contain '/', metadata.namespace: Invalid value: "No": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]`]],
    ];
    for (const [name, schema, want] of cases) assert.deepEqual(messages(schema), want, name);
  });

  // objectmeta/coerce.go: GetObjectMeta's json.Unmarshal into metav1.ObjectMeta fails before any validation.
  it('reports a metadata default of the wrong JSON type with encoding/json\'s decode error', () => {
    const cases: [string, JSONSchemaProps, string][] = [
      ['a number name', meta({ default: { name: 5 } }),
        `${ROOT}.properties[metadata].default: Invalid value: map[string]interface {}{"name":5}: must result in valid metadata: metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`],
      ['labels as a list', tmpl({ default: { labels: ['a'] } }),
        `${ROOT}.properties[tmpl].properties[metadata].default: Invalid value: map[string]interface {}{"labels":[]interface {}{"a"}}: must result in valid metadata: metadata: Invalid value: map[string]interface {}{"labels":[]interface {}{"a"}}: json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string`],
      ['a label value that is a bool, at the labels field', tmpl({ properties: { labels: { type: 'object', default: { a: true } } } }),
        `${ROOT}.properties[tmpl].properties[metadata].properties[labels].default: Invalid value: map[string]interface {}{"a":true}: must result in valid metadata: metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"a":true}}: json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string`],
    ];
    for (const [name, schema, want] of cases) assert.deepEqual(messages(schema), [want], name);
  });

  it('lets valid metadata defaults through without the pruning check, and overwrites the root\'s own kind', () => {
    const ok: [string, JSONSchemaProps][] = [
      ['labels the schema does not list', meta({ default: { labels: { app: 'web' } } })],
      ['a good name', meta({ properties: { name: { type: 'string', default: 'web-1' } } })],
      ['an empty metadata (name faked)', tmpl({ default: {} })],
      ['a root kind default (WithTypeMeta sets Validation)', root({ kind: { type: 'string', default: 'a/b' } })],
    ];
    for (const [name, schema] of ok) assert.deepEqual(messages(schema), [], name);
  });

  it('still checks a metadata default against its own schema once the metadata is valid', () => {
    assert.deepEqual(messages(meta({ properties: { name: { type: 'string', maxLength: 3, default: 'toolong' } } })),
      [`${ROOT}.properties[metadata].properties[name].default: Too long: may not be more than 3 bytes`]);
  });
});
