// spec.os validation: supported names, the exact path kube reports, and the IdentifyPodOS era switch.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { setFeatureGates } from '../../feature-gates.js';
import { validatePodOS } from './pod-os.js';

const spec = (os: unknown, extra: Record<string, unknown> = {}) =>
  ({ os, containers: [{ name: 'a', image: 'i' }], ...extra }) as PodSpec;
const run = (s: PodSpec, path = 'spec') => validatePodOS(s, path).map(String);

const CASES: [string, unknown, string[]][] = [
  ['linux', { name: 'linux' }, []],
  ['windows', { name: 'windows' }, []],
  ['unknown name, reported on spec.os', { name: 'foo' }, ['spec.os: Unsupported value: "foo": supported values: "linux", "windows"']],
  ['names are case-sensitive', { name: 'Windows' }, ['spec.os: Unsupported value: "Windows": supported values: "linux", "windows"']],
  ['empty name', { name: '' }, ['spec.os.name: Required value: cannot be empty']],
  ['missing name', {}, ['spec.os.name: Required value: cannot be empty']],
  ['os null', null, []],
];

for (const [name, os, expected] of CASES) {
  test(`spec.os: ${name}`, () => assert.deepEqual(run(spec(os)), expected));
}

test('spec.os: a bad name stops there — no forbidden-field errors', () => {
  assert.deepEqual(run(spec({ name: 'win' }, { hostPID: true })), ['spec.os: Unsupported value: "win": supported values: "linux", "windows"']);
});

test('spec.os: the value prints as Go %q', () => {
  assert.deepEqual(run(spec({ name: 'a\u0001b' }), 'spec.template.spec'),
    ['spec.template.spec.os: Unsupported value: "a\\x01b": supported values: "linux", "windows"']);
});

test('IdentifyPodOS off (1.23 era): spec.os is ignored, so nothing is forbidden', () => {
  const restore = setFeatureGates({ IdentifyPodOS: false });
  try {
    assert.deepEqual(run(spec({ name: 'foo' })), []);
    assert.deepEqual(run(spec({ name: 'windows' }, { hostPID: true })), []);
  } finally {
    restore();
  }
  assert.deepEqual(run(spec({ name: 'windows' }, { hostPID: true })), ['spec.hostPID: Forbidden: cannot be set for a windows pod']);
});
