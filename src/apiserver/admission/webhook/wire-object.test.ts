import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/types.js';
import { wireObject } from './wire-object.js';

// Go's encoding/json writes a zero metav1.Time (non-pointer ObjectMeta.creationTimestamp) as null in typed objects
// (apimachinery pkg/apis/meta/v1/time.go MarshalJSON); unstructured custom resources carry only what they hold.
describe('AdmissionReview object encoding', () => {
  it('writes a missing creationTimestamp as null in Go field order, template metadata included', () => {
    const dep = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    } as unknown as KubeObject;
    const out = wireObject(dep, 'io.k8s.api.apps.v1.Deployment', true) as unknown as { metadata: object; spec: { template: { metadata: object } } };
    assert.equal(JSON.stringify(out.metadata), '{"name":"web","namespace":"default","creationTimestamp":null,"labels":{"app":"web"}}');
    assert.equal(JSON.stringify(out.spec.template.metadata), '{"creationTimestamp":null,"labels":{"app":"web"}}');
    assert.equal((dep.metadata as Record<string, unknown>).creationTimestamp, undefined, 'the admitted object is not changed');
  });

  it('keeps a set creationTimestamp, leaves custom resources alone and completes a subresource kind\'s metadata', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: '2024-01-01T00:00:00Z' } } as KubeObject;
    assert.equal(JSON.stringify(wireObject(pod, 'io.k8s.api.core.v1.Pod', true)!.metadata), '{"name":"p","creationTimestamp":"2024-01-01T00:00:00Z"}');
    const cr = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } as KubeObject;
    assert.equal(JSON.stringify(wireObject(cr, undefined, false)!.metadata), '{"name":"w"}');
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', namespace: 'default' }, target: { kind: 'Node', name: 'n1' } } as unknown as KubeObject;
    assert.equal(JSON.stringify(wireObject(binding, undefined, true)!.metadata), '{"name":"p","namespace":"default","creationTimestamp":null}');
    assert.equal(wireObject(undefined, 'io.k8s.api.core.v1.Pod', true), null);
  });
  // k8s.io/api v0.33 types.go: non-pointer struct fields (Pod.status, Container.resources, ServiceStatus.loadBalancer) are
  // written as {} and a zero metav1.Time as null even with omitempty; webhooks see them (go-zero-fields.ts).
  it('writes the struct fields Go never omits, as a webhook receives a Pod, a Deployment and a Service', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], imagePullPolicy: 'Always' }] } } as unknown as KubeObject;
    assert.equal(JSON.stringify(wireObject(pod, 'io.k8s.api.core.v1.Pod', true)),
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","creationTimestamp":null},"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}],"resources":{},"imagePullPolicy":"Always"}]},"status":{}}');
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } as unknown as KubeObject;
    assert.equal(JSON.stringify(wireObject(dep, 'io.k8s.api.apps.v1.Deployment', true)!.spec),
      '{"replicas":1,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","resources":{}}]}},"strategy":{}}');
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } } as unknown as KubeObject;
    assert.equal(JSON.stringify((wireObject(svc, 'io.k8s.api.core.v1.Service', true) as unknown as { status: unknown }).status), '{"loadBalancer":{}}');
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { selector: {}, template: {} } } as unknown as KubeObject;
    assert.equal(JSON.stringify((wireObject(rs, 'io.k8s.api.apps.v1.ReplicaSet', true) as unknown as { status: unknown }).status), '{"replicas":0}');
    assert.equal((pod as unknown as { status?: unknown }).status, undefined, 'the admitted object is not changed');
  });
});
