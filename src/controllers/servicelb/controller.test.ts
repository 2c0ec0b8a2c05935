import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { NS } from '../testing/builders.js';
import { drain, newHarness, type Harness } from '../testing/harness.js';
import { LB_FINALIZER, ServiceLbController } from './controller.js';

type Svc = KubeObject & Service;

function seed(h: Harness, name: string, spec: Service['spec']): void {
  h.client.seed(R.services, { metadata: { name, namespace: NS }, spec: { clusterIP: '10.96.0.10', ports: [{ port: 80 }], ...spec } });
}

async function run(h: Harness, pool?: string): Promise<void> {
  const c = new ServiceLbController({ ...h, pool });
  await h.sync();
  await drain([c]);
}

const svc = (h: Harness, name: string) => h.client.peek<Svc>(R.services, NS, name)!;

describe('ServiceLbController', () => {
  it('gives LoadBalancer Services an ingress IP from the pool, with the cloud finalizer and events', async () => {
    const h = newHarness();
    seed(h, 'a', { type: 'LoadBalancer' });
    seed(h, 'b', { type: 'LoadBalancer', loadBalancerIP: '172.18.255.210' });
    seed(h, 'c', { type: 'ClusterIP' });
    seed(h, 'd', { type: 'LoadBalancer', loadBalancerClass: 'example.com/other' });
    await run(h);
    assert.deepEqual(svc(h, 'a').status?.loadBalancer?.ingress, [{ ip: '172.18.255.200', ipMode: 'VIP' }]);
    assert.deepEqual(svc(h, 'a').metadata.finalizers, [LB_FINALIZER]);
    assert.equal(svc(h, 'b').status?.loadBalancer?.ingress?.[0].ip, '172.18.255.210');
    assert.equal(svc(h, 'c').status?.loadBalancer?.ingress, undefined);
    assert.equal(svc(h, 'd').status?.loadBalancer?.ingress, undefined, 'another implementation owns a class');
    assert.ok(h.recorder.events.includes('Normal EnsuredLoadBalancer Ensured load balancer'));
  });

  it('reports an exhausted pool and releases the IP when the Service stops being a LoadBalancer', async () => {
    const h = newHarness();
    seed(h, 'a', { type: 'LoadBalancer' });
    seed(h, 'b', { type: 'LoadBalancer' });
    await run(h, '172.18.255.200-172.18.255.200');
    const taken = [svc(h, 'a'), svc(h, 'b')].filter((s) => s.status?.loadBalancer?.ingress?.length);
    assert.equal(taken.length, 1);
    assert.ok(h.recorder.events.some((e) => e === 'Warning SyncLoadBalancerFailed Error syncing load balancer: failed to ensure load balancer: no available IP in pool 172.18.255.200-172.18.255.200'));
    const owner = taken[0].metadata.name!;
    await h.client.patch(R.services, NS, owner, 'merge', { spec: { type: 'ClusterIP' } });
    await run(h, '172.18.255.200-172.18.255.200');
    assert.deepEqual(svc(h, owner).status?.loadBalancer, {});
    assert.deepEqual(svc(h, owner).metadata.finalizers, []);
    const other = owner === 'a' ? 'b' : 'a';
    assert.equal(svc(h, other).status?.loadBalancer?.ingress?.[0].ip, '172.18.255.200');
  });
});
