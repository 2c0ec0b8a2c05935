import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCrd } from './crd-validation.js';
import { selectableFieldGetters } from './selectable-fields.js';
import type { Crd, CrdVersion, JSONSchemaProps } from './types.js';

// apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go ValidateCustomResourceSelectableFields,
// v1/conversion.go (identical per-version fields and schemas hoisted to spec), schema/cel/validation.go ValidFieldPath.

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['blue', 'red'] },
        size: { type: 'integer' },
        ready: { type: 'boolean' },
        ratio: { type: 'number' },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        nested: { type: 'object', properties: { a: { type: 'string' } } },
        'dotted.key': { type: 'string' },
      },
    },
  },
};

function crd(versions: Partial<CrdVersion>[]): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: versions.map((v, i) => ({ name: `v${i + 1}`, served: true, storage: i === 0, schema: { openAPIV3Schema: schema }, ...v })),
    },
  };
}

const one = (...paths: string[]) => validateCrd(crd([{ selectableFields: paths.map((jsonPath) => ({ jsonPath })) }])).map(String);
const P = 'spec.selectableFields';

describe('CRD selectableFields validation', () => {
  it('accepts string (enum, format), integer and boolean fields, and map values', () => {
    assert.deepEqual(one('.spec.color', '.spec.size', '.spec.ready', '.spec.when', '.spec.labels.team', '.spec.nested.a'), []);
  });

  const refused: [string, string[], string[]][] = [
    ['a number', ['.spec.ratio'], [`${P}[0].jsonPath: Invalid value: ".spec.ratio": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['an object', ['.spec'], [`${P}[0].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['an array', ['.spec.tags'], [`${P}[0].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`]],
    ['an unknown field', ['.spec.shape'], [`${P}[0].jsonPath: Invalid value: ".spec.shape": is an invalid path: does not refer to a valid field`]],
    ['under a scalar', ['.spec.color.x'], [`${P}[0].jsonPath: Invalid value: ".spec.color.x": is an invalid path: does not refer to a valid field`]],
    ['no leading dot', ['spec.color'], [`${P}[0].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec`]],
    ['array notation', ['.spec.tags[0]'], [`${P}[0].jsonPath: Invalid value: ".spec.tags[0]": is an invalid path: array notation is not allowed`]],
    ['a trailing dot', ['.spec.'], [`${P}[0].jsonPath: Invalid value: ".spec.": is an invalid path: unexpected end of JSON path`]],
    ['metadata (not in the schema)', ['.metadata.name'], [`${P}[0].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field`]],
    ['an empty path', [''], [`${P}[0].jsonPath: Required value`]],
    ['a duplicate', ['.spec.color', '.spec.size', '.spec.color'], [`${P}[2].jsonPath: Duplicate value: ".spec.color"`]],
    ['a quoted key (array notation)', [".spec['dotted.key']"], [`${P}[0].jsonPath: Invalid value: ".spec['dotted.key']": is an invalid path: array notation is not allowed`]],
  ];
  for (const [name, paths, want] of refused) it(`refuses ${name}`, () => assert.deepEqual(one(...paths), want));

  it('refuses fields in metadata', () => {
    const withMeta: JSONSchemaProps = { ...schema, properties: { ...schema.properties, metadata: { type: 'object', properties: { name: { type: 'string' } } } } };
    const c = crd([{ schema: { openAPIV3Schema: withMeta }, selectableFields: [{ jsonPath: '.metadata.name' }] }]);
    assert.deepEqual(validateCrd(c).map(String), [`${P}[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata`]);
  });

  it('allows at most 8', () => {
    const nine = ['.spec.color', '.spec.size', '.spec.ready', '.spec.when', '.spec.nested.a', '.spec.labels.d', '.spec.labels.a', '.spec.labels.b', '.spec.labels.c'];
    assert.deepEqual(one(...nine.slice(0, 8)), []);
    assert.deepEqual(one(...nine), [`${P}: Too many: 9: must have at most 8 items`]);
  });

  it('reports per version when the versions differ, and kube\'s hoisting quirks', () => {
    const other: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { colour: { type: 'string' } } } } };
    // Different schemas and fields: each version against its own schema.
    assert.deepEqual(validateCrd(crd([
      { selectableFields: [{ jsonPath: '.spec.color' }] },
      { schema: { openAPIV3Schema: other }, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.colour' }] },
    ])).map(String), ['spec.versions[1].selectableFields[0].jsonPath: Invalid value: ".spec.color": is an invalid path: does not refer to a valid field']);
    // Equal schemas (hoisted to spec.validation) but different fields: the version has no schema of its own left.
    assert.deepEqual(validateCrd(crd([{ selectableFields: [{ jsonPath: '.spec.color' }] }, {}])).map(String),
      ['spec.versions[0].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included']);
    // Equal fields (hoisted to spec.selectableFields) but different schemas: there is no top-level schema.
    assert.deepEqual(validateCrd(crd([
      { selectableFields: [{ jsonPath: '.spec.color' }] },
      { schema: { openAPIV3Schema: { ...schema, description: 'other' } }, selectableFields: [{ jsonPath: '.spec.color' }] },
    ])).map(String), ['spec.selectableFields: Invalid value: "": selectableFields may only be set when validations.schema is included']);
  });
});

describe('selectable field values', () => {
  it('reads the path as fmt.Sprint prints it, absent as empty', () => {
    const get = selectableFieldGetters([{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.ready' }, { jsonPath: '.spec.labels.team' }]);
    assert.deepEqual(Object.keys(get), ['spec.color', 'spec.size', 'spec.ready', 'spec.labels.team']);
    const obj = { spec: { color: 'blue', size: 3, ready: false, labels: { team: 'k' } } };
    assert.deepEqual(Object.values(get).map((g) => g(obj)), ['blue', '3', 'false', 'k']);
    assert.deepEqual(Object.values(get).map((g) => g({})), ['', '', '', '']);
  });
});
