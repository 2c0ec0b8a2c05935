import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { podStrategy } from './pods.js';
import { imageTag } from './pod-defaults.js';

const ctx = { now: 0 };
const pod = (spec: Record<string, unknown>, name = 'p'): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });
const created = (spec: Record<string, unknown>): KubeObject => {
  const p = pod(spec);
  podStrategy.prepareForCreate(p);
  podStrategy.defaults(p);
  return p;
};
const errors = (p: KubeObject) => podStrategy.validate(p).map(String);

test('image tags decide the default pull policy', () => {
  const cases: [string, string][] = [
    ['nginx', 'latest'], ['nginx:1.25', '1.25'], ['localhost:5000/app', 'latest'], ['localhost:5000/app:v1', 'v1'],
    ['mcr.microsoft.com/windows/servercore:ltsc2022', 'ltsc2022'], ['app@sha256:abc', ''], ['app:v2@sha256:abc', 'v2'],
  ];
  for (const [image, tag] of cases) assert.equal(imageTag(image), tag, image);
});

test('defaults a pod like SetDefaults_Pod/PodSpec/Container', () => {
  const p = created({
    containers: [
      { name: 'a', image: 'nginx', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m', memory: '1Gi' } } },
      { name: 'b', image: 'nginx:1.25', livenessProbe: { httpGet: { port: 80 } } },
    ],
    volumes: [{ name: 'v' }, { name: 's', secret: { secretName: 'x' } }],
  });
  const spec = p.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads nested JSON
  assert.equal(spec.restartPolicy, 'Always');
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.schedulerName, 'default-scheduler');
  assert.equal(spec.terminationGracePeriodSeconds, 30);
  assert.deepEqual(spec.securityContext, {});
  assert.equal(spec.enableServiceLinks, true);
  assert.equal(spec.containers[0].imagePullPolicy, 'Always');
  assert.equal(spec.containers[1].imagePullPolicy, 'IfNotPresent');
  assert.equal(spec.containers[0].terminationMessagePath, '/dev/termination-log');
  assert.equal(spec.containers[0].terminationMessagePolicy, 'File');
  assert.equal(spec.containers[0].ports[0].protocol, 'TCP');
  assert.deepEqual(spec.containers[0].resources.requests, { cpu: '500m', memory: '1Gi' });
  assert.deepEqual(spec.containers[1].livenessProbe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  assert.deepEqual(spec.volumes[0], { name: 'v', emptyDir: {} });
  assert.equal(spec.volumes[1].secret.defaultMode, 420);
  assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'Burstable' });
  assert.deepEqual(errors(p), []);
});

test('QoS classes', () => {
  const res = (r: unknown) => created({ containers: [{ name: 'a', image: 'x', resources: r }] }).status as { qosClass: string };
  assert.equal(res(undefined).qosClass, 'BestEffort');
  assert.equal(res({ limits: { cpu: '1', memory: '1Gi' } }).qosClass, 'Guaranteed');
  assert.equal(res({ requests: { cpu: '1' } }).qosClass, 'Burstable');
  assert.equal(res({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }).qosClass, 'Burstable');
});

test('pod validation messages and paths', () => {
  const c = (extra: Record<string, unknown>) => ({ name: 'c', image: 'img', ...extra });
  const cases: [Record<string, unknown>, string[]][] = [
    [{ containers: [] }, ['spec.containers: Required value']],
    [{ containers: [c({ name: 'Web' })] }, ["spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    [{ containers: [c({}), c({})] }, ['spec.containers[1].name: Duplicate value: "c"']],
    [{ containers: [c({ image: '' })] }, ['spec.containers[0].image: Required value']],
    [{ containers: [c({ ports: [{ containerPort: 70000 }] })] }, ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    [{ containers: [c({ ports: [{ containerPort: 80, protocol: 'HTTP' }] })] }, ['spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
    [{ containers: [c({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })] }, ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1']],
    [{ containers: [c({ resources: { requests: { memory: '2Gi' }, limits: { memory: '1024Mi' } } })] }, ['spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi']],
    [{ containers: [c({ resources: { limits: { cpu: '-1' } } })] }, ['spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0', 'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    [{ containers: [c({ resources: { limits: { gpu: '1' } } })] }, ['spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified', 'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers', 'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified', 'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers']],
    [{ containers: [c({ resources: { requests: { 'example.com/gpu': '1' } } })] }, ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources']],
    [{ containers: [c({ resources: { limits: { cpu: 'lots' } } })] }, ["spec.containers[0].resources.limits[cpu]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", "spec.containers[0].resources.requests[cpu]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]],
    [{ containers: [c({})], restartPolicy: 'Sometimes' }, ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
    [{ containers: [c({})], dnsPolicy: 'Google' }, ['spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
    [{ containers: [c({ volumeMounts: [{ name: 'data', mountPath: '/d' }] })] }, ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
    [{ containers: [c({ imagePullPolicy: 'Sometimes' })] }, ['spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"']],
    [{ containers: [c({})], initContainers: [c({})] }, ['spec.initContainers[0].name: Duplicate value: "c"']],
    [{ containers: [c({})], tolerations: [{ operator: 'Equal', value: 'x' }] }, ['spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"']],
    [{ containers: [c({})], activeDeadlineSeconds: 0 }, ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
  ];
  for (const [spec, want] of cases) assert.deepEqual(errors(created(spec)), want, JSON.stringify(spec));
});

test('pod updates: only images, deadlines and added tolerations may change', () => {
  const old = created({ containers: [{ name: 'c', image: 'a:1' }], tolerations: [{ key: 'k', operator: 'Exists' }] });
  old.metadata.uid = 'u';
  const next = structuredClone(old);
  (next.spec as any).containers[0].image = 'a:2'; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  (next.spec as any).tolerations.push({ key: 'k2', operator: 'Exists' }); // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  next.status = { phase: 'Running' };
  podStrategy.prepareForUpdate(next, old, ctx);
  assert.deepEqual(next.status, old.status, 'main resource keeps old status');
  assert.deepEqual(podStrategy.validateUpdate(next, old, ctx), []);

  const bad = structuredClone(old);
  (bad.spec as any).restartPolicy = 'Never'; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  const errs = podStrategy.validateUpdate(bad, old, ctx).map(String);
  assert.equal(errs.length, 1);
  assert.ok(errs[0].startsWith('spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n'), errs[0]);
  assert.match(errs[0], /- \trestartPolicy: "Always",\n\+ \trestartPolicy: "Never",/);

  const more = structuredClone(old);
  (more.spec as any).containers.push({ name: 'd', image: 'x', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }); // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  assert.deepEqual(podStrategy.validateUpdate(more, old, ctx).map(String), ['spec.containers: Forbidden: pod updates may not add or remove containers']);

  const removedTol = structuredClone(old);
  (removedTol.spec as any).tolerations = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  assert.deepEqual(podStrategy.validateUpdate(removedTol, old, ctx).map(String), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
});

test('pods/status keeps spec and owner references; terminated containers stay terminated', () => {
  const old = created({ containers: [{ name: 'c', image: 'a' }], restartPolicy: 'Never', nodeName: 'n1' });
  old.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: '1' }];
  old.status = { phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0 } } }] };
  const next = structuredClone(old);
  (next.spec as any).nodeName = 'n2'; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  delete next.metadata.ownerReferences;
  next.metadata.labels = { a: 'b' };
  next.status = { phase: 'Running', containerStatuses: [{ name: 'c', state: { running: {} } }] };
  const sctx = { now: 0, subresource: 'status' };
  podStrategy.prepareForUpdate(next, old, sctx);
  assert.equal((next.spec as { nodeName: string }).nodeName, 'n1');
  assert.deepEqual(next.metadata.ownerReferences, old.metadata.ownerReferences);
  assert.deepEqual(next.metadata.labels, { a: 'b' });
  assert.deepEqual(podStrategy.validateUpdate(next, old, sctx).map(String), ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state']);
});

test('field selectors', () => {
  const p = created({ containers: [{ name: 'c', image: 'a' }], nodeName: 'n1' });
  const f = podStrategy.fieldSelectors;
  assert.equal(f['spec.nodeName'](p), 'n1');
  assert.equal(f['status.phase'](p), 'Pending');
  assert.equal(f['spec.restartPolicy'](p), 'Always');
  assert.equal(f['spec.schedulerName'](p), 'default-scheduler');
  assert.equal(f['status.podIP'](p), '');
  assert.equal(f['spec.hostNetwork'](p), 'false');
});
