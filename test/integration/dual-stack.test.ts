// Integration: dual-stack Services on a control plane given two service CIDRs (both families allocated, stored and
// repaired; kube's refusals), and the errors an IPv4-only control plane (winkube's default) gives for IPv6 requests.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Service } from 'kubernetes-types/core/v1.js';
import { isStatusError } from '../../src/api/errors.js';
import { STRATEGIES } from '../../src/api/strategies/index.js';
import type { KubeObject } from '../../src/api/types.js';
import { AllocationBitmap } from '../../src/apiserver/allocators/bitmap.js';
import { loadRangeAllocation, SECONDARY_SERVICE_IPS_KEY, SERVICE_IPS_KEY } from '../../src/apiserver/allocators/range-allocation.js';
import type { Client } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { ControlPlane } from '../../src/cluster/control-plane.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { RealClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';

const NS = 'default';
const V4 = '10.96.0.0/16';
const V6 = 'fd00:10:96::/112';
type Spec = NonNullable<Service['spec']>;

const svc = (name: string, spec: Spec): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec } } as KubeObject);
const specOf = (o: KubeObject) => o.spec as Spec;

/** The 422 message a create gets (fails the test when it succeeds). */
async function refused(client: Client, obj: KubeObject): Promise<string> {
  try {
    await client.create(R.services, NS, obj);
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    assert.equal(err.code, 422, err.message);
    assert.equal(err.reason, 'Invalid');
    return err.message;
  }
  assert.fail(`${obj.metadata.name} was created`);
}

async function refusedPatch(client: Client, name: string, patch: unknown): Promise<string> {
  try {
    await client.patch(R.services, NS, name, 'merge', patch);
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    assert.equal(err.code, 422, err.message);
    return err.message;
  }
  assert.fail(`${name} was updated`);
}

describe('a dual-stack control plane (--service-cluster-ip-range=10.96.0.0/16,fd00:10:96::/112)', () => {
  const store = new SqliteStore({ path: ':memory:' });
  const plane = () => new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES, store, serviceCidr: `${V4},${V6}` });
  let cp: ControlPlane;
  let client: Client;
  before(async () => {
    cp = plane();
    await cp.start();
    client = cp.client();
  });
  after(() => cp.stop());

  /** The addresses marked in a stored ClusterIP bitmap. */
  async function marked(key: string, range: ReturnType<ControlPlane['allocator']['rangeFor']>): Promise<string[]> {
    const kv = await store.get(key);
    assert.ok(kv && range, `${key} is stored`);
    const bm = loadRangeAllocation(kv.value, range.empty) as AllocationBitmap;
    const out: string[] = [];
    bm.forEach((o) => out.push(range.valueAt(o)));
    return out;
  }

  test('the kubernetes Service stays single-stack on the primary family', async () => {
    const k = await client.get(R.services, NS, 'kubernetes');
    assert.deepEqual([specOf(k).clusterIPs, specOf(k).ipFamilies, specOf(k).ipFamilyPolicy], [['10.96.0.1'], ['IPv4'], 'SingleStack']);
  });

  test('policies and families decide which ClusterIPs a Service gets', async () => {
    const single = specOf(await client.create(R.services, NS, svc('single', {})));
    assert.deepEqual([single.ipFamilyPolicy, single.ipFamilies, single.clusterIPs!.length], ['SingleStack', ['IPv4'], 1]);
    assert.match(single.clusterIP!, /^10\.96\./);

    const prefer = specOf(await client.create(R.services, NS, svc('prefer', { ipFamilyPolicy: 'PreferDualStack' })));
    assert.deepEqual(prefer.ipFamilies, ['IPv4', 'IPv6']);
    assert.match(prefer.clusterIPs![0], /^10\.96\./);
    assert.match(prefer.clusterIPs![1], /^fd00:10:96::[0-9a-f]{1,4}$/);
    assert.equal(prefer.clusterIP, prefer.clusterIPs![0]);

    const v6first = specOf(await client.create(R.services, NS, svc('v6first', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] })));
    assert.deepEqual(v6first.ipFamilies, ['IPv6', 'IPv4']);
    assert.match(v6first.clusterIP!, /^fd00:10:96::/);
    assert.match(v6first.clusterIPs![1], /^10\.96\./);

    const v6only = specOf(await client.create(R.services, NS, svc('v6only', { ipFamilies: ['IPv6'] })));
    assert.deepEqual([v6only.ipFamilyPolicy, v6only.ipFamilies, v6only.clusterIPs!.length], ['SingleStack', ['IPv6'], 1]);

    // Families inferred from requested addresses.
    const asked = specOf(await client.create(R.services, NS, svc('asked', {
      ipFamilyPolicy: 'RequireDualStack', clusterIP: 'fd00:10:96::a', clusterIPs: ['fd00:10:96::a', '10.96.7.7'],
    })));
    assert.deepEqual([asked.ipFamilies, asked.clusterIPs], [['IPv6', 'IPv4'], ['fd00:10:96::a', '10.96.7.7']]);

    // Headless with a selector gets families but no addresses.
    const headless = specOf(await client.create(R.services, NS, svc('headless', { clusterIP: 'None', ipFamilyPolicy: 'RequireDualStack' })));
    assert.deepEqual([headless.clusterIPs, headless.ipFamilies], [['None'], ['IPv4', 'IPv6']]);

    // Both bitmaps hold what was handed out; the IPv6 one at kube's secondary key.
    const v6 = await marked(SECONDARY_SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv6'));
    for (const ip of [prefer.clusterIPs![1], v6first.clusterIP!, v6only.clusterIP!, 'fd00:10:96::a']) assert.ok(v6.includes(ip), `${ip} is marked`);
    assert.equal(v6.length, 4);
    const v4 = await marked(SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv4'));
    assert.ok(v4.includes('10.96.7.7') && v4.includes(prefer.clusterIP!));
    const stored = JSON.parse((await store.get(SECONDARY_SERVICE_IPS_KEY))!.value) as { kind: string; range: string };
    assert.deepEqual([stored.kind, stored.range], ['RangeAllocation', V6]);
  });

  test('the documented invalid combinations are refused with kube\'s messages', async () => {
    const cases: Array<[string, Spec, string]> = [
      ['two-ips', { clusterIP: '10.96.9.9', clusterIPs: ['10.96.9.9', 'fd00:10:96::9'] },
        `Service "two-ips" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified`],
      ['two-fams', { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] },
        `Service "two-fams" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`],
      ['same-fam', { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.96.9.9', clusterIPs: ['10.96.9.9', '10.96.9.10'] },
        'Service "same-fam" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.9.9", "10.96.9.10"}: may specify no more than one IP for each IP family'],
      ['mismatch', { ipFamilies: ['IPv4'], clusterIP: 'fd00:10:96::9', clusterIPs: ['fd00:10:96::9'] },
        'Service "mismatch" is invalid: spec.clusterIPs[0]: Invalid value: "fd00:10:96::9": expected an IPv4 value as indicated by `ipFamilies[0]`'],
      ['dup-fam', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv6'] },
        'Service "dup-fam" is invalid: spec.ipFamilies[1]: Duplicate value: "IPv6"'],
      ['bad-policy', { ipFamilyPolicy: 'DualStack' },
        'Service "bad-policy" is invalid: spec.ipFamilyPolicy: Unsupported value: "DualStack": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"'],
      // Outside every ServiceCIDR: cidrallocator.go ErrMismatchedNetwork (MultiCIDRServiceAllocator is on in 1.33).
      ['out-of-range', { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.96.9.9', clusterIPs: ['10.96.9.9', 'fd00:10:97::9'] },
        'Service "out-of-range" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.9.9", "fd00:10:97::9"}: failed to allocate IP fd00:10:97::9: the provided network does not match the current range'],
      ['taken', { ipFamilies: ['IPv6'], clusterIP: 'fd00:10:96::a', clusterIPs: ['fd00:10:96::a'] },
        'Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"fd00:10:96::a"}: failed to allocate IP fd00:10:96::a: provided IP is already allocated'],
      ['ext', { type: 'ExternalName', externalName: 'example.com', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
        'Service "ext" is invalid: [spec.ipFamilies: Forbidden: may not be set for ExternalName services, spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services]'],
    ];
    const before4 = await marked(SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv4'));
    for (const [name, spec, want] of cases) assert.equal(await refused(client, svc(name, spec)), want, name);
    // The IPv4 address taken before the IPv6 one failed went back.
    assert.deepEqual((await marked(SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv4'))).sort(), before4.sort());
  });

  test('updates add and drop the secondary family by kube\'s rules', async () => {
    const created = specOf(await client.create(R.services, NS, svc('grow', {})));
    const primary = created.clusterIP!;
    // Upgrade: PreferDualStack adds the IPv6 address.
    const grown = specOf(await client.patch(R.services, NS, 'grow', 'merge', { spec: { ipFamilyPolicy: 'PreferDualStack' } }));
    assert.deepEqual(grown.ipFamilies, ['IPv4', 'IPv6']);
    assert.equal(grown.clusterIPs![0], primary);
    const secondary = grown.clusterIPs![1];
    assert.ok((await marked(SECONDARY_SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv6'))).includes(secondary));
    // Dropping the secondary without SingleStack is refused (alloc.go, before validation).
    assert.equal(await refusedPatch(client, 'grow', { spec: { clusterIPs: [primary] } }),
      `Service "grow" is invalid: spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be 'SingleStack' to release the secondary cluster IP`);
    // The primary family never changes.
    assert.equal(await refusedPatch(client, 'grow', { spec: { ipFamilies: ['IPv6', 'IPv4'] } }),
      `Service "grow" is invalid: [spec.clusterIPs[0]: Invalid value: "${primary}": expected an IPv6 value as indicated by \`ipFamilies[0]\`, spec.clusterIPs[1]: Invalid value: "${secondary}": expected an IPv4 value as indicated by \`ipFamilies[1]\`]`);
    // Nor does the primary address.
    assert.equal(await refusedPatch(client, 'grow', { spec: { clusterIP: '10.96.200.200', clusterIPs: ['10.96.200.200', secondary] } }),
      'Service "grow" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.200.200", "' + secondary + '"}: may not change once set');
    // Downgrade: SingleStack releases the IPv6 address once stored.
    const shrunk = specOf(await client.patch(R.services, NS, 'grow', 'merge', { spec: { ipFamilyPolicy: 'SingleStack' } }));
    assert.deepEqual([shrunk.ipFamilies, shrunk.clusterIPs], [['IPv4'], [primary]]);
    assert.ok(!(await marked(SECONDARY_SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv6'))).includes(secondary));
    // RequireDualStack upgrades a single-stack Service too; deleting releases both.
    const again = specOf(await client.patch(R.services, NS, 'grow', 'merge', { spec: { ipFamilyPolicy: 'RequireDualStack' } }));
    assert.equal(again.clusterIPs!.length, 2);
    await client.delete(R.services, NS, 'grow');
    assert.ok(!(await marked(SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv4'))).includes(primary));
    assert.ok(!(await marked(SECONDARY_SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv6'))).includes(again.clusterIPs![1]));
  });

  test('a dry run shows both addresses and stores neither', async () => {
    const v6Before = await marked(SECONDARY_SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv6'));
    const dry = specOf(await client.create(R.services, NS, svc('dry', { ipFamilyPolicy: 'PreferDualStack' }), { dryRun: true }));
    assert.equal(dry.clusterIPs!.length, 2);
    assert.deepEqual(await marked(SECONDARY_SERVICE_IPS_KEY, cp.allocator.rangeFor('IPv6')), v6Before);
  });

  test('a restarted API server repairs the IPv6 bitmap like the IPv4 one', async () => {
    const live = specOf(await client.create(R.services, NS, svc('live', { ipFamilyPolicy: 'RequireDualStack' })));
    const v6 = live.clusterIPs![1];
    // Lose every IPv6 mark, as a crash between the write and the bitmap could.
    const range = cp.allocator.rangeFor('IPv6')!;
    const kv = await store.get(SECONDARY_SERVICE_IPS_KEY);
    await range.stored.replace(kv, range.empty.blank());
    const second = plane();
    await second.start();
    try {
      assert.ok((await marked(SECONDARY_SERVICE_IPS_KEY, range)).includes(v6), 'the start-up pass marked it again');
      assert.match(await refused(second.client(), svc('steal', { ipFamilies: ['IPv6'], clusterIP: v6, clusterIPs: [v6] })), /provided IP is already allocated/);
    } finally {
      await second.allocationRepair.stop();
      second.api.stop();
    }
  });
});

describe('an IPv4-only control plane (the default --service-cluster-ip-range=10.96.0.0/12)', () => {
  let cp: ControlPlane;
  let client: Client;
  before(async () => {
    cp = new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES });
    await cp.start();
    client = cp.client();
  });
  after(() => cp.stop());

  test('IPv6 and dual-stack requests get kube\'s errors', async () => {
    const cases: Array<[string, Spec, string]> = [
      ['require', { ipFamilyPolicy: 'RequireDualStack' },
        'Service "require" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services'],
      ['v6', { ipFamilies: ['IPv6'] },
        'Service "v6" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster'],
      ['v6-ip', { clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] },
        'Service "v6-ip" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster'],
      ['both', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] },
        'Service "both" is invalid: [spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services, spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster]'],
    ];
    for (const [name, spec, want] of cases) assert.equal(await refused(client, svc(name, spec)), want, name);
  });

  test('PreferDualStack falls back to one IPv4 address; headless without a selector names both families', async () => {
    const prefer = specOf(await client.create(R.services, NS, svc('prefer', { ipFamilyPolicy: 'PreferDualStack' })));
    assert.deepEqual([prefer.ipFamilies, prefer.clusterIPs!.length], [['IPv4'], 1]);
    assert.match(prefer.clusterIP!, /^10\.(9[6-9]|10[0-9]|11[01])\./);
    const obj = svc('headless', { clusterIP: 'None' });
    delete (obj.spec as Spec).selector;
    const headless = specOf(await client.create(R.services, NS, obj));
    assert.deepEqual([headless.ipFamilyPolicy, headless.ipFamilies, headless.clusterIPs], ['RequireDualStack', ['IPv4', 'IPv6'], ['None']]);
  });

  test('a bad service CIDR list is refused at start-up with kube-apiserver\'s messages', () => {
    const start = (serviceCidr: string) => () => new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES, serviceCidr });
    assert.throws(start('10.96.0.0/12,10.112.0.0/12'), { message: '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family' });
    assert.throws(start('10.96.0.0/12,fd00::/64'), { message: 'specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108' });
    assert.throws(start('10.96.0.0/12,fd00::/108,10.0.0.0/24'), { message: '--service-cluster-ip-range must not contain more than two entries' });
    assert.throws(start('10.96.0.0/33'), { message: 'service-cluster-ip-range[0] is not a valid cidr' });
  });
});
