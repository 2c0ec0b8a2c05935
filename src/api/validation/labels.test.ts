import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateLabelName, validateLabelSelector } from './labels.js';

// An absent key (a `{}` taint or selector requirement, or a JSON null list item decoded to one) is Go's empty string,
// so it fails as "" does instead of throwing. Messages: apimachinery pkg/util/validation IsQualifiedName.
test('a missing label name is validated as the empty string', () => {
  const errs = validateLabelName(undefined, 'spec.taints[0].key').map(String);
  assert.deepEqual(errs, validateLabelName('', 'spec.taints[0].key').map(String));
  assert.match(errs[0], /^spec\.taints\[0\]\.key: Invalid value: "": name part must be non-empty/);
});

test('a selector requirement with neither key nor operator gives field errors', () => {
  const errs = validateLabelSelector({ matchExpressions: [{} as never] }, 'spec.selector').map(String);
  assert.deepEqual(errs.map((e) => e.split(':')[0]), ['spec.selector.matchExpressions[0].operator', 'spec.selector.matchExpressions[0].key', 'spec.selector.matchExpressions[0].key']);
  assert.equal(errs[0], 'spec.selector.matchExpressions[0].operator: Invalid value: "": not a valid selector operator');
});
