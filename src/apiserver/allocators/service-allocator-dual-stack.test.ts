// Tests for dual-stack ClusterIP allocation: the IPv6 bitmap (kube's 2^16 cap, no broadcast), one address per family,
// rollback across families, release by family, and the repair pass over the secondary range.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { SECONDARY_SERVICE_IPS_KEY, SERVICE_IPS_KEY } from './range-allocation.js';
import { AllocationRepair } from './repair.js';
import { ServiceAllocator } from './service-allocator.js';
import { serviceIpRange } from './service-ranges.js';

interface Spec { clusterIP?: string; clusterIPs?: string[]; ipFamilies?: string[]; ipFamilyPolicy?: string; ports?: Array<{ port: number }> }
const svc = (name: string, spec: Spec): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { selector: { app: name }, ...structuredClone(spec) } } as KubeObject);
const specOf = (o: KubeObject) => o.spec as Spec;

async function setup(cidrs: string[], services: () => KubeObject[] = () => []) {
  const store = new SqliteStore({ path: ':memory:' });
  const a = new ServiceAllocator({ store, serviceCidr: cidrs, nodePortRange: [30000, 30009] });
  const repair = new AllocationRepair({ allocator: a, listServices: async () => services(), clock: new FakeClock(), logger: silentLogger });
  await repair.runOnce({ startup: true });
  return { store, a, repair };
}
async function create(a: ServiceAllocator, obj: KubeObject): Promise<KubeObject> {
  const txn = await a.allocate(obj, undefined, false);
  await txn?.commit(obj);
  return obj;
}
async function marked(a: ServiceAllocator, family: string): Promise<string[]> {
  const range = a.rangeFor(family)!;
  const { bitmap } = await range.stored.read();
  const out: string[] = [];
  bitmap!.forEach((o) => out.push(range.valueAt(o)));
  return out;
}

test('an IPv6 range: no network address, no broadcast, at most 2^16 addresses (ipallocator/bitmap.go New)', () => {
  const store = new SqliteStore({ path: ':memory:' });
  const cases: Array<[string, number, number, string, string]> = [
    // cidr, bitmap size, static band, first, last
    ['fd00:10:96::/112', 65535, 256, 'fd00:10:96::1', 'fd00:10:96::ffff'],
    ['fd00:10:96::/108', 65535, 256, 'fd00:10:96::1', 'fd00:10:96::ffff'],
    ['fd00::/125', 7, 0, 'fd00::1', 'fd00::7'],
    ['10.0.0.0/29', 6, 0, '10.0.0.1', '10.0.0.6'],
  ];
  for (const [cidr, max, band, first, last] of cases) {
    const r = serviceIpRange(store, cidr, { reserveFirst: false });
    assert.equal(r.empty.max, max, cidr);
    assert.equal(r.spec, cidr);
    assert.deepEqual([r.valueAt(0), r.valueAt(max - 1)], [first, last], cidr);
    assert.deepEqual([r.offsetOf(first), r.offsetOf(last)], [0, max - 1], cidr);
    // The bitmap's lower band is left for requested addresses (KEP-3070), as for IPv4.
    const bm = r.empty.blank();
    if (band) assert.ok(bm.allocateNext(() => 0)! >= band, cidr);
  }
  const r = serviceIpRange(store, 'fd00:10:96::/108');
  assert.equal(r.offsetOf('fd00:10:96::'), undefined, 'the network address');
  assert.equal(r.offsetOf('fd00:10:96::1:0'), undefined, 'past the 2^16 cap');
  assert.equal(r.offsetOf('10.0.0.1'), undefined, 'the other family');
  assert.equal(r.offsetOf('FD00:10:96:0:0:0:0:A'), 9, 'any spelling');
});

test('PreferDualStack gets one address per family, each from its own stored bitmap', async () => {
  const { store, a } = await setup(['10.0.0.0/28', 'fd00::/125']);
  assert.deepEqual(a.families, ['IPv4', 'IPv6']);
  const s = specOf(await create(a, svc('web', { ipFamilyPolicy: 'PreferDualStack' })));
  assert.deepEqual(s.ipFamilies, ['IPv4', 'IPv6']);
  assert.match(s.clusterIPs![0], /^10\.0\.0\.(\d+)$/);
  assert.match(s.clusterIPs![1], /^fd00::[1-7]$/);
  assert.deepEqual(await marked(a, 'IPv6'), [s.clusterIPs![1]]);
  assert.deepEqual((await marked(a, 'IPv4')).sort(), ['10.0.0.1', s.clusterIP!].sort());
  const v6 = JSON.parse((await store.get(SECONDARY_SERVICE_IPS_KEY))!.value) as { range: string };
  const v4 = JSON.parse((await store.get(SERVICE_IPS_KEY))!.value) as { range: string };
  assert.deepEqual([v4.range, v6.range], ['10.0.0.0/28', 'fd00::/125']);
  // The reserved kubernetes address lives in the primary range only: fd00::1 is an ordinary address (unless the
  // random allocation above took it, in which case fd00::1 is in use and proves it was allocatable).
  if (s.clusterIPs![1] !== 'fd00::1') {
    const v6only = specOf(await create(a, svc('v6', { ipFamilies: ['IPv6'], clusterIP: 'fd00::1', clusterIPs: ['fd00::1'] })));
    assert.deepEqual(v6only.clusterIPs, ['fd00::1']);
  }
});

test('a full secondary range fails the create and gives the primary address back', async () => {
  const { a } = await setup(['10.0.0.0/28', 'fd00::/125']);
  for (let i = 0; i < 7; i++) await create(a, svc(`s${i}`, { ipFamilyPolicy: 'RequireDualStack' }));
  const v4 = await marked(a, 'IPv4');
  await assert.rejects(a.allocate(svc('full', { ipFamilyPolicy: 'RequireDualStack' }), undefined, false),
    { code: 500, message: 'Internal error occurred: failed to allocate a serviceIP: range is full' });
  assert.deepEqual(await marked(a, 'IPv4'), v4);
  // PreferDualStack does not fall back to one family when the secondary is full, as in kube.
  await assert.rejects(a.allocate(svc('prefer', { ipFamilyPolicy: 'PreferDualStack' }), undefined, false), { code: 500 });
});

test('a downgrade releases the secondary on commit; deleting releases each address to its family', async () => {
  const { a } = await setup(['10.0.0.0/28', 'fd00::/125']);
  const v1 = await create(a, svc('web', { ipFamilyPolicy: 'RequireDualStack' }));
  const [ip4, ip6] = specOf(v1).clusterIPs!;
  const v2 = svc('web', { ...specOf(v1), ipFamilyPolicy: 'SingleStack' });
  const txn = await a.allocate(v2, v1, false);
  assert.deepEqual([specOf(v2).clusterIPs, specOf(v2).ipFamilies], [[ip4], ['IPv4']]);
  assert.deepEqual(await marked(a, 'IPv6'), [ip6], 'held until the write is stored');
  await txn!.commit(v2);
  assert.deepEqual(await marked(a, 'IPv6'), []);
  await a.release(v2);
  assert.deepEqual(await marked(a, 'IPv4'), ['10.0.0.1']);
});

test('repair rebuilds the secondary bitmap: lost marks at once, leaks after three passes', async () => {
  let services: KubeObject[] = [];
  const { a, repair } = await setup(['10.0.0.0/28', 'fd00::/125'], () => services);
  const live = await create(a, svc('live', { ipFamilyPolicy: 'RequireDualStack' }));
  const leaked = await create(a, svc('leaked', { ipFamilies: ['IPv6'] }));
  services = [live];
  const range = a.rangeFor('IPv6')!;
  const kv = (await range.stored.read()).kv;
  const lost = range.empty.blank();
  lost.allocate(range.offsetOf(specOf(leaked).clusterIP!)!);
  await range.stored.replace(kv, lost);
  const [, v6pass1] = await repair.runOnce();
  assert.deepEqual([v6pass1.range, v6pass1.missing, v6pass1.pendingLeaks], ['fd00::/125', 1, 1]);
  assert.ok((await marked(a, 'IPv6')).includes(specOf(live).clusterIPs![1]));
  await repair.runOnce();
  const [, v6pass3] = await repair.runOnce();
  assert.equal(v6pass3.released, 1);
  assert.deepEqual(await marked(a, 'IPv6'), [specOf(live).clusterIPs![1]]);
});

test('a cluster back to IPv4-only: the primary pass reports IPv6 addresses as outside every range', async () => {
  const held = svc('old', { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'] });
  const { a, repair } = await setup(['10.0.0.0/28'], () => [held]);
  const [ipPass] = await repair.runOnce();
  assert.deepEqual([ipPass.inUse, ipPass.outOfRange], [1, 1]);
  // Deleting it frees the IPv4 address and leaves the unknown family alone.
  await a.release(held);
  assert.deepEqual(await marked(a, 'IPv4'), ['10.0.0.1']);
});
