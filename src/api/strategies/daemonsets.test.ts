import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { kubeFieldErrorString as str } from '../validation/go-value.js';
import '../validation/windows/index.js';
import { controllerRevisionStrategy, daemonSetStrategy } from './daemonsets.js';

const GEN = 'deprecated.daemonset.template.generation';
const template = (labels: Record<string, string>, spec: Record<string, unknown> = {}) => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
const daemonSet = (spec: Record<string, unknown>, name = 'agent'): KubeObject => {
  const d: KubeObject = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace: 'default' }, spec };
  daemonSetStrategy.defaults(d);
  daemonSetStrategy.prepareForCreate(d);
  return d;
};

test('daemonset defaults, generation and template generation', () => {
  const d = daemonSet({ selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }) });
  const spec = d.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads nested JSON
  assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.equal(spec.revisionHistoryLimit, 10);
  assert.equal(spec.template.spec.restartPolicy, 'Always');
  assert.equal(d.metadata.generation, 1);
  assert.equal(d.metadata.annotations?.[GEN], '1');
  assert.deepEqual(daemonSetStrategy.validate(d), []);

  // A template change bumps both; a spec change elsewhere only the generation; a status write neither.
  const t2 = structuredClone(d);
  (t2.spec as any).template.spec.containers[0].image = 'nginx:2'; // eslint-disable-line @typescript-eslint/no-explicit-any
  daemonSetStrategy.prepareForUpdate(t2, d, { now: 0 });
  assert.equal(t2.metadata.generation, 2);
  assert.equal(t2.metadata.annotations?.[GEN], '2');
  const m = structuredClone(t2);
  (m.spec as any).minReadySeconds = 5; // eslint-disable-line @typescript-eslint/no-explicit-any
  delete m.metadata.annotations;
  daemonSetStrategy.prepareForUpdate(m, t2, { now: 0 });
  assert.equal(m.metadata.generation, 3);
  assert.equal(m.metadata.annotations?.[GEN], '2', 'the server keeps its template generation');
  const s = structuredClone(m);
  s.status = { numberReady: 1 };
  daemonSetStrategy.prepareForUpdate(s, m, { now: 0, subresource: 'status' });
  assert.equal(s.metadata.generation, 3);
});

test('daemonset validation texts', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ template: template({ app: 'a' }) }, [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
    ]],
    [{ selector: { matchLabels: { app: 'b' } }, template: template({ app: 'a' }) }, [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
    ]],
    [{ selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }, { restartPolicy: 'OnFailure' }) }, [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]],
    [{ selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }, { activeDeadlineSeconds: 5 }) }, [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]],
    [{ selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }), updateStrategy: { type: 'Recreate' } }, [
      'spec.updateStrategy.type: Unsupported value: "Recreate": supported values: "OnDelete", "RollingUpdate"',
    ]],
    [{ selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }, [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]],
  ];
  for (const [spec, want] of cases) assert.deepEqual(daemonSetStrategy.validate(daemonSet(spec)).map(str), want, JSON.stringify(spec));
  // The Windows pod-template rules apply to DaemonSet templates too: HostProcess needs hostNetwork.
  const hp = daemonSet({
    selector: { matchLabels: { app: 'a' } },
    template: template({ app: 'a' }, { nodeSelector: { 'kubernetes.io/os': 'windows' }, securityContext: { windowsOptions: { hostProcess: true } } }),
  });
  assert.ok(daemonSetStrategy.validate(hp).map(str).some((e) => e.includes('hostNetwork')), daemonSetStrategy.validate(hp).map(str).join('\n'));
});

test('daemonset selector is immutable; controllerrevision data is immutable', () => {
  const d = daemonSet({ selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }) });
  d.metadata.resourceVersion = '1';
  const n = structuredClone(d);
  (n.spec as any).selector = { matchLabels: { app: 'a', x: 'y' } }; // eslint-disable-line @typescript-eslint/no-explicit-any
  (n.spec as any).template.metadata.labels = { app: 'a', x: 'y' }; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.ok(daemonSetStrategy.validateUpdate(n, d).map(str).some((e) => e.startsWith('spec.selector: Invalid value') && e.endsWith('field is immutable')));
  const rev: KubeObject = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r', namespace: 'default', resourceVersion: '1' }, data: { a: 1 }, revision: 1 };
  assert.deepEqual(controllerRevisionStrategy.validate(rev), []);
  assert.deepEqual(controllerRevisionStrategy.validate({ ...rev, data: undefined }).map(str), ['data: Required value: data is mandatory']);
  assert.ok(controllerRevisionStrategy.validateUpdate({ ...rev, data: { a: 2 } }, rev).map(str).some((e) => e.startsWith('data: Invalid value') && e.endsWith('field is immutable')));
});
