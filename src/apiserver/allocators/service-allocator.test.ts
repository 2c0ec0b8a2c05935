// Tests for the storage-backed Service allocator: dynamic and requested ClusterIPs and NodePorts, kube's error
// messages, the reserved kubernetes address, dry runs, transactions, and two allocators sharing one store.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStatusError, type StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { Store } from '../../storage/interfaces.js';
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import { SERVICE_IPS_KEY, SERVICE_NODE_PORTS_KEY } from './range-allocation.js';
import { AllocationRepair } from './repair.js';
import { ServiceAllocator } from './service-allocator.js';

interface Spec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: Array<{ name?: string; port: number; protocol?: string; nodePort?: number }>;
  allocateLoadBalancerNodePorts?: boolean;
}

function svc(name: string, spec: Spec, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, uid: `uid-${name}` }, spec: structuredClone(spec) } as KubeObject;
}
const specOf = (o: KubeObject) => o.spec as Spec;
const nodePort = (port = 80): Spec => ({ type: 'NodePort', ports: [{ port, protocol: 'TCP' }] });

async function plane(store: Store, opts: { cidr?: string; ports?: [number, number] } = {}): Promise<ServiceAllocator> {
  return new ServiceAllocator({ store, serviceCidr: opts.cidr ?? '10.0.0.0/29', nodePortRange: opts.ports ?? [30000, 30004] });
}

/** A store whose bitmaps the start-up repair pass has created, and an allocator on it. */
async function setup(opts: { cidr?: string; ports?: [number, number] } = {}): Promise<{ store: SqliteStore; a: ServiceAllocator }> {
  const store = new SqliteStore({ path: ':memory:' });
  const a = await plane(store, opts);
  await new AllocationRepair({ allocator: a, listServices: async () => [], clock: new FakeClock(), logger: silentLogger }).runOnce();
  return { store, a };
}

/** What a successful write does: allocate, then commit with the object as stored. */
async function create(a: ServiceAllocator, obj: KubeObject): Promise<KubeObject> {
  const txn = await a.allocate(obj, undefined, false);
  await txn?.commit(obj);
  return obj;
}

async function stored(store: Store, key: string): Promise<{ kind: string; apiVersion: string; range: string; data: string; modRevision: number }> {
  const kv = await store.get(key);
  assert.ok(kv, `${key} exists`);
  return { ...(JSON.parse(kv.value) as { kind: string; apiVersion: string; range: string; data: string }), modRevision: kv.modRevision };
}

async function used(a: ServiceAllocator, which: 'ips' | 'ports'): Promise<Array<string | number>> {
  const range = which === 'ips' ? a.ips : a.ports;
  const { bitmap } = await range.stored.read();
  const out: Array<string | number> = [];
  bitmap!.forEach((o) => out.push(range.valueAt(o) as string | number));
  return out;
}

async function rejects(p: Promise<unknown>, code: number, message: string | RegExp): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(isStatusError(err), `a StatusError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (typeof message === 'string') assert.ok(err.message.includes(message), `"${err.message}" includes "${message}"`);
    else assert.match(err.message, message);
    return err;
  }
  assert.fail('expected a rejection');
}

test('ClusterIPs: every free address once, never the kubernetes Service one, then the range is full', async () => {
  const { store, a } = await setup();
  assert.equal(a.apiServiceIP(), '10.0.0.1');
  const ips: string[] = [];
  for (let i = 0; i < 5; i++) {
    const s = await create(a, svc(`s${i}`, { ports: [{ port: 80 }] }));
    assert.deepEqual(specOf(s).clusterIPs, [specOf(s).clusterIP]);
    ips.push(specOf(s).clusterIP!);
  }
  // A /29 has 6 usable addresses; the first is the kubernetes Service's.
  assert.deepEqual(ips.sort(), ['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
  // alloc.go allocIPs wraps ipallocator ErrFull ("range is full").
  await rejects(a.allocate(svc('full', {}), undefined, false), 500, 'Internal error occurred: failed to allocate a serviceIP: range is full');
  const ra = await stored(store, SERVICE_IPS_KEY);
  assert.equal(ra.kind, 'RangeAllocation');
  assert.equal(ra.apiVersion, 'v1');
  assert.equal(ra.range, '10.0.0.0/29');
  assert.deepEqual([...Buffer.from(ra.data, 'base64')], [0b111111], 'offsets 0-5 (10.0.0.1-10.0.0.6) are marked');
});

test('NodePorts: every port once, then the range is full', async () => {
  const { store, a } = await setup({ cidr: '10.0.0.0/24' });
  const ports: number[] = [];
  for (let i = 0; i < 5; i++) ports.push(specOf(await create(a, svc(`s${i}`, nodePort()))).ports![0].nodePort!);
  assert.deepEqual(ports.sort(), [30000, 30001, 30002, 30003, 30004]);
  const ipsBefore = (await used(a, 'ips')).length;
  // alloc.go initNodePorts wraps portallocator ErrFull.
  await rejects(a.allocate(svc('full', nodePort()), undefined, false), 500, 'Internal error occurred: failed to allocate a nodePort: range is full');
  assert.equal((await used(a, 'ips')).length, ipsBefore, 'the ClusterIP taken for the failed Service went back');
  const ra = await stored(store, SERVICE_NODE_PORTS_KEY);
  assert.equal(ra.range, '30000-30004');
  assert.deepEqual([...Buffer.from(ra.data, 'base64')], [0b11111]);
});

test('requested values: taken and out-of-range requests get kube\'s 422s and take nothing', async () => {
  const { a } = await setup({ cidr: '10.0.0.0/29', ports: [30000, 30009] });
  const first = await create(a, svc('first', { type: 'NodePort', clusterIP: '10.0.0.4', ports: [{ port: 80, nodePort: 30007 }] }));
  assert.deepEqual(specOf(first).clusterIPs, ['10.0.0.4']);
  assert.equal(specOf(first).ports![0].nodePort, 30007);

  // ipallocator ErrAllocated / ErrNotInRange as alloc.go allocIPs words them.
  await rejects(a.allocate(svc('ip-taken', { clusterIP: '10.0.0.4' }), undefined, false), 422,
    'spec.clusterIPs: Invalid value: []string{"10.0.0.4"}: failed to allocate IP 10.0.0.4: provided IP is already allocated');
  for (const ip of ['10.0.0.0', '10.0.0.7', '10.0.1.2']) {
    await rejects(a.allocate(svc('ip-out', { clusterIPs: [ip] }), undefined, false), 422,
      `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.0.0.0/29`);
  }
  // portallocator ErrAllocated / ErrNotInRange.
  const before = await used(a, 'ips');
  const err = await rejects(a.allocate(svc('port-taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30007 }, { port: 81, nodePort: 40000 }] }), undefined, false), 422,
    'spec.ports[0].nodePort: Invalid value: 30007: provided port is already allocated');
  assert.ok(err.message.includes('spec.ports[1].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-30009'), err.message);
  assert.deepEqual(await used(a, 'ips'), before, 'the ClusterIP allocated before the port error was rolled back');
  assert.deepEqual(await used(a, 'ports'), [30007]);

  const freed = await a.allocate(svc('again', { clusterIP: '10.0.0.5', type: 'NodePort', ports: [{ port: 80, nodePort: 30008 }] }), undefined, false);
  assert.ok(freed);
  await freed.revert();
  assert.deepEqual(await used(a, 'ports'), [30007]);
  assert.ok(!(await used(a, 'ips')).includes('10.0.0.5'), 'revert gives a requested ClusterIP back');
});

test('the kubernetes Service\'s address is reserved for it', async () => {
  const { a } = await setup();
  await rejects(a.allocate(svc('squatter', { clusterIP: '10.0.0.1' }), undefined, false), 422, 'provided IP is already allocated');
  // Two API servers bootstrapping at once both get past allocation; storage then answers AlreadyExists.
  for (let i = 0; i < 2; i++) {
    const k = svc('kubernetes', { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'] });
    const txn = await a.allocate(k, undefined, false);
    await txn?.revert();
    assert.deepEqual(specOf(k).clusterIPs, ['10.0.0.1']);
  }
  await a.release(svc('kubernetes', { clusterIP: '10.0.0.1' }));
  assert.ok((await used(a, 'ips')).includes('10.0.0.1'), 'neither revert nor delete frees the reserved address');
});

test('a dry run fills in values but writes nothing', async () => {
  const { store, a } = await setup({ cidr: '10.0.0.0/24' });
  const ipsBefore = await stored(store, SERVICE_IPS_KEY);
  const portsBefore = await stored(store, SERVICE_NODE_PORTS_KEY);
  const obj = svc('dry', nodePort());
  assert.equal(await a.allocate(obj, undefined, true), undefined);
  assert.match(specOf(obj).clusterIP!, /^10\.0\.0\.\d+$/);
  assert.ok(specOf(obj).ports![0].nodePort! >= 30000);
  assert.equal((await stored(store, SERVICE_IPS_KEY)).modRevision, ipsBefore.modRevision);
  assert.equal((await stored(store, SERVICE_NODE_PORTS_KEY)).modRevision, portsBefore.modRevision);
  // A dry run still reports a taken request.
  await create(a, svc('real', { clusterIP: '10.0.0.9' }));
  await rejects(a.allocate(svc('dry2', { clusterIP: '10.0.0.9' }), undefined, true), 422, 'provided IP is already allocated');
});

test('before the start-up repair pass has created the bitmaps, allocation is refused', async () => {
  const a = await plane(new SqliteStore({ path: ':memory:' }));
  // allocator/storage/storage.go tryUpdate on a missing RangeAllocation.
  await rejects(a.allocate(svc('early', {}), undefined, false), 500, 'cannot allocate resources of type serviceipallocations at this time');
  await rejects(a.allocate(svc('early', {}), undefined, true), 500, 'cannot allocate resources of type serviceipallocations at this time');
});

test('updates release what they drop once stored; deletes release everything', async () => {
  const { a } = await setup({ cidr: '10.0.0.0/24', ports: [30000, 30099] });
  const v1 = await create(a, svc('web', { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] }));
  const ip = specOf(v1).clusterIP!;
  const [p80, p443] = specOf(v1).ports!.map((p) => p.nodePort!);
  assert.notEqual(p80, p443);

  // An update that omits nodePorts keeps them (patchAllocatedValues) and frees nothing.
  const v2 = svc('web', { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] });
  await (await a.allocate(v2, v1, false))?.commit(v2);
  assert.deepEqual(specOf(v2).ports!.map((p) => p.nodePort), [p80, p443]);
  assert.equal(specOf(v2).clusterIP, ip);

  // Type NodePort -> ClusterIP: the ports go back once the write is stored, not before.
  const v3 = svc('web', { type: 'ClusterIP', ports: [{ name: 'http', port: 80 }] });
  const txn = await a.allocate(v3, v2, false);
  assert.equal(specOf(v3).ports![0].nodePort, undefined);
  assert.deepEqual((await used(a, 'ports')).sort(), [p80, p443].sort(), 'still held while the write is in flight');
  await txn?.commit(v3);
  assert.deepEqual(await used(a, 'ports'), []);

  // ClusterIP -> ExternalName frees the address; a failed write (revert) would have kept it.
  const v4 = svc('web', { type: 'ExternalName' });
  const failed = await a.allocate(structuredClone(v4), v3, false);
  await failed?.revert();
  assert.ok((await used(a, 'ips')).includes(ip));
  await (await a.allocate(v4, v3, false))?.commit(v4);
  assert.ok(!(await used(a, 'ips')).includes(ip));

  // An update that removes the last finalizer of a Service being deleted completes the deletion.
  const doomed = await create(a, svc('doomed', nodePort()));
  const last = structuredClone(doomed);
  last.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  const t2 = await a.allocate(last, doomed, false);
  await t2?.commit(last);
  assert.ok(!(await used(a, 'ips')).includes(specOf(doomed).clusterIP!));
  assert.deepEqual(await used(a, 'ports'), []);

  const gone = await create(a, svc('gone', nodePort()));
  await a.release(gone);
  assert.deepEqual((await used(a, 'ips')).filter((x) => x !== '10.0.0.1'), []);
  assert.deepEqual(await used(a, 'ports'), []);
});

test('on create, one service port over TCP and UDP shares one NodePort; allocateLoadBalancerNodePorts=false takes none', async () => {
  const { a } = await setup({ cidr: '10.0.0.0/24', ports: [30000, 30099] });
  const dns = await create(a, svc('dns', { type: 'NodePort', ports: [{ name: 'tcp', port: 53, protocol: 'TCP' }, { name: 'udp', port: 53, protocol: 'UDP' }] }));
  const [tcp, udp] = specOf(dns).ports!.map((p) => p.nodePort);
  assert.ok(tcp);
  assert.equal(udp, tcp);
  assert.deepEqual(await used(a, 'ports'), [tcp]);
  const lb = await create(a, svc('lb', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }, { port: 81, nodePort: 30050 }] }));
  assert.deepEqual(specOf(lb).ports!.map((p) => p.nodePort), [undefined, 30050]);
});

test('two allocators on one store, allocating at once, never hand out a value twice', async () => {
  const store = new SqliteStore({ path: ':memory:' });
  const cfg = { cidr: '10.0.0.0/27', ports: [30000, 30039] as [number, number] };
  const a = await plane(store, cfg);
  const b = await plane(store, cfg);
  await new AllocationRepair({ allocator: a, listServices: async () => [], clock: new FakeClock(), logger: silentLogger }).runOnce();
  // A /27 has 30 usable addresses, one of them reserved.
  const made = await Promise.all(Array.from({ length: 29 }, (_, i) => create(i % 2 ? a : b, svc(`s${i}`, nodePort()))));
  const ips = made.map((s) => specOf(s).clusterIP);
  const ports = made.map((s) => specOf(s).ports![0].nodePort);
  assert.equal(new Set(ips).size, 29);
  assert.equal(new Set(ports).size, 29);
  assert.ok(!ips.includes('10.0.0.1'));
  await rejects(b.allocate(svc('one-more', {}), undefined, false), 500, 'range is full');
  assert.equal((await used(a, 'ips')).length, 30);
});
