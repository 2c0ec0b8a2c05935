import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { kubeFieldErrorString as str } from '../validation/go-value.js';
import { STRATEGIES, strategyFor } from './index.js';

const ctx = { now: 0 };
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

function create(key: string, obj: KubeObject): KubeObject {
  const s: Strategy = STRATEGIES[key];
  s.prepareForCreate?.(obj, ctx);
  s.defaults?.(obj);
  return obj;
}
const errs = (key: string, obj: KubeObject) => (STRATEGIES[key].validate?.(obj) ?? []).map(str);

test('registry keys', () => {
  for (const k of ['pods', 'nodes', 'namespaces', 'services', 'endpoints', 'configmaps', 'secrets', 'serviceaccounts', 'events',
    'limitranges', 'resourcequotas', 'apps/deployments', 'apps/replicasets', 'events.k8s.io/events', 'coordination.k8s.io/leases',
    'discovery.k8s.io/endpointslices', 'node.k8s.io/runtimeclasses', 'scheduling.k8s.io/priorityclasses']) {
    assert.ok(STRATEGIES[k], k);
  }
  assert.equal(strategyFor('apps', 'deployments'), STRATEGIES['apps/deployments']);
  assert.deepEqual(strategyFor('example.com', 'widgets'), {});
});

test('namespaces: Active, kubernetes finalizer, name label, DNS label names', () => {
  const ns = create('namespaces', { metadata: { name: 'team-a' } });
  assert.deepEqual(ns.status, { phase: 'Active' });
  assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
  assert.deepEqual(ns.metadata.labels, { 'kubernetes.io/metadata.name': 'team-a' });
  assert.deepEqual(errs('namespaces', ns), []);
  assert.deepEqual(errs('namespaces', create('namespaces', { metadata: { name: 'a.b' } })), [`metadata.name: Invalid value: "a.b": ${LABEL_MSG}`]);
  const bad = create('namespaces', { metadata: { name: 'x' }, spec: { finalizers: ['custom'] } });
  assert.deepEqual(errs('namespaces', bad), ['spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified']);
  const status = structuredClone(ns);
  status.status = { phase: 'Terminating' };
  assert.deepEqual(STRATEGIES.namespaces.validateUpdate!(status, ns).map(String), []);
});

test('secrets: Opaque default, stringData folded in, per-type keys, immutability', () => {
  const s = create('secrets', { metadata: { name: 's' }, stringData: { password: 'pw' } });
  assert.equal(s.type, 'Opaque');
  assert.deepEqual(s.data, { password: Buffer.from('pw').toString('base64') });
  assert.equal(s.stringData, undefined);
  assert.deepEqual(errs('secrets', create('secrets', { metadata: { name: 't' }, type: 'kubernetes.io/tls', data: {} })),
    ['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  assert.deepEqual(errs('secrets', create('secrets', { metadata: { name: 'k' }, data: { 'a b': '' } })),
    ["data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]);
  const old = create('secrets', { metadata: { name: 'i' }, immutable: true, data: { a: 'YQ==' } });
  const next = { ...structuredClone(old), data: { a: 'Yg==' }, type: 'kubernetes.io/basic-auth' };
  assert.deepEqual(STRATEGIES.secrets.validateUpdate!(next, old).map(String), [
    'type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
    'data: Forbidden: field is immutable when `immutable` is set',
    'data[username]: Required value',
    'data[password]: Required value',
  ]);
  assert.equal(STRATEGIES.secrets.fieldSelectors!.type(old), 'Opaque');
});

test('configmaps: keys and duplicates across data/binaryData', () => {
  assert.deepEqual(errs('configmaps', { metadata: { name: 'c' }, data: { '..x': '1', a: '1' }, binaryData: { a: 'MQ==' } }), [
    "data[..x]: Invalid value: \"..x\": must not start with '..'",
    'data[a]: Invalid value: "a": duplicate of key present in binaryData',
    'binaryData[a]: Invalid value: "a": duplicate of key present in data',
  ]);
});

test('nodes: taints and field selector', () => {
  const n = create('nodes', { metadata: { name: 'win-1' }, spec: { unschedulable: true, taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }, { key: 'os', value: 'x', effect: 'NoSchedule' }, { key: 'k', effect: 'Sometimes' }] } });
  assert.deepEqual(errs('nodes', n), [
    'spec.taints[1]: Duplicate value: {"key":"os","value":"x","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    'spec.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  ]);
  assert.equal(STRATEGIES.nodes.fieldSelectors!['spec.unschedulable'](n), 'true');
});

test('runtimeclasses and priorityclasses', () => {
  assert.deepEqual(errs('node.k8s.io/runtimeclasses', { metadata: { name: 'windows-2022' }, handler: 'runhcs-wcow-process' }), []);
  assert.deepEqual(errs('node.k8s.io/runtimeclasses', { metadata: { name: 'x' }, handler: 'Bad_Handler' }), [`handler: Invalid value: "Bad_Handler": ${LABEL_MSG}`]);
  const rc = { metadata: { name: 'x', uid: 'u' }, handler: 'a' };
  assert.deepEqual(STRATEGIES['node.k8s.io/runtimeclasses'].validateUpdate!({ ...rc, handler: 'b' }, rc).map(String), ['handler: Invalid value: "b": field is immutable']);
  const pc = create('scheduling.k8s.io/priorityclasses', { metadata: { name: 'high' }, value: 2000000000 });
  assert.equal(pc.preemptionPolicy, 'PreemptLowerPriority');
  assert.deepEqual(errs('scheduling.k8s.io/priorityclasses', pc), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
  assert.deepEqual(errs('scheduling.k8s.io/priorityclasses', { metadata: { name: 'system-mine' }, value: 1 }),
    ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"]);
});

test('endpointslices, leases, events', () => {
  assert.deepEqual(errs('discovery.k8s.io/endpointslices', create('discovery.k8s.io/endpointslices', { metadata: { name: 'e' }, endpoints: [{ addresses: [] }], ports: [{ port: 80 }] })), [
    'addressType: Required value',
    'endpoints[0].addresses: Required value: must contain at least 1 address',
  ]);
  assert.deepEqual(errs('discovery.k8s.io/endpointslices', { metadata: { name: 'e' }, addressType: 'IPv4', endpoints: [{ addresses: ['::1'] }] }),
    ['endpoints[0].addresses[0]: Invalid value: "::1": must be a valid IPv4 address']);
  assert.deepEqual(errs('coordination.k8s.io/leases', { metadata: { name: 'n' }, spec: { leaseDurationSeconds: 0 } }),
    ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
  const ev: KubeObject = { metadata: { name: 'p.1', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' }, reason: 'Started', source: { component: 'kubelet' }, type: 'Normal' };
  assert.deepEqual(errs('events', ev), ['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
  const f = STRATEGIES.events.fieldSelectors!;
  assert.equal(f['involvedObject.kind'](ev), 'Pod');
  assert.equal(f.source(ev), 'kubelet');
  assert.equal(f.reason(ev), 'Started');
});

test('limitranges and resourcequotas', () => {
  const lr = create('limitranges', { metadata: { name: 'l' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '3' } }] } });
  assert.deepEqual((lr.spec as { limits: unknown[] }).limits[0], { type: 'Container', max: { cpu: '2' }, min: { cpu: '3' }, default: { cpu: '2' }, defaultRequest: { cpu: '2' } });
  assert.deepEqual(errs('limitranges', lr), [
    'spec.limits[0].min[cpu]: Invalid value: "3": min value 3 is greater than max value 2',
    'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": min value 3 is greater than default request value 2',
    'spec.limits[0].default[cpu]: Invalid value: "3": min value 3 is greater than default value 2',
  ]);
  assert.deepEqual(errs('resourcequotas', { metadata: { name: 'q' }, spec: { hard: { pods: '1.5', foo: '1' } } }), [
    'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
    'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
    'spec.hard[pods]: Invalid value: "1500m": must be an integer',
  ]);
});
