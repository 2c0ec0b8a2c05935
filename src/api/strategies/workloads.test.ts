import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { kubeFieldErrorString as str } from '../validation/go-value.js';
import { deploymentStrategy, replicaSetStrategy } from './workloads.js';

const ctx = { now: 0 };
const deployment = (spec: Record<string, unknown>): KubeObject => {
  const d: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec };
  deploymentStrategy.prepareForCreate(d);
  deploymentStrategy.defaults(d);
  return d;
};
const template = (labels: Record<string, string>, spec: Record<string, unknown> = {}) => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

test('deployment defaults', () => {
  const d = deployment({ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) });
  const spec = d.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads nested JSON
  assert.equal(spec.replicas, 1);
  assert.deepEqual(spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(spec.revisionHistoryLimit, 10);
  assert.equal(spec.progressDeadlineSeconds, 600);
  assert.equal(spec.template.spec.restartPolicy, 'Always');
  assert.equal(spec.template.spec.enableServiceLinks, undefined, 'templates do not get SetDefaults_Pod');
  assert.equal(d.metadata.generation, 1);
  assert.deepEqual(deploymentStrategy.validate(d), []);
});

test('deployment validation', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'x' }) },
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`']],
    [{ template: template({ app: 'x' }) },
      ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`']],
    [{ selector: {}, template: template({ app: 'x' }) },
      ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']],
    [{ replicas: -1, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) },
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }, { restartPolicy: 'Never' }) },
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }, { containers: [] }) },
      ['spec.template.spec.containers: Required value']],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }), strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0']],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }), strategy: { type: 'Recreate', rollingUpdate: {} } },
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }), strategy: { rollingUpdate: { maxSurge: 'x' } } },
      ["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }), progressDeadlineSeconds: 5, minReadySeconds: 10 },
      ['spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds']],
    [{ selector: { matchLabels: { app: 'web' } }, template: template({ 'bad key': 'web', app: 'web' }) },
      ["spec.template.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
  ];
  for (const [spec, want] of cases) assert.deepEqual(deploymentStrategy.validate(deployment(spec)).map(str), want, JSON.stringify(spec));
});

test('deployment updates: selector immutable, generation, status separation', () => {
  const old = deployment({ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) });
  old.metadata.uid = 'u';
  old.status = { replicas: 1 };
  const next = structuredClone(old);
  (next.spec as any).selector = { matchLabels: { app: 'api' } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  (next.spec as any).template.metadata.labels = { app: 'api' }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  next.status = {};
  deploymentStrategy.prepareForUpdate(next, old, ctx);
  assert.deepEqual(next.status, { replicas: 1 });
  assert.equal(next.metadata.generation, 2);
  assert.deepEqual(deploymentStrategy.validateUpdate(next, old, ctx).map(str), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"api"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);

  const annotated = structuredClone(old);
  annotated.metadata.annotations = { note: 'x' };
  deploymentStrategy.prepareForUpdate(annotated, old, ctx);
  assert.equal(annotated.metadata.generation, 2, 'annotation changes bump deployments');

  const status = structuredClone(old);
  (status.spec as any).replicas = 5; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edit
  status.metadata.labels = { sneaky: 'yes' };
  status.status = { replicas: 1, readyReplicas: 2 };
  const sctx = { now: 0, subresource: 'status' };
  deploymentStrategy.prepareForUpdate(status, old, sctx);
  assert.equal((status.spec as { replicas: number }).replicas, 1);
  assert.equal(status.metadata.labels, undefined);
  assert.equal(status.metadata.generation, 1);
  assert.deepEqual(deploymentStrategy.validateUpdate(status, old, sctx).map(String), ['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
});

test('replicaset defaults, validation and field selector', () => {
  const rs: KubeObject = { metadata: { name: 'r', namespace: 'd' }, spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] }, template: template({ app: 'c' }) } };
  replicaSetStrategy.prepareForCreate(rs);
  replicaSetStrategy.defaults(rs);
  assert.equal((rs.spec as { replicas: number }).replicas, 1);
  assert.deepEqual(replicaSetStrategy.validate(rs).map(str), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"c"}: `selector` does not match template `labels`']);
  assert.equal(replicaSetStrategy.fieldSelectors['status.replicas'](rs), '0');
});

test('FieldError prints GoValue bad values as kube does', { todo: 'src/api/errors.ts formatBadValue should print GoValue.goSyntax' }, () => {
  const d = deployment({ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'x' }) });
  assert.deepEqual(deploymentStrategy.validate(d).map(String), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`']);
});
