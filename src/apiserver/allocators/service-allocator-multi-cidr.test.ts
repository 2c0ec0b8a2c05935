// The allocator with ServiceCIDR objects (MultiCIDRServiceAllocator, GA in 1.33): extra ServiceCIDRs widen the
// ranges, a requested address must be in a ready one, and addresses outside the configured range live in their
// IPAddress objects only (pkg/registry/core/service/ipallocator/cidrallocator.go, ipallocator.go).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../../util/clock.js';
import { silentLogger } from '../../util/log.js';
import type { IPFamily } from './ip-range.js';
import type { IPAddressRecorder } from './ip-address-objects.js';
import { AllocationRepair } from './repair.js';
import { ServiceAllocator } from './service-allocator.js';

/** IPAddress objects as a map ip -> holder; `claim` fails on another holder's, as the API's AlreadyExists does. */
class Objects implements IPAddressRecorder {
  readonly held = new Map<string, string>();
  async create(ip: string, _f: IPFamily, svc: KubeObject): Promise<void> {
    this.held.set(ip, svc.metadata.name!);
  }
  async claim(ip: string, _f: IPFamily, svc: KubeObject): Promise<boolean> {
    const h = this.held.get(ip);
    if (h !== undefined) return h === svc.metadata.name;
    this.held.set(ip, svc.metadata.name!);
    return true;
  }
  async delete(ip: string, svc?: KubeObject): Promise<void> {
    if (!svc || this.held.get(ip) === svc.metadata.name) this.held.delete(ip);
  }
}

const cidrObj = (name: string, cidrs: string[], extra: { deleting?: boolean; ready?: 'True' | 'False' } = {}): KubeObject => ({
  metadata: { name, ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { cidrs },
  ...(extra.ready ? { status: { conditions: [{ type: 'Ready', status: extra.ready }] } } : {}),
}) as KubeObject;

const svc = (name: string, spec: { clusterIP?: string } = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { ...spec } }) as KubeObject;

async function setup(cidr = '10.0.0.0/29') {
  const store = new SqliteStore({ path: ':memory:' });
  const objects = new Objects();
  const cidrs: KubeObject[] = [cidrObj('kubernetes', [cidr])];
  const a = new ServiceAllocator({
    store, serviceCidr: cidr, nodePortRange: [30000, 30004], ipAddresses: objects,
    serviceCIDRs: () => cidrs, ipAddressExists: (ip) => objects.held.has(ip),
  });
  await new AllocationRepair({ allocator: a, listServices: async () => [], clock: new FakeClock(), logger: silentLogger }).runOnce();
  return { a, cidrs, objects };
}

async function create(a: ServiceAllocator, obj: KubeObject): Promise<string> {
  const txn = await a.allocate(obj, undefined, false);
  await txn?.commit(obj);
  return (obj.spec as { clusterIP: string }).clusterIP;
}

async function refused(p: Promise<unknown>, code: number, text: string): Promise<void> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.ok(isStatusError(err), `expected a Status error, got ${String(err)}`);
  assert.equal(err.code, code, err.message);
  assert.ok(err.message.includes(text), err.message);
}

test('an extra ServiceCIDR takes over when the configured range is full, through IPAddress objects only', async () => {
  const { a, cidrs, objects } = await setup('10.0.0.0/29');
  // 10.0.0.0/29: .1 is the kubernetes Service's, five more addresses.
  const first = [];
  for (let i = 0; i < 5; i++) first.push(await create(a, svc(`s${i}`)));
  assert.ok(first.every((ip) => /^10\.0\.0\.[2-6]$/.test(ip)), first.join(','));
  await refused(a.allocate(svc('full'), undefined, false), 500, 'failed to allocate a serviceIP: range is full');

  cidrs.push(cidrObj('extra', ['10.100.0.0/30']));
  const wide = svc('wide');
  const ip = await create(a, wide);
  // A /30 hands out .1 and .2 (network and broadcast never).
  assert.ok(['10.100.0.1', '10.100.0.2'].includes(ip), ip);
  assert.equal(objects.held.get(ip), 'wide', 'the IPAddress object is the only record of it');
  const other = await create(a, svc('wide2'));
  assert.notEqual(other, ip);
  await refused(a.allocate(svc('full2'), undefined, false), 500, 'range is full');

  // Releasing gives the address back to the extra range.
  await a.release(wide);
  assert.equal(objects.held.has(ip), false);
  assert.equal(await create(a, svc('again')), ip);
});

test('requested addresses: inside a ready ServiceCIDR, else kube 1.33\'s mismatched-network refusal', async () => {
  const { a, cidrs, objects } = await setup('10.0.0.0/29');
  cidrs.push(cidrObj('extra', ['10.100.0.0/24']));
  assert.equal(await create(a, svc('picked', { clusterIP: '10.100.0.5' })), '10.100.0.5');
  assert.equal(objects.held.get('10.100.0.5'), 'picked');
  // ipallocator ErrAllocated, ErrMismatchedNetwork as alloc.go allocIPs wraps them.
  await refused(a.allocate(svc('twice', { clusterIP: '10.100.0.5' }), undefined, false), 422,
    'spec.clusterIPs: Invalid value: []string{"10.100.0.5"}: failed to allocate IP 10.100.0.5: provided IP is already allocated');
  for (const ip of ['10.200.0.5', '10.100.0.0', '10.100.0.255']) {
    await refused(a.allocate(svc('outside', { clusterIP: ip }), undefined, false), 422,
      `failed to allocate IP ${ip}: the provided network does not match the current range`);
  }
  // A dry run checks without taking.
  assert.equal(await a.allocate(svc('dry', { clusterIP: '10.100.0.6' }), undefined, true), undefined);
  assert.equal(objects.held.has('10.100.0.6'), false);
  await refused(a.allocate(svc('dry2', { clusterIP: '10.100.0.5' }), undefined, true), 422, 'provided IP is already allocated');
});

test('a terminating or not-ready ServiceCIDR hands out nothing', async () => {
  for (const extra of [{ deleting: true }, { ready: 'False' as const }]) {
    const { a, cidrs } = await setup('10.0.0.0/29');
    cidrs.push(cidrObj('extra', ['10.100.0.0/24'], extra));
    await refused(a.allocate(svc('x', { clusterIP: '10.100.0.7' }), undefined, false), 422, 'the provided network does not match the current range');
  }
  // The default ServiceCIDR being deleted stops the configured range too (its allocator is not ready).
  const { a, cidrs } = await setup('10.0.0.0/29');
  cidrs[0] = cidrObj('kubernetes', ['10.0.0.0/29'], { deleting: true });
  await refused(a.allocate(svc('y'), undefined, false), 500, 'range is full');
  cidrs.push(cidrObj('later', ['10.0.0.0/29']));
  assert.match(await create(a, svc('z')), /^10\.0\.0\./, 'another ready ServiceCIDR with the same CIDR revives it');
});

test('an address of the configured range stays the bitmap\'s even when an extra ServiceCIDR overlaps it', async () => {
  const { a, cidrs, objects } = await setup('10.0.0.0/29');
  cidrs.push(cidrObj('overlap', ['10.0.0.0/24']));
  assert.equal(await create(a, svc('in-bitmap', { clusterIP: '10.0.0.3' })), '10.0.0.3');
  await refused(a.allocate(svc('dup', { clusterIP: '10.0.0.3' }), undefined, false), 422, 'provided IP is already allocated');
  // The /29's broadcast address is inside the /24: the bitmap refuses it with its own range (the dual write).
  await refused(a.allocate(svc('bcast', { clusterIP: '10.0.0.7' }), undefined, false), 422,
    'the provided IP (10.0.0.7) is not in the valid range. The range of valid IPs is 10.0.0.0/29');
  // Beyond the /29, the /24's addresses are IPAddress-held.
  assert.equal(await create(a, svc('beyond', { clusterIP: '10.0.0.9' })), '10.0.0.9');
  assert.equal(a.heldByIPAddress('10.0.0.9'), true);
  assert.equal(a.heldByIPAddress('10.0.0.3'), false);
  assert.equal(objects.held.get('10.0.0.9'), 'beyond');
});

test('a failed write gives back the IPAddress it claimed', async () => {
  const { a, cidrs, objects } = await setup('10.0.0.0/29');
  cidrs.push(cidrObj('extra', ['10.100.0.0/24']));
  const txn = await a.allocate(svc('rolled', { clusterIP: '10.100.0.9' }), undefined, false);
  assert.equal(objects.held.get('10.100.0.9'), 'rolled');
  await txn!.revert();
  assert.equal(objects.held.has('10.100.0.9'), false);
});

test('a Terminating default range: a nested ready ServiceCIDR hands out its own addresses, in the bitmap and as objects', async () => {
  // cidrallocator.go: each CIDR is an allocator of its own, ready while one of its ServiceCIDRs is; the default's
  // allocator stops (deleting), the nested one keeps allocating the addresses both contain.
  const { a, cidrs, objects } = await setup('10.0.0.0/28');
  cidrs[0] = cidrObj('kubernetes', ['10.0.0.0/28'], { deleting: true });
  await refused(a.allocate(svc('none'), undefined, false), 500, 'failed to allocate a serviceIP: range is full');
  await refused(a.allocate(svc('picked', { clusterIP: '10.0.0.9' }), undefined, false), 422, 'the provided network does not match the current range');

  cidrs.push(cidrObj('nested', ['10.0.0.0/29']));
  const got: string[] = [];
  // 10.0.0.0/29 inside the /28: .1 is the kubernetes Service's; .2-.6 are the nested range's (never its .7 broadcast).
  for (let i = 0; i < 5; i++) got.push(await create(a, svc(`n${i}`)));
  assert.deepEqual([...got].sort(), ['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
  for (const ip of got) assert.ok(objects.held.has(ip), `${ip} has its IPAddress`);
  // Marked in the bitmap too: the configured range still counts them as used.
  const { bitmap } = await a.ips.stored.read();
  assert.equal(bitmap!.count, 6);
  await refused(a.allocate(svc('more'), undefined, false), 500, 'failed to allocate a serviceIP: range is full');
  await refused(a.allocate(svc('bcast', { clusterIP: '10.0.0.7' }), undefined, false), 422, 'the provided network does not match the current range');

  // Releasing one frees it in both places; the next Service gets it back.
  const victim = svc('n0', { clusterIP: got[0] });
  (victim.spec as { clusterIPs?: string[] }).clusterIPs = [got[0]];
  await a.release(victim);
  assert.ok(!objects.held.has(got[0]));
  assert.equal(await create(a, svc('again')), got[0]);
});
