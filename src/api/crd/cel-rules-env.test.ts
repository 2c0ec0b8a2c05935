// Which CEL environment a CRD's rules compile in: on create every rule and messageExpression is new; on update one
// whose exact text the old CRD had (in any version's schema) compiles in the stored environment, so a rule using a
// library newer than the compatibility version (semver on 1.33) survives updates but cannot be added or changed
// (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go findPreexistingExpressions, RuleEnv).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCrd } from './crd-validation.js';
import type { Crd, ValidationRule } from './types.js';

function crd(rules: ValidationRule[], extraVersionRules?: ValidationRule[]): Crd {
  const schema = (r: ValidationRule[]) => ({
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-validations': r, properties: { version: { type: 'string', maxLength: 64 } } } },
    },
  });
  const versions = [{ name: 'v1', served: true, storage: true, schema: schema(rules) }];
  if (extraVersionRules) versions.push({ name: 'v2', served: true, storage: false, schema: schema(extraVersionRules) });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'releases.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'releases', singular: 'release', kind: 'Release', listKind: 'ReleaseList' }, versions },
  } as unknown as Crd;
}

const SEMVER_RULE = "isSemver(self.version) && semver(self.version).major() >= 1";
const SEMVER_MESSAGE = "semver(self.version).major() > 1 ? 'too new' : 'too old'";
const PLAIN = "self.version != ''";

const ruleErrors = (c: Crd, old?: Crd) => validateCrd(c, old).map((e) => `${e.field}: ${e.detail.split('\n')[0]}`);

describe('x-kubernetes-validations environments on CRD create and update', () => {
  const cases: { name: string; rules: ValidationRule[]; old?: ValidationRule[]; oldOtherVersion?: ValidationRule[]; want: string[] }[] = [
    {
      name: 'a new rule using semver is refused at create',
      rules: [{ rule: SEMVER_RULE }],
      want: ["spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')"],
    },
    { name: 'an unchanged rule using semver is accepted on update', rules: [{ rule: SEMVER_RULE }], old: [{ rule: SEMVER_RULE }], want: [] },
    {
      name: 'the same rule text anywhere in the old CRD counts as stored',
      rules: [{ rule: PLAIN }, { rule: SEMVER_RULE }], old: [{ rule: PLAIN }], oldOtherVersion: [{ rule: SEMVER_RULE }], want: [],
    },
    {
      name: 'a changed rule using semver is refused on update',
      rules: [{ rule: `${SEMVER_RULE} ` }], old: [{ rule: SEMVER_RULE }],
      want: ["spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')"],
    },
    {
      name: 'a new messageExpression using semver is refused even when its rule is stored',
      rules: [{ rule: PLAIN, messageExpression: SEMVER_MESSAGE }], old: [{ rule: PLAIN }],
      want: ["spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: messageExpression compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')"],
    },
    { name: 'an unchanged messageExpression using semver is accepted', rules: [{ rule: PLAIN, messageExpression: SEMVER_MESSAGE }], old: [{ rule: 'true', messageExpression: SEMVER_MESSAGE }], want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = c.old ? crd(c.old, c.oldOtherVersion) : undefined;
      assert.deepEqual(ruleErrors(crd(c.rules), old), c.want);
    });
  }
});
