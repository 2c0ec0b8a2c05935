// Tests for the allocation repair pass: creating the bitmaps, marking missing values at once, freeing leaks only
// after three passes in a row, conflicts with concurrent allocations, and the periodic schedule.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { AllocationBitmap } from './bitmap.js';
import { encodeRangeAllocation, SERVICE_IPS_KEY, SERVICE_NODE_PORTS_KEY } from './range-allocation.js';
import { AllocationRepair, DEFAULT_REPAIR_INTERVAL_MS } from './repair.js';
import { ServiceAllocator } from './service-allocator.js';

const CIDR = '10.0.0.0/29';
const PORTS: [number, number] = [30000, 30009];

function svc(name: string, clusterIP: string, nodePorts: number[] = [], protocols: string[] = []): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' },
    spec: {
      type: nodePorts.length ? 'NodePort' : 'ClusterIP', clusterIP, clusterIPs: [clusterIP],
      ports: nodePorts.map((nodePort, i) => ({ port: 80, protocol: protocols[i] ?? 'TCP', nodePort })),
    },
  } as KubeObject;
}

function setup(services: KubeObject[] = []) {
  const store = new SqliteStore({ path: ':memory:' });
  const allocator = new ServiceAllocator({ store, serviceCidr: CIDR, nodePortRange: PORTS });
  const clock = new FakeClock();
  let lists = 0;
  const repair = new AllocationRepair({ allocator, clock, logger: silentLogger, listServices: async () => { lists++; return services; } });
  return { store, allocator, repair, clock, lists: () => lists };
}

/** Writes a bitmap by hand, as a crashed API server or an older release could have left it. */
async function writeBitmap(store: SqliteStore, key: string, range: string, max: number, offsets: number[]): Promise<void> {
  const bm = new AllocationBitmap({ max, rangeSpec: range });
  for (const o of offsets) bm.allocate(o);
  const kv = await store.get(key);
  if (kv) await store.update(key, encodeRangeAllocation(bm), kv.modRevision);
  else await store.create(key, encodeRangeAllocation(bm));
}

async function marked(allocator: ServiceAllocator, which: 'ips' | 'ports'): Promise<Array<string | number>> {
  const range = which === 'ips' ? allocator.ips : allocator.ports;
  const { bitmap } = await range.stored.read();
  const out: Array<string | number> = [];
  bitmap!.forEach((o) => out.push(range.valueAt(o)));
  return out;
}

test('on a new store the pass creates both bitmaps, with the kubernetes address marked', async () => {
  const { store, repair } = setup();
  const [ips, ports] = await repair.runOnce({ startup: true });
  assert.deepEqual([ips.written, ports.written], [true, true]);
  const ipRa = JSON.parse((await store.get(SERVICE_IPS_KEY))!.value) as { kind: string; range: string; data: string };
  assert.deepEqual([ipRa.kind, ipRa.range, ipRa.data], ['RangeAllocation', '10.0.0.0/29', Buffer.from([1]).toString('base64')]);
  const portRa = JSON.parse((await store.get(SERVICE_NODE_PORTS_KEY))!.value) as { range: string; data: string };
  assert.deepEqual([portRa.range, portRa.data], ['30000-30009', '']);
  // Nothing to change: a second pass writes nothing.
  const rev = await store.revision();
  const again = await repair.runOnce();
  assert.deepEqual(again.map((r) => r.written), [false, false]);
  assert.equal(await store.revision(), rev);
});

test('values in use but not marked are marked at once; marks nobody holds go on the third pass in a row', async () => {
  const services = [svc('a', '10.0.0.3', [30001])];
  const { store, allocator, repair } = setup(services);
  // Leaked: 10.0.0.6 (offset 5) and port 30008; missing: 10.0.0.3 and port 30001.
  await writeBitmap(store, SERVICE_IPS_KEY, CIDR, 6, [0, 5]);
  await writeBitmap(store, SERVICE_NODE_PORTS_KEY, '30000-30009', 10, [8]);

  const [ip1, port1] = await repair.runOnce();
  assert.deepEqual({ ...ip1, range: undefined }, { range: undefined, inUse: 1, missing: 1, released: 0, pendingLeaks: 1, duplicates: 0, outOfRange: 0, written: true });
  assert.deepEqual([port1.missing, port1.pendingLeaks, port1.released], [1, 1, 0]);
  assert.deepEqual((await marked(allocator, 'ips')).sort(), ['10.0.0.1', '10.0.0.3', '10.0.0.6']);
  assert.deepEqual((await marked(allocator, 'ports')).sort(), [30001, 30008]);

  const [ip2, port2] = await repair.runOnce();
  assert.deepEqual([ip2.pendingLeaks, ip2.released, ip2.written, port2.pendingLeaks, port2.written], [1, 0, false, 1, false]);

  const [ip3, port3] = await repair.runOnce();
  assert.deepEqual([ip3.released, ip3.pendingLeaks, ip3.written, port3.released, port3.written], [1, 0, true, 1, true]);
  assert.deepEqual((await marked(allocator, 'ips')).sort(), ['10.0.0.1', '10.0.0.3']);
  assert.deepEqual(await marked(allocator, 'ports'), [30001]);
});

test('a suspected leak that turns out to be in use starts its count again', async () => {
  const services: KubeObject[] = [];
  const { store, allocator, repair } = setup(services);
  await writeBitmap(store, SERVICE_IPS_KEY, CIDR, 6, [0, 2]);
  await repair.runOnce();
  await repair.runOnce();
  // The Service whose create was in flight is now stored.
  services.push(svc('late', '10.0.0.3'));
  await repair.runOnce();
  services.pop();
  const [first] = await repair.runOnce();
  assert.equal(first.pendingLeaks, 1, 'counting starts over');
  await repair.runOnce();
  assert.ok((await marked(allocator, 'ips')).includes('10.0.0.3'));
  const [third] = await repair.runOnce();
  assert.equal(third.released, 1);
});

test('duplicates and values outside the range are reported, and marked once', async () => {
  const { allocator, repair } = setup([
    svc('a', '10.0.0.2', [30001]), svc('b', '10.0.0.2', [30001]), svc('c', '192.168.0.1', [31000]),
    // One number for TCP and UDP is one claim; twice over the same protocol is a duplicate.
    svc('dns', '10.0.0.4', [30005, 30005], ['TCP', 'UDP']), svc('headless', 'None'),
  ]);
  const [ips, ports] = await repair.runOnce();
  assert.deepEqual([ips.inUse, ips.duplicates, ips.outOfRange], [2, 1, 1]);
  assert.deepEqual([ports.inUse, ports.duplicates, ports.outOfRange], [2, 1, 1]);
  assert.deepEqual((await marked(allocator, 'ips')).sort(), ['10.0.0.1', '10.0.0.2', '10.0.0.4']);
  assert.deepEqual((await marked(allocator, 'ports')).sort(), [30001, 30005]);
});

test('a bitmap of another range (a reconfigured CIDR) is rebuilt for the configured one', async () => {
  const { store, allocator, repair } = setup([svc('a', '10.0.0.5')]);
  await writeBitmap(store, SERVICE_IPS_KEY, '10.9.0.0/29', 6, [0, 1, 2, 3]);
  const [ips] = await repair.runOnce();
  assert.equal(ips.written, true);
  assert.equal((JSON.parse((await store.get(SERVICE_IPS_KEY))!.value) as { range: string }).range, CIDR);
  assert.deepEqual((await marked(allocator, 'ips')).sort(), ['10.0.0.1', '10.0.0.5']);
});

test('an allocation that lands while the pass runs is kept: the pass starts over on the newer bitmap', async () => {
  const store = new SqliteStore({ path: ':memory:' });
  const a = new ServiceAllocator({ store, serviceCidr: CIDR, nodePortRange: PORTS });
  const other = new ServiceAllocator({ store, serviceCidr: CIDR, nodePortRange: PORTS });
  await new AllocationRepair({ allocator: a, clock: new FakeClock(), logger: silentLogger, listServices: async () => [] }).runOnce();
  // A stored Service the bitmaps lack, so the pass has something to write.
  const stored = [svc('a', '10.0.0.2', [30002])];
  let racer: KubeObject | undefined;
  let lists = 0;
  const repair = new AllocationRepair({
    allocator: a, clock: new FakeClock(), logger: silentLogger,
    listServices: async () => {
      lists++;
      if (!racer) {
        // Another API server allocates between this pass's read of the bitmap and its write; its Service is not
        // stored yet, so no list shows it.
        racer = { metadata: { name: 'racer', namespace: 'default' }, spec: { type: 'NodePort', clusterIP: '10.0.0.5', ports: [{ port: 80, nodePort: 30007 }] } } as KubeObject;
        await other.allocate(racer, undefined, false);
      }
      return stored;
    },
  });
  const [ips, ports] = await repair.runOnce();
  assert.deepEqual((await marked(a, 'ips')).sort(), ['10.0.0.1', '10.0.0.2', '10.0.0.5'], 'the racing ClusterIP is still marked');
  assert.deepEqual((await marked(a, 'ports')).sort(), [30002, 30007], 'the racing NodePort is still marked');
  assert.deepEqual([ips.missing, ips.pendingLeaks, ports.missing, ports.pendingLeaks], [1, 1, 1, 1]);
  assert.equal(lists, 3, 'the ClusterIP pass started over after its write conflicted');
});

test('two API servers running the pass at once on a new store both succeed', async () => {
  const store = new SqliteStore({ path: ':memory:' });
  const mk = () => new AllocationRepair({
    allocator: new ServiceAllocator({ store, serviceCidr: CIDR, nodePortRange: PORTS }),
    clock: new FakeClock(), logger: silentLogger, listServices: async () => [svc('a', '10.0.0.2', [30002])],
  });
  await Promise.all([mk().runOnce(), mk().runOnce(), mk().runOnce()]);
  const a = new ServiceAllocator({ store, serviceCidr: CIDR, nodePortRange: PORTS });
  assert.deepEqual((await marked(a, 'ips')).sort(), ['10.0.0.1', '10.0.0.2']);
  assert.deepEqual(await marked(a, 'ports'), [30002]);
});

test('the periodic pass runs every 3 minutes of the clock until stopped', async () => {
  const { repair, clock, lists } = setup();
  await repair.runOnce();
  const base = lists();
  repair.start();
  await clock.advance(DEFAULT_REPAIR_INTERVAL_MS - 1);
  assert.equal(lists(), base);
  await clock.advance(1);
  assert.equal(lists(), base + 2, 'one list per bitmap');
  await clock.advance(DEFAULT_REPAIR_INTERVAL_MS);
  assert.equal(lists(), base + 4);
  await repair.stop();
  await clock.advance(DEFAULT_REPAIR_INTERVAL_MS * 3);
  assert.equal(lists(), base + 4);
  assert.equal(clock.waiting, 0);
});
