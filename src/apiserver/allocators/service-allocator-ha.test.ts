// Two API servers (ControlPlanes) sharing one store, as `--storage etcd` runs them: Services created on both at
// once never share a ClusterIP or NodePort, deletes and failed writes give values back, and repair fixes leaks.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { StatusError } from '../../api/errors.js';
import { STRATEGIES } from '../../api/strategies/index.js';
import type { KubeObject } from '../../api/types.js';
import { R } from '../../client/resources.js';
import { ControlPlane } from '../../cluster/control-plane.js';
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { RealClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { AllocationBitmap } from './bitmap.js';
import { encodeRangeAllocation, loadRangeAllocation, SERVICE_IPS_KEY, SERVICE_NODE_PORTS_KEY } from './range-allocation.js';

interface Spec {
  type?: string;
  clusterIP?: string;
  ports?: Array<{ port: number; nodePort?: number }>;
}

const NS = 'default';
const CIDR = '10.0.0.0/24';
const PORTS: [number, number] = [30000, 30199];
const store = new SqliteStore({ path: ':memory:' });
const plane = () => new ControlPlane({ clock: new RealClock(), logger: silentLogger, strategies: STRATEGIES, store, serviceCidr: CIDR, nodePortRange: PORTS });
let a: ControlPlane;
let b: ControlPlane;

const svc = (name: string, spec: Spec = { type: 'NodePort', ports: [{ port: 80 }] }): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: structuredClone(spec) } as KubeObject);
const specOf = (o: KubeObject) => o.spec as Spec;

/** The values marked in a stored bitmap. */
async function marked(key: string): Promise<number[]> {
  const kv = await store.get(key);
  const blank = key === SERVICE_IPS_KEY ? new AllocationBitmap({ max: 254, rangeSpec: CIDR }) : new AllocationBitmap({ max: 200, rangeSpec: '30000-30199' });
  const bm = loadRangeAllocation(kv!.value, blank)!;
  const out: number[] = [];
  bm.forEach((o) => out.push(o));
  return out;
}
const markedPorts = async () => (await marked(SERVICE_NODE_PORTS_KEY)).map((o) => PORTS[0] + o);
const markedIps = async () => (await marked(SERVICE_IPS_KEY)).map((o) => `10.0.0.${o + 1}`);

async function createMany(prefix: string, n: number): Promise<KubeObject[]> {
  // Interleaved over both servers, all in flight at once.
  return Promise.all(Array.from({ length: n }, (_, i) => (i % 2 ? a : b).client().create(R.services, NS, svc(`${prefix}-${i}`))));
}

async function deleteAll(prefix: string): Promise<void> {
  const list = await a.client().list(R.services, NS);
  const mine = list.items.filter((s) => s.metadata.name!.startsWith(`${prefix}-`));
  await Promise.all(mine.map((s, i) => (i % 2 ? a : b).client().delete(R.services, NS, s.metadata.name!)));
}

function assertUnique(made: KubeObject[]): void {
  const ips = made.map((s) => specOf(s).clusterIP!);
  const ports = made.map((s) => specOf(s).ports![0].nodePort!);
  assert.equal(new Set(ips).size, made.length, 'every ClusterIP is unique');
  assert.equal(new Set(ports).size, made.length, 'every NodePort is unique');
  assert.ok(!ips.includes('10.0.0.1'), 'the kubernetes Service address stays reserved');
  for (const p of ports) assert.ok(p >= PORTS[0] && p <= PORTS[1], `NodePort ${p} in range`);
}

before(async () => {
  a = plane();
  b = plane();
  // Both run the start-up repair and bootstrap the kubernetes Service at once.
  await Promise.all([a.start(), b.start()]);
});
after(async () => {
  await a?.stop();
  await b?.stop();
});

test('both servers bootstrapped one kubernetes Service on the reserved address', async () => {
  const k = await b.client().get(R.services, NS, 'kubernetes');
  assert.equal(specOf(k).clusterIP, '10.0.0.1');
  assert.deepEqual(await markedIps(), ['10.0.0.1']);
  assert.deepEqual(await markedPorts(), []);
});

test('NodePort Services created on both servers at once get unique ClusterIPs and NodePorts; deletes free them', async () => {
  const first = await createMany('wave1', 160);
  assertUnique(first);
  assert.equal((await markedPorts()).length, 160);
  assert.equal((await markedIps()).length, 161);

  await deleteAll('wave1');
  assert.deepEqual(await markedPorts(), []);
  assert.deepEqual(await markedIps(), ['10.0.0.1']);

  // The whole NodePort range again: only possible if every deleted value came back.
  const second = await createMany('wave2', 200);
  assertUnique(second);
  assert.deepEqual((await markedPorts()).sort((x, y) => x - y), second.map((s) => specOf(s).ports![0].nodePort!).sort((x, y) => x - y));
  await assert.rejects(a.client().create(R.services, NS, svc('one-too-many')),
    (e: StatusError) => e.code === 500 && e.message === 'Internal error occurred: failed to allocate a nodePort: range is full');
  await deleteAll('wave2');
  assert.deepEqual(await markedPorts(), []);
});

test('a write that fails after allocating gives the values back', async () => {
  const held = await a.client().create(R.services, NS, svc('held', { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] }));
  const ips = await markedIps();
  const ports = await markedPorts();
  // AlreadyExists from storage, after a ClusterIP and a NodePort were allocated for it.
  await assert.rejects(b.client().create(R.services, NS, svc('held')), (e: StatusError) => e.code === 409);
  // A taken NodePort, after the ClusterIP was allocated.
  await assert.rejects(b.client().create(R.services, NS, svc('clash', { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] })),
    (e: StatusError) => e.code === 422 && e.message.includes('spec.ports[0].nodePort: Invalid value: 30100: provided port is already allocated'));
  // A dry run allocates nothing.
  const dry = await b.client().create(R.services, NS, svc('dry'), { dryRun: true });
  assert.ok(specOf(dry).ports![0].nodePort);
  assert.deepEqual(await markedIps(), ips);
  assert.deepEqual(await markedPorts(), ports);

  // NodePort -> ClusterIP through the other server frees the port.
  await b.client().patch(R.services, NS, 'held', 'merge', { spec: { type: 'ClusterIP', externalTrafficPolicy: null, ports: [{ port: 80, nodePort: null }] } });
  assert.deepEqual(await markedPorts(), []);
  assert.ok((await markedIps()).includes(specOf(held).clusterIP!));

  // Deleting through finalizers frees the values when the last finalizer goes.
  await a.client().patch(R.services, NS, 'held', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
  await a.client().delete(R.services, NS, 'held');
  assert.ok((await markedIps()).includes(specOf(held).clusterIP!), 'still held while the Service is being deleted');
  await b.client().patch(R.services, NS, 'held', 'merge', { metadata: { finalizers: null } });
  await assert.rejects(a.client().get(R.services, NS, 'held'), (e: StatusError) => e.code === 404);
  assert.ok(!(await markedIps()).includes(specOf(held).clusterIP!));
});

test('a crash-leaked value and a lost mark are repaired: the lost one at start-up, the leak after three passes', async () => {
  const live = await a.client().create(R.services, NS, svc('live', { type: 'NodePort', ports: [{ port: 80, nodePort: 30010 }] }));
  const liveIp = specOf(live).clusterIP!;
  // Write the bitmaps by hand as a crashed server could leave them: 30020 and 10.0.0.200 marked for a Service that
  // was never stored, and the live Service's marks lost.
  const ports = new AllocationBitmap({ max: 200, rangeSpec: '30000-30199' });
  ports.allocate(20);
  const ips = new AllocationBitmap({ max: 254, rangeSpec: CIDR });
  ips.allocate(0);
  ips.allocate(199);
  for (const [key, bm] of [[SERVICE_NODE_PORTS_KEY, ports], [SERVICE_IPS_KEY, ips]] as const) {
    const kv = await store.get(key);
    await store.update(key, encodeRangeAllocation(bm), kv!.modRevision);
  }

  // A third API server starts: its start-up pass marks the live Service's values again at once.
  const c = plane();
  await c.start();
  try {
    await assert.rejects(b.client().create(R.services, NS, svc('steal', { type: 'NodePort', ports: [{ port: 80, nodePort: 30010 }] })),
      (e: StatusError) => e.code === 422 && e.message.includes('provided port is already allocated'));
    await assert.rejects(b.client().create(R.services, NS, svc('steal-ip', { clusterIP: liveIp, ports: [{ port: 80 }] } as Spec)),
      (e: StatusError) => e.code === 422 && e.message.includes(`failed to allocate IP ${liveIp}: provided IP is already allocated`));
    // The leaked values stay marked until the third pass in a row has found them unused.
    assert.ok((await markedPorts()).includes(30020));
    const [, portPass2] = await c.allocationRepair.runOnce();
    assert.equal(portPass2.pendingLeaks, 1);
    assert.ok((await markedPorts()).includes(30020));
    const [ipPass3, portPass3] = await c.allocationRepair.runOnce();
    assert.deepEqual([ipPass3.released, portPass3.released], [1, 1]);
    assert.deepEqual(await markedPorts(), [30010]);
    assert.deepEqual((await markedIps()).sort(), ['10.0.0.1', liveIp].sort());
    const reuse = await a.client().create(R.services, NS, svc('reuse', { type: 'NodePort', clusterIP: '10.0.0.200', ports: [{ port: 80, nodePort: 30020 }] }));
    assert.equal(specOf(reuse).ports![0].nodePort, 30020);
  } finally {
    await c.allocationRepair.stop();
    c.api.stop();
  }
});
