// IPAddress objects as kube 1.33's ClusterIP allocator writes them, and the default ServiceCIDR's Ready condition,
// through a whole control plane (pkg/registry/core/service/ipallocator/ipallocator.go,
// pkg/controlplane/controller/defaultservicecidr).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isNotFound } from '../../api/errors.js';
import { STRATEGIES } from '../../api/strategies/index.js';
import type { KubeObject } from '../../api/types.js';
import type { Client, ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { IP_ADDRESSES, ipAddressObject } from './ip-address-objects.js';

const SERVICE_CIDRS: ResourceType = { group: 'networking.k8s.io', version: 'v1', resource: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false };
const svc = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...extra } });
const clusterIPs = (s: KubeObject) => (s.spec as { clusterIPs: string[] }).clusterIPs;

async function gone(client: Client, ip: string): Promise<boolean> {
  try {
    await client.get(IP_ADDRESSES, undefined, ip);
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}

describe('IPAddress objects and the default ServiceCIDR (dual-stack control plane)', () => {
  let cp: ControlPlane;
  let client: Client;
  before(async () => {
    cp = new ControlPlane({
      clock: new FakeClock(Date.parse('2025-01-01T00:00:00Z')), logger: silentLogger, strategies: STRATEGIES,
      serviceCidr: '10.96.0.0/16,fd00:10:96::/112',
    });
    await cp.start();
    client = cp.client();
  });
  after(() => cp.stop());

  it('publishes the kubernetes Service address at bootstrap', async () => {
    const ip = await client.get(IP_ADDRESSES, undefined, '10.96.0.1');
    assert.deepEqual(ip.metadata.labels, { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' });
    assert.deepEqual(ip.spec, { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' } });
  });

  it('writes one object per ClusterIP of each family and deletes them with the Service', async () => {
    const created = await client.create(R.services, 'default', svc('web', { ipFamilyPolicy: 'RequireDualStack' }));
    const ips = clusterIPs(created);
    assert.equal(ips.length, 2);
    for (const [ip, family] of [[ips[0], 'IPv4'], [ips[1], 'IPv6']]) {
      const obj = await client.get(IP_ADDRESSES, undefined, ip);
      assert.equal(obj.metadata.labels?.['ipaddress.kubernetes.io/ip-family'], family);
      assert.deepEqual(obj.spec, { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'web' } });
    }
    await client.delete(R.services, 'default', 'web');
    for (const ip of ips) assert.ok(await gone(client, ip), `${ip} still published`);
  });

  it('writes nothing for a dry run, a headless or an ExternalName Service', async () => {
    const before = (await client.list(IP_ADDRESSES, undefined)).items.length;
    await client.create(R.services, 'default', svc('dry'), { dryRun: true });
    await client.create(R.services, 'default', svc('headless', { clusterIP: 'None' }));
    await client.create(R.services, 'default', { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } });
    assert.equal((await client.list(IP_ADDRESSES, undefined)).items.length, before);
  });

  it('releases the object of a family a Service drops', async () => {
    const created = await client.create(R.services, 'default', svc('down', { ipFamilyPolicy: 'PreferDualStack' }));
    const [v4, v6] = clusterIPs(created);
    const spec = created.spec as Record<string, unknown>;
    spec.ipFamilyPolicy = 'SingleStack';
    spec.ipFamilies = ['IPv4'];
    spec.clusterIPs = [v4];
    await client.update(R.services, 'default', created);
    assert.ok(await gone(client, v6));
    assert.equal((await client.get(IP_ADDRESSES, undefined, v4)).metadata.name, v4);
  });

  it('repair writes missing objects and deletes an orphan seen on two passes', async () => {
    const created = await client.create(R.services, 'default', svc('fix'));
    const ip = clusterIPs(created)[0];
    await client.delete(IP_ADDRESSES, undefined, ip);
    const orphan = ipAddressObject('10.96.200.200', 'IPv4', { metadata: { name: 'nobody', namespace: 'default' } });
    await client.create(IP_ADDRESSES, undefined, orphan);
    await cp.allocationRepair.runOnce();
    assert.equal((await client.get(IP_ADDRESSES, undefined, ip)).metadata.name, ip);
    assert.equal(await gone(client, '10.96.200.200'), false, 'an orphan seen once may be a create in flight');
    await cp.allocationRepair.runOnce();
    assert.ok(await gone(client, '10.96.200.200'));
  });

  it('marks the default ServiceCIDR Ready as kube-apiserver does', async () => {
    const sc = await client.get(SERVICE_CIDRS, undefined, 'kubernetes');
    assert.deepEqual((sc.spec as { cidrs: string[] }).cidrs, ['10.96.0.0/16', 'fd00:10:96::/112']);
    assert.deepEqual((sc.status as { conditions: unknown[] }).conditions, [
      { type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', reason: '', message: 'Kubernetes default Service CIDR is ready' },
    ]);
  });
});
