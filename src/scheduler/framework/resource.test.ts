// podRequests: the sum/peak/overhead rule, and the answer remembered per frozen containers array.

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import type { Container, Pod } from '../types.js';
import { podRequests } from './resource.js';

const container = (cpu: string, memory: string) => ({ name: `c${cpu}`, image: 'pause', resources: { requests: { cpu, memory } } });

test('podRequests: app containers add up, the init peak counts if higher, overhead is added', () => {
  const pod: Pod = {
    metadata: { name: 'p' },
    spec: {
      containers: [container('100m', '64Mi'), container('200m', '64Mi')],
      initContainers: [container('500m', '32Mi')],
      overhead: { cpu: '50m' },
    },
  };
  const r = podRequests(pod);
  assert.equal(r.milliCPU, 550);
  assert.equal(r.memory, 128 * 1024 * 1024);
});

test('podRequests: pods sharing one frozen containers array share the answer; a new overhead is counted', () => {
  const containers = Object.freeze([Object.freeze(container('100m', '64Mi'))]);
  const a: Pod = { metadata: { name: 'a' }, spec: { containers: containers as unknown as Container[] } };
  const bound: Pod = { ...a, spec: { ...a.spec!, nodeName: 'n1' } };
  assert.equal(podRequests(bound), podRequests(a), 'one answer for both revisions');
  assert.equal(podRequests(a, true).milliCPU, 100);
  const withOverhead: Pod = { ...a, spec: { ...a.spec!, overhead: Object.freeze({ cpu: '1' }) } };
  assert.equal(podRequests(withOverhead).milliCPU, 1100);
  assert.equal(podRequests(a).milliCPU, 100, 'and the plain pod is still right afterwards');
});

test('podRequests: unfrozen containers are computed afresh each time (they may change)', () => {
  const pod: Pod = { metadata: { name: 'p' }, spec: { containers: [container('100m', '64Mi')] } };
  assert.equal(podRequests(pod).milliCPU, 100);
  pod.spec!.containers[0]!.resources!.requests!.cpu = '300m';
  assert.equal(podRequests(pod).milliCPU, 300);
});
