// Feature gate defaults, overrides with restore, and --feature-gates parsing.

import test from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FEATURE_GATES, featureEnabled, featureGates, parseFeatureGates, setFeatureGates } from './feature-gates.js';

test('Kubernetes 1.33 defaults, frozen', () => {
  assert.deepEqual({ ...DEFAULT_FEATURE_GATES }, { IdentifyPodOS: true, WindowsHostNetwork: false, RelaxedEnvironmentVariableValidation: true });
  assert.ok(Object.isFrozen(DEFAULT_FEATURE_GATES));
  assert.throws(() => { (DEFAULT_FEATURE_GATES as { WindowsHostNetwork: boolean }).WindowsHostNetwork = true; }, TypeError);
  assert.equal(featureEnabled('WindowsHostNetwork'), false);
});

test('setFeatureGates overrides on top of the defaults and restores the previous set', () => {
  const restoreOuter = setFeatureGates({ WindowsHostNetwork: true });
  try {
    assert.equal(featureEnabled('WindowsHostNetwork'), true);
    assert.equal(featureEnabled('IdentifyPodOS'), true);
    const restoreInner = setFeatureGates({ IdentifyPodOS: false });
    // Each call starts from the defaults, not from the gates in force.
    assert.deepEqual({ ...featureGates() }, { IdentifyPodOS: false, WindowsHostNetwork: false, RelaxedEnvironmentVariableValidation: true });
    restoreInner();
    assert.equal(featureEnabled('WindowsHostNetwork'), true);
  } finally {
    restoreOuter();
  }
  assert.deepEqual(featureGates(), DEFAULT_FEATURE_GATES);
});

test('unknown gates are rejected', () => {
  assert.throws(() => setFeatureGates({ Nope: true } as never), /unrecognized feature gate: Nope/);
  assert.throws(() => parseFeatureGates('Nope=true'), /unrecognized feature gate: Nope/);
});

const PARSE: [string, Record<string, boolean> | RegExp][] = [
  ['WindowsHostNetwork=true', { WindowsHostNetwork: true }],
  [' WindowsHostNetwork=1 , IdentifyPodOS=False ', { WindowsHostNetwork: true, IdentifyPodOS: false }],
  ['', {}],
  ['WindowsHostNetwork', /missing bool value for WindowsHostNetwork/],
  ['WindowsHostNetwork=yes', /invalid value of WindowsHostNetwork=yes, err: strconv.ParseBool: parsing "yes": invalid syntax/],
];

for (const [flag, expected] of PARSE) {
  test(`parseFeatureGates(${JSON.stringify(flag)})`, () => {
    if (expected instanceof RegExp) assert.throws(() => parseFeatureGates(flag), expected);
    else assert.deepEqual(parseFeatureGates(flag), expected);
  });
}
