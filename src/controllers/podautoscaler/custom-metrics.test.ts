import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiRequest, ApiResponse, Client } from '../../client/interfaces.js';
import { ApiCustomMetrics } from './custom-metrics.js';
import { goLabelSelectorString } from './go-selector.js';

/** A client whose transport answers from a table of paths; anything else is kube-apiserver's bare 404. */
function fakeClient(routes: Record<string, unknown>, seen: ApiRequest[] = []): Client {
  const transport = {
    async request(req: ApiRequest): Promise<ApiResponse> {
      seen.push(req);
      return req.path in routes ? { status: 200, body: routes[req.path] } : { status: 404, body: '404 page not found\n' };
    },
  };
  return { transport } as unknown as Client;
}

const NO_GROUPS = { '/apis': { kind: 'APIGroupList', groups: [{ name: 'apps', versions: [{ version: 'v1' }] }] } };

describe('custom and external metrics clients', () => {
  it('without the APIs: kube\'s texts', async () => {
    const m = new ApiCustomMetrics(fakeClient(NO_GROUPS));
    await assert.rejects(m.podMetrics('default', 'app=web', 'http_requests'), { message: 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered' });
    await assert.rejects(m.objectMetric('default', { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' }, 'rps'), { message: 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered' });
    await assert.rejects(m.externalMetric('default', 'queue_length', 'queue=tasks'), { message: 'unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue_length.external.metrics.k8s.io)' });
  });

  it('through a served API: values in milli-units, the selectors as query parameters', async () => {
    const seen: ApiRequest[] = [];
    const m = new ApiCustomMetrics(fakeClient({
      '/apis': { groups: [{ name: 'custom.metrics.k8s.io', preferredVersion: { version: 'v1beta2' }, versions: [{ version: 'v1beta2' }] }] },
      '/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/pods/*/http_requests': { items: [{ describedObject: { name: 'a' }, value: '2' }, { describedObject: { name: 'b' }, value: '500m' }] },
      '/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/ingresses.networking.k8s.io/main/rps': { items: [{ value: '10' }] },
      '/apis/external.metrics.k8s.io/v1beta1/namespaces/default/queue_length': { items: [{ metricName: 'queue_length', value: '30' }] },
    }, seen));
    assert.deepEqual((await m.podMetrics('default', 'app=web', 'http_requests')).map((v) => [v.name, v.milli]), [['a', 2000], ['b', 500]]);
    assert.equal((await m.objectMetric('default', { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' }, 'rps')).milli, 10_000);
    assert.equal((await m.externalMetric('default', 'queue_length', 'queue=tasks'))[0].milli, 30_000);
    assert.deepEqual(seen.find((r) => r.path.endsWith('queue_length'))?.query, { labelSelector: 'queue=tasks' });
  });
});

it('LabelSelector.String() as %+v prints it', () => {
  assert.equal(goLabelSelectorString({ matchLabels: { queue: 'worker_tasks' } }), '&LabelSelector{MatchLabels:map[string]string{queue: worker_tasks,},MatchExpressions:[]LabelSelectorRequirement{},}');
  assert.equal(goLabelSelectorString(undefined), 'nil');
});
