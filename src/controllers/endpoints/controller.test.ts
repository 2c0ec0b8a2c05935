import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { makePod, makeService, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { EndpointsObj } from '../util/types.js';
import { EndpointsController } from './controller.js';

const web = { app: 'web' };

describe('EndpointsController', () => {
  it('lists ready and not-ready addresses, resolves named ports, skips pods without IPs', async () => {
    const h = newHarness();
    h.client.seed(R.services, makeService('web', web, [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'metrics', port: 9090, targetPort: 9090 }]));
    const ports = [{ name: 'http', containerPort: 8080 }];
    h.client.seed(R.pods, makePod('a', web, { ip: '10.0.0.2', ready: true, node: 'n1', ports }));
    h.client.seed(R.pods, makePod('b', web, { ip: '10.0.0.3', ready: false, node: 'n1', ports }));
    h.client.seed(R.pods, makePod('c', web, { ready: true, ports }));
    h.client.seed(R.pods, makePod('d', web, { ip: '10.0.0.5', ready: true })); // no `http` port: only metrics
    h.client.seed(R.pods, makePod('x', { app: 'other' }, { ip: '10.0.0.9', ready: true, ports }));
    const c = new EndpointsController(h);
    await h.sync();
    await drain([c]);
    const ep = h.client.peek<EndpointsObj>(R.endpoints, NS, 'web')!;
    assert.deepEqual(ep.metadata.labels, { team: 'a' });
    const view = ep.subsets!.map((s) => ({
      ready: s.addresses?.map((a) => a.ip), notReady: s.notReadyAddresses?.map((a) => a.ip), ports: s.ports?.map((p) => `${p.name}:${p.port}/${p.protocol}`),
    }));
    // Each subset is one set of addresses with every port they all serve: d lacks the named port `http`.
    assert.deepEqual(view.sort((x, y) => String(x.ports).localeCompare(String(y.ports))), [
      { ready: ['10.0.0.2'], notReady: ['10.0.0.3'], ports: ['http:8080/TCP'] },
      { ready: ['10.0.0.2', '10.0.0.5'], notReady: ['10.0.0.3'], ports: ['metrics:9090/TCP'] },
    ]);
    assert.deepEqual(ep.subsets!.flatMap((x) => x.addresses!).find((a) => a.ip === '10.0.0.2')!.targetRef, { kind: 'Pod', namespace: NS, name: 'a', uid: h.client.peek(R.pods, NS, 'a')!.metadata.uid });
    assert.equal(ep.subsets![0].addresses![0].nodeName, 'n1');
  });

  it('follows pod readiness, leaves selector-less services alone and deletes with the service', async () => {
    const h = newHarness();
    h.client.seed(R.services, makeService('web', web, [{ port: 80 }]));
    h.client.seed(R.services, makeService('manual', undefined, [{ port: 80 }]));
    const pod = h.client.seed(R.pods, makePod('a', web, { ip: '10.0.0.2', ready: false }));
    const c = new EndpointsController(h);
    await h.sync();
    await drain([c]);
    assert.equal(h.client.peek<EndpointsObj>(R.endpoints, NS, 'web')!.subsets![0].notReadyAddresses!.length, 1);
    assert.equal(h.client.peek(R.endpoints, NS, 'manual'), undefined);
    await h.client.update(R.pods, NS, { ...pod, status: { ...pod.status, conditions: [{ type: 'Ready', status: 'True' }] } }, { subresource: 'status' });
    await drain([c]);
    const ep = h.client.peek<EndpointsObj>(R.endpoints, NS, 'web')!;
    assert.deepEqual(ep.subsets!.map((s) => [s.addresses?.length, s.notReadyAddresses?.length, s.ports]), [[1, undefined, [{ port: 80, protocol: 'TCP' }]]]);
    await h.client.delete(R.services, NS, 'web');
    await drain([c]);
    assert.equal(h.client.peek(R.endpoints, NS, 'web'), undefined);
  });
});
