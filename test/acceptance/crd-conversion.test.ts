// CRD conversion webhooks with the real kubectl against `winkube up`, as the e2e test "CustomResourceConversionWebhook"
// sets them up (test/e2e/apimachinery/crd_conversion_webhook.go): agnhost's crd-conversion-webhook in a pod behind a
// Service with a serving certificate, a CRD whose v1 (hostPort) and v2 (host, port) the webhook converts, objects
// created in one version and read and listed in the other, and kube's error when the webhook cannot convert.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, kubectlEnds, startCluster, type RunningCluster } from './harness.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';

const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;
let caBundle = '';

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const ca = createCa('e2e-crd-conversion-ca');
  const serving = issueCert(ca, { cn: 'e2e-crd-conversion.default.svc', server: { dns: ['e2e-crd-conversion.default.svc'], ips: [] } });
  caBundle = Buffer.from(ca.cert).toString('base64');
  k.ok(['create', 'secret', 'generic', 'e2e-crd-conversion-certs', `--from-literal=tls.crt=${serving.cert}`, `--from-literal=tls.key=${serving.key}`]);
  k.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: Deployment
metadata: {name: e2e-crd-conversion}
spec:
  selector: {matchLabels: {app: e2e-crd-conversion}}
  template:
    metadata: {labels: {app: e2e-crd-conversion}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      volumes: [{name: certs, secret: {secretName: e2e-crd-conversion-certs}}]
      containers:
      - name: webhook
        image: registry.k8s.io/e2e-test-images/agnhost:2.52
        args: [crd-conversion-webhook, --tls-cert-file=/webhook.local.config/certificates/tls.crt, --tls-private-key-file=/webhook.local.config/certificates/tls.key, --port=9444]
        volumeMounts: [{name: certs, mountPath: /webhook.local.config/certificates, readOnly: true}]
---
apiVersion: v1
kind: Service
metadata: {name: e2e-crd-conversion}
spec:
  selector: {app: e2e-crd-conversion}
  ports: [{port: 9443, targetPort: 9444}]
`);
  await eventually(() => k.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=e2e-crd-conversion', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}']).trim(), 60_000, 'the conversion webhook as a ready endpoint');
});

after(async () => {
  k?.dispose();
  await cluster?.stop();
});

/** The e2e test's CRD: v1 with hostPort (storage), v2 with host and port, converted by the webhook at `path`. */
function crd(plural: string, kind: string, path: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: ${plural}, kind: ${kind}}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {hostPort: {type: string}}}}
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {host: {type: string}, port: {type: string}}}}
  conversion:
    strategy: Webhook
    webhook:
      clientConfig:
        service: {namespace: default, name: e2e-crd-conversion, path: ${path}, port: 9443}
        caBundle: ${caBundle}
      conversionReviewVersions: [v1, v1beta1]
`;
}

test('objects created in v1 read as v2 and the other way round; both versions list both', () => {
  k.ok(['apply', '-f', '-'], crd('webhooktests', 'WebhookTest', '/crdconvert'));
  k.ok(['wait', '--for=condition=Established', 'crd/webhooktests.stable.example.com', '--timeout=30s']);
  k.ok(['apply', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: WebhookTest\nmetadata: {name: cr-v1}\nhostPort: "localhost:8080"\n');
  k.ok(['apply', '-f', '-'], 'apiVersion: stable.example.com/v2\nkind: WebhookTest\nmetadata: {name: cr-v2}\nhost: example.com\nport: "443"\n');
  for (const kv of kubectlEnds()) {
    const kc = new Kubectl(kv.path, cluster.kubeconfig);
    try {
      // The preferred version is v2: a plain get shows the webhook's host and port.
      assert.equal(kc.ok(['get', 'webhooktests', 'cr-v1', '-o', 'jsonpath={.apiVersion} {.host} {.port} {.hostPort}']), 'stable.example.com/v2 localhost 8080 ', kv.version);
      assert.equal(kc.ok(['get', 'webhooktests.v1.stable.example.com', 'cr-v2', '-o', 'jsonpath={.apiVersion} {.hostPort}']), 'stable.example.com/v1 example.com:443', kv.version);
      const each = '{range .items[*]}{.metadata.name}={.apiVersion}:{.hostPort}{.host}/{.port};{end}';
      assert.equal(kc.ok(['get', 'webhooktests.v1.stable.example.com', '-o', `jsonpath=${each}`]), 'cr-v1=stable.example.com/v1:localhost:8080/;cr-v2=stable.example.com/v1:example.com:443/;', kv.version);
      assert.equal(kc.ok(['get', 'webhooktests.v2.stable.example.com', '-o', `jsonpath=${each}`]), 'cr-v1=stable.example.com/v2:localhost/8080;cr-v2=stable.example.com/v2:example.com/443;', kv.version);
      assert.match(kc.ok(['get', 'webhooktests']), /^NAME\s+AGE\ncr-v1\s+\d+s\ncr-v2\s+\d+s\n$/, kv.version);
    } finally {
      kc.dispose();
    }
  }
});

test('a webhook that cannot convert gives kube\'s error on reads in the other version', () => {
  k.ok(['apply', '-f', '-'], crd('brokentests', 'BrokenTest', '/not-served'));
  k.ok(['wait', '--for=condition=Established', 'crd/brokentests.stable.example.com', '--timeout=30s']);
  // Written in the storage version: no conversion is needed, so the write succeeds.
  k.ok(['apply', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: BrokenTest\nmetadata: {name: broken}\nhostPort: "a:1"\n');
  assert.equal(k.ok(['get', 'brokentests.v1.stable.example.com', 'broken', '-o', 'jsonpath={.hostPort}']), 'a:1');
  for (const kv of kubectlEnds()) {
    const kc = new Kubectl(kv.path, cluster.kubeconfig);
    try {
      const r = kc.run(['get', 'brokentests.v2.stable.example.com', 'broken']);
      assert.notEqual(r.code, 0, kv.version);
      // The webhook's 404 page read by the rest client, behind the converter's wrapper; an unknown-reason 500.
      assert.match(r.stderr, /Error from server: conversion webhook for stable\.example\.com\/v1, Kind=BrokenTest failed: the server could not find the requested resource/, kv.version);
    } finally {
      kc.dispose();
    }
  }
});
