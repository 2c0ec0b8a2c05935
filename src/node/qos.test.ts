import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container } from 'kubernetes-types/core/v1.js';
import { podQOSClass } from './qos.js';

const c = (requests?: Record<string, string>, limits?: Record<string, string>): Container => ({ name: 'c', resources: { requests, limits } });

const cases: { name: string; containers: Container[]; init?: Container[]; want: string }[] = [
  { name: 'no resources', containers: [c()], want: 'BestEffort' },
  { name: 'zero requests only', containers: [c({ cpu: '0' })], want: 'BestEffort' },
  { name: 'extended resources only', containers: [c({ 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '1' })], want: 'BestEffort' },
  { name: 'limits equal requests for cpu and memory', containers: [c({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], want: 'Guaranteed' },
  { name: 'limits only (requests default to limits)', containers: [c(undefined, { cpu: '500m', memory: '128Mi' })], want: 'Guaranteed' },
  { name: 'equal after canonicalisation', containers: [c({ cpu: '0.5', memory: '1024Mi' }, { cpu: '500m', memory: '1Gi' })], want: 'Guaranteed' },
  { name: 'requests below limits', containers: [c({ cpu: '100m', memory: '300Mi' }, { cpu: '1', memory: '800Mi' })], want: 'Burstable' },
  { name: 'only cpu limit', containers: [c(undefined, { cpu: '1' })], want: 'Burstable' },
  { name: 'one guaranteed, one best-effort container', containers: [c({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }), c()], want: 'Burstable' },
  { name: 'init container counts', containers: [c({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], init: [c({ cpu: '100m' })], want: 'Burstable' },
];

for (const t of cases) {
  test(`qos: ${t.name}`, () => assert.equal(podQOSClass({ spec: { containers: t.containers, initContainers: t.init } }), t.want));
}
