import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { R } from '../../client/resources.js';
import { makePod, makeService, NS } from '../testing/builders.js';
import { drain, newHarness } from '../testing/harness.js';
import type { EndpointSliceObj, ServiceObj } from '../util/types.js';
import { EndpointSliceController } from './controller.js';
import { addressTypesFor } from './endpoints.js';

const web = { app: 'web' };

describe('EndpointSliceController', () => {
  it('builds a labelled, owned slice with conditions, node, zone and resolved ports', async () => {
    const h = newHarness();
    const svc = h.client.seed(R.services, makeService('web', web, [{ name: 'http', port: 80, targetPort: 'http' }]));
    h.client.seed(R.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } } });
    const ports = [{ name: 'http', containerPort: 8080 }];
    h.client.seed(R.pods, makePod('a', web, { ip: '10.0.0.2', ready: true, node: 'n1', ports }));
    const b = makePod('b', web, { ip: '10.0.0.3', ready: true, node: 'n1', ports });
    b.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    h.client.seed(R.pods, b);
    h.client.seed(R.pods, makePod('c', web, { ready: true, ports }));
    const c = new EndpointSliceController(h);
    await h.sync();
    await drain([c]);
    const slices = h.client.all<EndpointSliceObj>(R.endpointslices, NS);
    assert.equal(slices.length, 1);
    const s = slices[0];
    assert.match(s.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(s.metadata.labels, { team: 'a', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal(s.addressType, 'IPv4');
    assert.deepEqual(s.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(s.endpoints.map((e) => [e.addresses[0], e.conditions, e.nodeName, e.zone, e.targetRef?.name]), [
      ['10.0.0.2', { ready: true, serving: true, terminating: false }, 'n1', 'z1', 'a'],
      ['10.0.0.3', { ready: false, serving: true, terminating: true }, 'n1', 'z1', 'b'],
    ]);
  });

  it('keeps an empty placeholder, splits past the per-slice limit, and reuses slices', async () => {
    const h = newHarness();
    h.client.seed(R.services, makeService('web', web, [{ port: 80 }]));
    const c = new EndpointSliceController({ ...h, maxEndpointsPerSlice: 2 });
    await h.sync();
    await drain([c]);
    let slices = h.client.all<EndpointSliceObj>(R.endpointslices, NS);
    assert.deepEqual(slices.map((s) => [s.endpoints.length, s.ports]), [[0, []]]);
    const placeholder = slices[0].metadata.name;
    for (const n of ['a', 'b', 'c']) h.client.seed(R.pods, makePod(n, web, { ip: `10.0.0.${n.charCodeAt(0) - 90}`, ready: true }));
    await drain([c]);
    slices = h.client.all<EndpointSliceObj>(R.endpointslices, NS);
    assert.equal(slices.length, 2);
    assert.ok(slices.some((s) => s.metadata.name === placeholder), 'the placeholder slice is reused');
    assert.deepEqual(slices.map((s) => s.endpoints.length).sort(), [1, 2]);
    h.client.clearActions();
    await c.reconcile(`${NS}/web`);
    assert.deepEqual(h.client.actions, [], 'an unchanged service writes nothing');
  });

  it('keeps one slice per IP family of the Service, from the pods\' status.podIPs', async () => {
    const h = newHarness();
    h.client.seed(R.services, makeService('web', web, [{ port: 80 }], {
      clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', 'fd00::a'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack',
    }));
    // A pod of a dual-stack node has one address per family; one of an IPv4-only node (e.g. Windows overlay) has one.
    const dual = makePod('dual', web, { ip: '10.244.1.5', ready: true });
    dual.status!.podIPs = [{ ip: '10.244.1.5' }, { ip: 'fd00:10:244:1::5' }];
    h.client.seed(R.pods, dual);
    h.client.seed(R.pods, makePod('v4only', web, { ip: '10.244.2.7', ready: true }));
    const c = new EndpointSliceController(h);
    await h.sync();
    await drain([c]);
    const byType = () => Object.fromEntries(h.client.all<EndpointSliceObj>(R.endpointslices, NS)
      .map((s) => [s.addressType, s.endpoints.map((e) => [e.targetRef?.name, ...e.addresses]).sort()]));
    assert.deepEqual(byType(), {
      IPv4: [['dual', '10.244.1.5'], ['v4only', '10.244.2.7']],
      IPv6: [['dual', 'fd00:10:244:1::5']],
    });
    // Downgraded to SingleStack: the IPv6 slice goes (reconciler: address types the Service no longer has).
    const svc = h.client.all<ServiceObj>(R.services, NS)[0];
    h.client.seed(R.services, { ...svc, spec: { ...svc.spec, clusterIPs: ['10.0.0.10'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' } });
    await c.reconcile(`${NS}/web`);
    assert.deepEqual(Object.keys(byType()), ['IPv4']);
  });

  it('gives a dual-stack Service without endpoints an empty slice per family', async () => {
    const h = newHarness();
    h.client.seed(R.services, makeService('web', web, [{ port: 80 }], { clusterIP: 'fd00::a', clusterIPs: ['fd00::a', '10.0.0.10'], ipFamilies: ['IPv6', 'IPv4'] }));
    const c = new EndpointSliceController(h);
    await h.sync();
    await drain([c]);
    const slices = h.client.all<EndpointSliceObj>(R.endpointslices, NS);
    assert.deepEqual(slices.map((s) => [s.addressType, s.endpoints.length]).sort(), [['IPv4', 0], ['IPv6', 0]]);
  });
});

describe('addressTypesFor', () => {
  it('follows spec.ipFamilies, else the ClusterIP\'s family, else both for headless (getAddressTypesForService)', () => {
    const cases: Array<[Partial<NonNullable<ServiceObj['spec']>>, string[]]> = [
      [{ ipFamilies: ['IPv6', 'IPv4'] }, ['IPv6', 'IPv4']],
      [{ clusterIP: 'fd00::a' }, ['IPv6']],
      [{ clusterIP: '10.0.0.10' }, ['IPv4']],
      [{ clusterIP: 'None' }, ['IPv4', 'IPv6']],
    ];
    for (const [spec, want] of cases) assert.deepEqual(addressTypesFor(makeService('s', web, [{ port: 80 }], { clusterIP: undefined, ...spec })), want, JSON.stringify(spec));
  });
});
