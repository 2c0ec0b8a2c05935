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
});
