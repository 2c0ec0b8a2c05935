// HostProcess pod rules with kube's rendered messages.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { validateHostProcess } from './host-process.js';

const ALL = 'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers';
const NET = 'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers';
const mismatch = (path: string, own: boolean, pod: boolean) =>
  `${path}.securityContext.windowsOptions.hostProcess: Invalid value: ${own}: pod hostProcess value must be identical if both are specified, was ${pod}`;

const hp = (v: boolean | undefined) => (v === undefined ? {} : { securityContext: { windowsOptions: { hostProcess: v } } });
const c = (name: string, v?: boolean) => ({ name, image: 'img', ...hp(v) });

interface Case {
  name: string;
  spec: Partial<PodSpec>;
  expected: string[];
}

const CASES: Case[] = [
  { name: 'no hostProcess anywhere', spec: { containers: [c('a')] }, expected: [] },
  { name: 'pod-level true, inherited, hostNetwork', spec: { hostNetwork: true, ...hp(true), containers: [c('a'), c('b')] }, expected: [] },
  { name: 'every container true, hostNetwork', spec: { hostNetwork: true, containers: [c('a', true)], initContainers: [c('i', true)] }, expected: [] },
  { name: 'pod false, containers unset', spec: { ...hp(false), containers: [c('a')] }, expected: [] },
  { name: 'pod true without hostNetwork', spec: { ...hp(true), containers: [c('a')] }, expected: [NET] },
  { name: 'hostNetwork false is the same as unset', spec: { hostNetwork: false, containers: [c('a', true)] }, expected: [NET] },
  { name: 'one of two containers', spec: { hostNetwork: true, containers: [c('a', true), c('b')] }, expected: [ALL] },
  { name: 'an init container that is not HostProcess counts', spec: { hostNetwork: true, containers: [c('a', true)], initContainers: [c('i', false)] }, expected: [ALL] },
  { name: 'an ephemeral container counts', spec: { hostNetwork: true, containers: [c('a', true)], ephemeralContainers: [c('e')] }, expected: [ALL] },
  {
    name: 'pod true, container false: mismatch, mixed, and no hostNetwork',
    spec: { ...hp(true), containers: [c('a'), c('b', false)] },
    expected: [mismatch('spec.containers[1]', false, true), ALL, NET],
  },
  {
    name: 'pod false, container true: mismatch reported per container in visit order (init first)',
    spec: { hostNetwork: true, ...hp(false), containers: [c('a', true)], initContainers: [c('i', true)] },
    expected: [mismatch('spec.initContainers[0]', true, false), mismatch('spec.containers[0]', true, false)],
  },
  {
    name: 'pod true, the only container false: a mismatch, but no HostProcess container',
    spec: { ...hp(true), containers: [c('a', false)] },
    expected: [mismatch('spec.containers[0]', false, true)],
  },
  {
    name: 'pod true, container true: agreeing values are fine',
    spec: { hostNetwork: true, ...hp(true), containers: [c('a', true)] },
    expected: [],
  },
];

for (const { name, spec, expected } of CASES) {
  test(`hostProcess: ${name}`, () => assert.deepEqual(validateHostProcess(spec as PodSpec, 'spec').map(String), expected));
}

test('hostProcess: template paths, and the rule runs whatever spec.os says', () => {
  const spec = { os: { name: 'linux' }, ...hp(true), containers: [c('a', false), c('b')] } as PodSpec;
  assert.deepEqual(validateHostProcess(spec, 'spec.template.spec').map(String), [
    mismatch('spec.template.spec.containers[0]', false, true),
    ALL.replace('spec:', 'spec.template.spec:'),
    NET.replace('spec.hostNetwork', 'spec.template.spec.hostNetwork'),
  ]);
});
