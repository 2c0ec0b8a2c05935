// The policy type checker: kube's fieldRefs, `<gvk>: <issues>` texts, the kinds it resolves and the ones it skips
// (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go, typechecking_test.go).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getComponentSchemas, SCHEMA_REF_PREFIX } from '../../../api/openapi/schemas.js';
import type { KubeObject } from '../../../api/types.js';
import type { PolicySpec } from '../../../api/validation/validating-admission-policy.js';
import { typeCheckPolicy, typesToCheck, type Gvk, type TypeResolver } from './type-checking.js';

type Schema = Record<string, unknown>;

/** A custom resource's published schema (a root with spec.size) beside the built-in definitions. */
const widget: Schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' }, kind: { type: 'string' },
    metadata: { $ref: `${SCHEMA_REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` },
    spec: { type: 'object', properties: { size: { type: 'integer' }, any: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
  },
  'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
};

const KINDS: Record<string, string> = {
  'apps/v1/deployments': 'Deployment', 'apps/v1/replicasets': 'ReplicaSet', '/v1/pods': 'Pod', '/v1/configmaps': 'ConfigMap',
  'example.com/v1/widgets': 'Widget', 'example.com/v1/gadgets': 'Gadget',
};

const resolver: TypeResolver = {
  async kindsFor(group, version, resource) {
    const kind = KINDS[`${group}/${version}/${resource}`];
    return kind ? [{ group, version, kind }] : [];
  },
  async schemaFor(gvk: Gvk) {
    const schemas: Record<string, Schema> = { ...getComponentSchemas(), 'com.example.v1.Widget': widget };
    const schema = Object.values(schemas).find((s) => ((s['x-kubernetes-group-version-kind'] as Gvk[] | undefined) ?? [])
      .some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind));
    return schema && { schema, lookup: (ref: string) => schemas[ref.slice(SCHEMA_REF_PREFIX.length)] };
  },
};

const rule = (apiGroups: string[], resources: string[], apiVersions = ['v1']) => ({ apiGroups, apiVersions, resources, operations: ['CREATE'] });
const policy = (spec: PolicySpec): KubeObject => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec });
const deployments = { resourceRules: [rule(['apps'], ['deployments'])] };

const issue = (gvk: string, expr: string, col: number, msg: string) =>
  `${gvk}: ERROR: <input>:1:${col}: ${msg}\n | ${expr}\n | ${'.'.repeat(col - 1)}^\n`;
const DEPLOY = 'apps/v1, Kind=Deployment';

describe('ValidatingAdmissionPolicy type checking', () => {
  const cases: { name: string; spec: PolicySpec; want: { fieldRef: string; warning: string }[] }[] = [
    {
      name: 'an undefined field of the matched kind',
      spec: { matchConstraints: deployments, validations: [{ expression: 'object.spec.replicass > 1' }] },
      want: [{ fieldRef: 'spec.validations[0].expression', warning: issue(DEPLOY, 'object.spec.replicass > 1', 12, "undefined field 'replicass'") }],
    },
    {
      name: 'well-typed expressions give no warning',
      spec: {
        matchConstraints: deployments,
        validations: [
          { expression: 'object.spec.replicas <= 5 && object.metadata.name.startsWith("web")', messageExpression: '"replicas: " + string(object.spec.replicas)' },
          { expression: 'object.spec.template.spec.containers.all(c, c.image != "")' },
          { expression: 'object.metadata.creationTimestamp < timestamp("2030-01-01T00:00:00Z")' },
        ],
      },
      want: [],
    },
    {
      name: 'a messageExpression gets its own fieldRef; each matched kind its own block',
      spec: {
        matchConstraints: { resourceRules: [rule(['apps'], ['replicasets', 'deployments'])] },
        validations: [{ expression: 'true', messageExpression: "'too many: ' + object.spec.replicas" }],
      },
      want: [{
        fieldRef: 'spec.validations[0].messageExpression',
        warning: [DEPLOY, 'apps/v1, Kind=ReplicaSet'].map((g) => issue(g, "'too many: ' + object.spec.replicas", 14, "found no matching overload for '_+_' applied to '(string, int)'")).join('\n'),
      }],
    },
    {
      name: 'the core group prints with an empty group',
      spec: { matchConstraints: { resourceRules: [rule([''], ['pods'])] }, validations: [{ expression: 'object.spec.nodeNmae == ""' }] },
      want: [{ fieldRef: 'spec.validations[0].expression', warning: issue('/v1, Kind=Pod', 'object.spec.nodeNmae == ""', 12, "undefined field 'nodeNmae'") }],
    },
    {
      name: 'params typed by paramKind, variables by their expressions',
      spec: {
        matchConstraints: deployments, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        variables: [{ name: 'limit', expression: 'int(params.data.limit)' }],
        validations: [{ expression: 'object.spec.replicas <= variables.limit' }, { expression: 'params.dat.size() > 0' }, { expression: 'variables.limit == "x"' }],
      },
      want: [
        { fieldRef: 'spec.validations[1].expression', warning: issue(DEPLOY, 'params.dat.size() > 0', 7, "undefined field 'dat'") },
        { fieldRef: 'spec.validations[2].expression', warning: issue(DEPLOY, 'variables.limit == "x"', 17, "found no matching overload for '_==_' applied to '(int, string)'") },
      ],
    },
    {
      name: 'a custom resource by its published schema; preserve-unknown-fields objects expose no fields',
      spec: {
        matchConstraints: { resourceRules: [rule(['example.com'], ['widgets'])] },
        validations: [{ expression: 'object.spec.size > 0' }, { expression: 'object.spec.any.foo == 1' }],
      },
      want: [{ fieldRef: 'spec.validations[1].expression', warning: issue('example.com/v1, Kind=Widget', 'object.spec.any.foo == 1', 16, "undefined field 'foo'") }],
    },
    {
      name: 'wildcards, subresources, unknown resources and kinds without a schema are not checked',
      spec: {
        matchConstraints: { resourceRules: [rule(['*'], ['deployments']), rule(['apps'], ['*', 'deployments/scale']), rule(['apps'], ['deployments'], ['*']), rule(['example.com'], ['gadgets', 'nothings'])] },
        validations: [{ expression: 'object.nothing' }],
      },
      want: [],
    },
  ];
  for (const c of cases) it(c.name, async () => assert.deepEqual(await typeCheckPolicy(policy(c.spec), resolver), c.want));

  it('collects kinds sorted by group, version and kind', async () => {
    const spec: PolicySpec = { matchConstraints: { resourceRules: [rule(['example.com'], ['widgets']), rule(['apps', ''], ['replicasets', 'deployments', 'pods'])] } };
    assert.deepEqual((await typesToCheck(spec, resolver)).map((g) => g.kind), ['Pod', 'Deployment', 'ReplicaSet', 'Widget']);
  });
});
