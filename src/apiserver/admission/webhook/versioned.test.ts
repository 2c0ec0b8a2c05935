// matchPolicy over the served set's equivalent resources (generic/webhook.go ShouldCallHook, conversion.go): an
// autoscaling/v1 HPA request calls a webhook registered for autoscaling/v2 under Equivalent (not Exact), with the
// object converted to v2; core and events.k8s.io Events are one resource; apps/v1 Deployments have no equivalent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResources } from '../../../api/builtin.js';
import { tableFor } from '../../../api/printers/index.js';
import { STRATEGIES } from '../../../api/strategies/index.js';
import type { KubeObject } from '../../../api/types.js';
import type { Webhook } from '../../../api/validation/admission-registration.js';
import type { AdmissionAttributes, AdmissionLookup } from '../interfaces.js';
import { equivalentsFrom, shouldCall } from './source.js';
import { convertObject, versionedAttributes } from './versioned.js';

const decls = builtinResources({ strategies: STRATEGIES, tableFor });
const decl = (group: string, version: string, plural: string) => decls.find((d) => d.group === group && d.version === version && d.plural === plural)!;
const equivalents = equivalentsFrom(() => decls);
const lookup = { get: () => ({ metadata: { name: 'default' } }), list: () => [] } as unknown as AdmissionLookup;

const hpaV1: KubeObject = {
  apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
};

const attrs = (group: string, version: string, plural: string, object: KubeObject): AdmissionAttributes => ({
  operation: 'CREATE', decl: decl(group, version, plural), namespace: 'default', name: object.metadata.name ?? '', subresource: '', object, user: { name: 'u', groups: [] }, dryRun: false,
});

const hook = (apiGroups: string[], apiVersions: string[], resources: string[], matchPolicy?: 'Exact' | 'Equivalent'): Webhook => ({
  name: 'h.example.com', rules: [{ operations: ['CREATE'], apiGroups, apiVersions, resources }], ...(matchPolicy ? { matchPolicy } : {}),
} as Webhook);

test('the equivalences in the served set are the resources stored alike', () => {
  const names = (g: string, v: string, p: string) => equivalents(decl(g, v, p)).map((d) => `${d.group || 'core'}/${d.version}/${d.plural}`);
  assert.deepEqual(names('autoscaling', 'v1', 'horizontalpodautoscalers'), ['autoscaling/v2/horizontalpodautoscalers']);
  assert.deepEqual(names('', 'v1', 'events'), ['events.k8s.io/v1/events']);
  assert.deepEqual(names('apps', 'v1', 'deployments'), []);
});

test('matchPolicy: Equivalent (the default) calls the v2 webhook for a v1 request with the v2 object; Exact skips', () => {
  const a = attrs('autoscaling', 'v1', 'horizontalpodautoscalers', hpaV1);
  for (const policy of [undefined, 'Equivalent'] as const) {
    const inv = shouldCall(hook(['autoscaling'], ['v2'], ['horizontalpodautoscalers'], policy), a, lookup, equivalents);
    assert.deepEqual(inv && { kind: inv.kind, resource: inv.resource }, {
      kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
    }, String(policy));
    const seen = versionedAttributes(a, inv!).object!;
    assert.equal(seen.apiVersion, 'autoscaling/v2');
    assert.deepEqual((seen.spec as { metrics: unknown[] }).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    assert.equal(a.object!.apiVersion, 'autoscaling/v1', 'the request\'s object is left as it is');
  }
  assert.equal(shouldCall(hook(['autoscaling'], ['v2'], ['horizontalpodautoscalers'], 'Exact'), a, lookup, equivalents), undefined);
  // Registered for the request's own version: no conversion.
  const own = shouldCall(hook(['autoscaling'], ['v1'], ['horizontalpodautoscalers'], 'Exact'), a, lookup, equivalents)!;
  assert.equal(versionedAttributes(a, own), a);
});

test('an Event through core/v1 reaches an events.k8s.io/v1 webhook in that shape', () => {
  const ev: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Started', message: 'hi', source: { component: 'kubelet' } } as KubeObject;
  const a = attrs('', 'v1', 'events', ev);
  const inv = shouldCall(hook(['events.k8s.io'], ['v1'], ['events']), a, lookup, equivalents)!;
  const seen = versionedAttributes(a, inv).object as KubeObject & { regarding?: unknown; note?: string };
  assert.equal(seen.apiVersion, 'events.k8s.io/v1');
  assert.deepEqual([seen.regarding, seen.note], [{ kind: 'Pod', name: 'p' }, 'hi']);
});

test('convertObject there and back keeps the object and never changes its input', () => {
  const v1 = decl('autoscaling', 'v1', 'horizontalpodautoscalers');
  const v2 = decl('autoscaling', 'v2', 'horizontalpodautoscalers');
  const input = structuredClone(hpaV1);
  const back = convertObject(convertObject(input, v1, v2), v2, v1);
  assert.deepEqual(input, hpaV1);
  assert.deepEqual(back.spec, hpaV1.spec);
});

test('a subresource matched through an equivalent version: status takes that version\'s kind and shape, an object of its own (Scale) keeps kind and shape', () => {
  const v1 = attrs('autoscaling', 'v1', 'horizontalpodautoscalers', hpaV1);
  const status: AdmissionAttributes = { ...v1, operation: 'CREATE', subresource: 'status' };
  const rules = (sub: string) => hook(['autoscaling'], ['v2'], [`horizontalpodautoscalers/${sub}`]);
  const statusInv = shouldCall(rules('status'), status, lookup, equivalents)!;
  assert.deepEqual([statusInv.kind.version, statusInv.subresource], ['v2', 'status']);
  assert.equal(versionedAttributes(status, statusInv).object!.apiVersion, 'autoscaling/v2');
  // The object of a scale subresource is an autoscaling/v1 Scale whichever version its parent is requested through
  // (ScaleREST.GroupVersionKind; custom resources alike): the webhook gets that kind and the object as it is.
  const scaleObj = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2 } } as KubeObject;
  const scale: AdmissionAttributes = { ...v1, subresource: 'scale', object: scaleObj, kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } };
  const scaleInv = shouldCall(rules('scale'), scale, lookup, equivalents)!;
  assert.deepEqual([scaleInv.kind, scaleInv.resource, scaleInv.subresource], [
    { group: 'autoscaling', version: 'v1', kind: 'Scale' }, { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' }, 'scale',
  ]);
  assert.equal(versionedAttributes(scale, scaleInv), scale, 'no conversion between equal kinds');
});
