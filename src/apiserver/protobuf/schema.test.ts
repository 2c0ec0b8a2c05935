import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lookupKind, messageDesc, packageOf } from './schema.js';

test('apiVersion -> descriptor package', () => {
  const cases: [string, string | undefined][] = [
    ['v1', 'core.v1'],
    ['apps/v1', 'apps.v1'],
    ['rbac.authorization.k8s.io/v1', 'rbac.v1'],
    ['flowcontrol.apiserver.k8s.io/v1', 'flowcontrol.v1'],
    ['autoscaling/v2', 'autoscaling.v2'],
    ['meta.k8s.io/v1', 'pkg.apis.meta.v1'],
    ['apps/v1beta1', undefined], // not generated: only GA versions are kept
    ['stable.example.com/v1', undefined],
  ];
  for (const [apiVersion, pkg] of cases) assert.equal(packageOf(apiVersion), pkg, apiVersion);
});

test('kind lookup distinguishes an unknown group from an unknown kind', () => {
  assert.ok('message' in lookupKind('policy/v1', 'Eviction'));
  assert.deepEqual(lookupKind('policy/v1', 'Nope'), { unknownGroup: false });
  assert.deepEqual(lookupKind('example.com/v1', 'Widget'), { unknownGroup: true });
});

// Field numbers are the wire interface: pin a few from the upstream generated.proto files so a bad
// regeneration of descriptors.json fails here rather than in front of kubectl.
test('descriptor facts match upstream generated.proto', () => {
  const field = (msg: string, n: number) => {
    const f = messageDesc(msg)?.byNumber.get(n);
    return f && { json: f.json, type: f.type.kind === 'message' ? f.type.message : f.type.kind === 'scalar' ? f.type.scalar : 'map', repeated: f.repeated, pointer: f.pointer };
  };
  const cases: [string, number, { json: string; type: string; repeated: boolean; pointer: boolean }][] = [
    ['pkg.apis.meta.v1.ObjectMeta', 1, { json: 'name', type: 'string', repeated: false, pointer: false }],
    ['pkg.apis.meta.v1.ObjectMeta', 3, { json: 'namespace', type: 'string', repeated: false, pointer: false }],
    ['pkg.apis.meta.v1.ObjectMeta', 8, { json: 'creationTimestamp', type: 'pkg.apis.meta.v1.Time', repeated: false, pointer: false }],
    ['pkg.apis.meta.v1.ObjectMeta', 11, { json: 'labels', type: 'map', repeated: false, pointer: false }],
    ['pkg.apis.meta.v1.ObjectMeta', 14, { json: 'finalizers', type: 'string', repeated: true, pointer: false }],
    ['scheduling.v1.PriorityClass', 2, { json: 'value', type: 'int32', repeated: false, pointer: false }],
    ['scheduling.v1.PriorityClass', 5, { json: 'preemptionPolicy', type: 'string', repeated: false, pointer: true }],
    ['apps.v1.DeploymentSpec', 1, { json: 'replicas', type: 'int32', repeated: false, pointer: true }],
    ['apps.v1.RollingUpdateDeployment', 2, { json: 'maxSurge', type: 'pkg.util.intstr.IntOrString', repeated: false, pointer: true }],
    ['core.v1.Secret', 2, { json: 'data', type: 'map', repeated: false, pointer: false }],
    ['policy.v1.Eviction', 2, { json: 'deleteOptions', type: 'pkg.apis.meta.v1.DeleteOptions', repeated: false, pointer: true }],
    // proto names that differ from the json tag are stored under the json name
    ['authentication.v1.BoundObjectReference', 4, { json: 'uid', type: 'string', repeated: false, pointer: false }],
    ['networking.v1.IngressClassParametersReference', 1, { json: 'apiGroup', type: 'string', repeated: false, pointer: true }],
  ];
  for (const [msg, n, want] of cases) assert.deepEqual(field(msg, n), want, `${msg} field ${n}`);
  assert.equal(messageDesc('core.v1.Volume')?.byNumber.get(2)?.inline, true);
  assert.equal(messageDesc('authentication.v1.ExtraValue')?.listWrapper, true);
});
