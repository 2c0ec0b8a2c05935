import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCrd } from './crd-validation.js';
import { validateSchema } from './structural.js';
import type { Crd, JSONSchemaProps } from './types.js';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const errs = (s: JSONSchemaProps) => validateSchema(s, P).map(String);

function crd(over: Partial<Crd['spec']> = {}, name = 'widgets.example.com'): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      ...over,
    },
  };
}

describe('structural schemas', () => {
  it('needs types where kube needs them', () => {
    assert.deepEqual(errs({}), [`${P}.type: Required value: must not be empty at the root`]);
    assert.deepEqual(errs({ type: 'object', properties: { spec: {} } }), [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`]);
    assert.deepEqual(errs({ type: 'object', properties: { a: { type: 'array' } } }), [`${P}.properties[a].items: Required value: must be specified`]);
    assert.deepEqual(errs({ type: 'string' }), [`${P}.type: Invalid value: "string": must be object at the root`]);
    assert.deepEqual(errs({ type: 'object', properties: { a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }), []);
  });

  it('refuses what is not structural', () => {
    assert.deepEqual(errs({ type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }] } } }),
      [`${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`]);
    assert.deepEqual(errs({ type: 'object', additionalProperties: { type: 'string' } }), [`${P}.additionalProperties: Forbidden: must not be used at the root`]);
    assert.deepEqual(errs({ type: 'object', properties: { a: { type: 'date' } } }),
      [`${P}.properties[a].type: Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string"`]);
    assert.deepEqual(errs({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }),
      [`${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`]);
  });
});

describe('CustomResourceDefinition validation', () => {
  it('accepts a good one', () => assert.deepEqual(validateCrd(crd()).map(String), []));

  it('checks the name, the group and the storage version', () => {
    assert.deepEqual(validateCrd(crd({}, 'widget.example.com')).map(String),
      ['metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group']);
    assert.deepEqual(validateCrd(crd({ group: 'example' }, 'widgets.example')).map(String), ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
    const two = validateCrd(crd({ versions: [
      { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ] })).map(String);
    assert.equal(two.length, 1);
    assert.match(two[0], /^spec\.versions: Invalid value: .*: must have exactly one version marked as storage version$/);
    assert.deepEqual(validateCrd(crd({ versions: [{ name: 'v1', served: true, storage: true }] })).map(String), ['spec.versions[0].schema.openAPIV3Schema: Required value']);
  });

  it('asks protected groups for API approval', () => {
    const c = crd({ group: 'windows.k8s.io' }, 'widgets.windows.k8s.io');
    assert.deepEqual(validateCrd(c).map(String), ['metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111']);
    c.metadata.annotations = { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111' };
    assert.deepEqual(validateCrd(c).map(String), []);
  });
});
