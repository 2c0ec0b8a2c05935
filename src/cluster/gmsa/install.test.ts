// GMSA in the default cluster: when the fleet gets it, and the chart's objects (names, RBAC, wiring, certificate).

import test from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { createCa, issueCert } from '../../apiserver/pki.js';
import { gmsaCrdObject } from './crd.js';
import { gmsaWebhookUnfit } from './install.js';
import { GMSA_WEBHOOK_NAME, gmsaServiceDnsNames, gmsaWebhookConfigurations, gmsaWebhookWorkload } from './manifests.js';

test('the webhook is installed only for fleets with a Windows node and a Linux node its pods can run on', () => {
  const cp = { os: 'linux' as const, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' as const }] };
  const win = { os: 'windows' as const, taints: [] };
  const cases: [Parameters<typeof gmsaWebhookUnfit>[0], string | undefined][] = [
    [[cp, win], undefined],
    [[cp, { os: 'linux', taints: [] }], 'the fleet has no Windows node'],
    [[win], 'the fleet has no Linux node the webhook pods can run on'],
    [[{ os: 'linux', taints: [{ key: 'dedicated', effect: 'NoSchedule' }] }, win], 'the fleet has no Linux node the webhook pods can run on'],
  ];
  for (const [fleet, want] of cases) assert.equal(gmsaWebhookUnfit(fleet), want, JSON.stringify(fleet));
});

test('the CRD is cluster-scoped windows.k8s.io with v1 stored and v1alpha1 deprecated, credspec at the top level', () => {
  const crd = gmsaCrdObject() as unknown as { spec: { scope: string; names: { plural: string }; versions: { name: string; storage: boolean; deprecated?: boolean; schema: { openAPIV3Schema: { properties: Record<string, { properties: Record<string, unknown> }> } } }[] } };
  assert.equal(crd.spec.scope, 'Cluster');
  assert.equal(crd.spec.names.plural, 'gmsacredentialspecs');
  assert.deepEqual(crd.spec.versions.map((v) => [v.name, v.storage, v.deprecated ?? false]), [['v1alpha1', false, true], ['v1', true, false]]);
  assert.deepEqual(Object.keys(crd.spec.versions[1].schema.openAPIV3Schema.properties.credspec.properties), ['ActiveDirectoryConfig', 'CmsPlugins', 'DomainJoinConfig']);
});

test('the chart\'s objects: RBAC for the webhook, the Deployment on Linux, webhooks on the Service with the CA bundle', () => {
  const ca = createCa('gmsa-test');
  const serving = issueCert(ca, { cn: 'system:node:gmsa-webhook.kube-system.svc', orgs: ['system:nodes'], server: { dns: gmsaServiceDnsNames(), ips: [] } });
  assert.ok(new X509Certificate(serving.cert).checkHost('gmsa-webhook.kube-system.svc'));
  const objs = gmsaWebhookWorkload({ caCert: ca.cert, ...serving });
  const byKind = (k: string) => objs.find((x) => x.rt.kind === k)!.obj as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures
  assert.deepEqual(byKind('ClusterRole').rules, [
    { apiGroups: ['windows.k8s.io'], resources: ['gmsacredentialspecs'], verbs: ['get', 'use'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
  ]);
  const pod = byKind('Deployment').spec.template.spec;
  assert.deepEqual(pod.nodeSelector, { 'kubernetes.io/os': 'linux' });
  assert.equal(pod.containers[0].image, 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.13.0');
  assert.deepEqual(pod.containers[0].readinessProbe, { httpGet: { scheme: 'HTTPS', path: '/health', port: 443 } });
  assert.equal(Buffer.from(byKind('Secret').data['tls.crt'], 'base64').toString(), serving.cert);
  const [mutating, validating] = gmsaWebhookConfigurations(ca.cert).map((x) => (x.obj as unknown as { webhooks: Record<string, any>[] }).webhooks[0]); // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures
  assert.equal(mutating.name, GMSA_WEBHOOK_NAME);
  assert.deepEqual(mutating.clientConfig.service, { name: 'gmsa-webhook', namespace: 'kube-system', path: '/mutate' });
  assert.deepEqual(mutating.rules[0].operations, ['CREATE']);
  assert.deepEqual(validating.rules[0].operations, ['CREATE', 'UPDATE']);
  assert.equal(Buffer.from(validating.clientConfig.caBundle, 'base64').toString(), ca.cert);
  assert.equal(validating.failurePolicy, 'Fail');
});
