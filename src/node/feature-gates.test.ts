import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureEnabled, featureGateProblems, gateAt } from './feature-gates.js';
import { kubeletAtLeast, parseKubeVersion } from './kube-version.js';

test('parseKubeVersion and kubeletAtLeast', () => {
  assert.deepEqual(parseKubeVersion('v1.19.4'), { minor: 19, patch: 4 });
  assert.deepEqual(parseKubeVersion('1.23'), { minor: 23, patch: 0 });
  assert.equal(parseKubeVersion('latest'), undefined);
  assert.equal(kubeletAtLeast('v1.19.4', 19, 5), false);
  assert.equal(kubeletAtLeast('v1.19.5', 19, 5), true);
  assert.equal(kubeletAtLeast('v1.20.0', 19, 5), true);
  assert.equal(kubeletAtLeast('nonsense', 40), true, 'an unparsable version counts as current');
});

// IdentifyPodOS: alpha 1.23 (seed 002 "Pods > OS field"), beta 1.24, GA locked 1.25, removed 1.27.
const identify: [version: string, gates: Record<string, boolean> | undefined, on: boolean][] = [
  ['v1.22.17', undefined, false],
  ['v1.22.17', { IdentifyPodOS: true }, false],
  ['v1.23.17', undefined, false],
  ['v1.23.17', { IdentifyPodOS: true }, true],
  ['v1.24.0', undefined, true],
  ['v1.24.0', { IdentifyPodOS: false }, false],
  ['v1.25.0', { IdentifyPodOS: false }, true],
  ['v1.33.1', undefined, true],
];
for (const [version, gates, on] of identify) {
  test(`IdentifyPodOS on kubelet ${version} with ${JSON.stringify(gates ?? {})}: ${on}`, () => {
    assert.equal(featureEnabled({ kubeletVersion: version, featureGates: gates }, 'IdentifyPodOS'), on);
  });
}

test('gate stages by version', () => {
  assert.deepEqual(gateAt('WindowsGMSA', 'v1.13.0'), { known: false });
  assert.deepEqual(gateAt('WindowsGMSA', 'v1.14.0'), { known: true, stage: 'ALPHA', default: false, locked: false });
  assert.deepEqual(gateAt('WindowsGMSA', 'v1.16.0'), { known: true, stage: 'BETA', default: true, locked: false });
  assert.deepEqual(gateAt('WindowsRunAsUserName', 'v1.18.0'), { known: true, stage: 'GA', default: true, locked: false });
  assert.deepEqual(gateAt('IdentifyPodOS', 'v1.27.0'), { known: false });
  assert.equal(gateAt('SomethingElse', 'v1.27.0'), undefined, 'gates winkube does not model are not judged');
});

test('featureGateProblems words them as component-base does', () => {
  assert.deepEqual(featureGateProblems({ WindowsGMSA: true, Foo: true }, 'v1.13.5'), [{ gate: 'WindowsGMSA', message: 'unrecognized feature gate: WindowsGMSA' }]);
  assert.deepEqual(featureGateProblems({ WindowsHostProcessContainers: false }, 'v1.26.0'), [
    { gate: 'WindowsHostProcessContainers', message: 'cannot set feature gate WindowsHostProcessContainers to false, feature is locked to true' },
  ]);
  assert.deepEqual(featureGateProblems({ HyperVContainer: true }, 'v1.10.13'), []);
});

test('/configz reports the gates the profile sets', async () => {
  const { kubeletConfigz } = await import('./configz.js');
  const { windowsProfile } = await import('./fleet-defaults.js');
  const cfg = kubeletConfigz(windowsProfile('w', 0, '10.0.17763', { kubeletVersion: 'v1.23.17', featureGates: { IdentifyPodOS: true } })) as { kubeletconfig: { featureGates: object } };
  assert.deepEqual(cfg.kubeletconfig.featureGates, { IdentifyPodOS: true });
});
