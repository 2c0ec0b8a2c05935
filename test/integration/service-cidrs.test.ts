// Extra ServiceCIDRs end to end against an in-process control plane and the servicecidrs controller: a full default
// range widened by a new ServiceCIDR, a picked address in it, kube's refusal outside every ServiceCIDR, validation,
// and a deletion held in Terminating until the addresses are gone (MultiCIDRServiceAllocator, GA in 1.33).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES } from '../../src/api/strategies/index.js';
import { isStatusError } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import type { Client } from '../../src/client/interfaces.js';
import { R } from '../../src/client/resources.js';
import { ControlPlane } from '../../src/cluster/control-plane.js';
import { ControllerManager } from '../../src/controllers/manager.js';
import { IP_ADDRESSES } from '../../src/apiserver/allocators/ip-address-objects.js';
import { READY_MESSAGE, SERVICE_CIDR_FINALIZER, SERVICE_CIDRS, TERMINATING_MESSAGE } from '../../src/controllers/servicecidrs/controller.js';
import { inProcessClientBuilder } from '../../src/controllers/identity.js';
import { DEFAULT_READY_MESSAGE, DEFAULT_SERVICE_CIDR_CONTROLLER } from '../../src/apiserver/allocators/default-service-cidr.js';
import { RealClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';

const clock = new RealClock();
let cp: ControlPlane;
let cm: ControllerManager;
let client: Client;

before(async () => {
  cp = new ControlPlane({ clock, logger: silentLogger, strategies: STRATEGIES, serviceCidr: '10.0.0.0/29' });
  await cp.start();
  client = cp.client();
  // The controllers' own clients, so their writes carry kube-controller-manager's User-Agent as on kube.
  const clients = inProcessClientBuilder((user, userAgent) => cp.client(user, userAgent));
  cm = new ControllerManager({ client: clients.own, clients, clock, logger: silentLogger, controllers: ['service-cidr-controller'] });
  await cm.start();
});
after(async () => {
  cm?.stop();
  await cp?.stop();
});

async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Cond = { type: string; status: string; reason: string; message: string };
const readyOf = (o: KubeObject) => ((o.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
const getCidr = (name: string) => client.get(SERVICE_CIDRS, undefined, name).catch(() => undefined);
const service = (name: string, clusterIP?: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { ports: [{ port: 80 }], ...(clusterIP ? { clusterIP } : {}) },
}) as KubeObject;
const ipOf = (o: KubeObject) => (o.spec as { clusterIP: string }).clusterIP;

async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.ok(isStatusError(err), `refused, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

test('the controller finalizes and readies the default ServiceCIDR with its own message', async () => {
  const sc = await until(async () => {
    const o = await getCidr('kubernetes');
    return o && readyOf(o)?.message === READY_MESSAGE ? o : undefined;
  }, 'the controller\'s Ready');
  assert.deepEqual(sc.metadata.finalizers, [SERVICE_CIDR_FINALIZER]);
  assert.deepEqual({ ...readyOf(sc), lastTransitionTime: undefined }, { type: 'Ready', status: 'True', reason: '', message: READY_MESSAGE, lastTransitionTime: undefined });
});

test('validation: at most two CIDRs of different families, and CIDRs are immutable', async () => {
  const three = await refusal(client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'three' }, spec: { cidrs: ['10.1.0.0/24', '10.2.0.0/24', 'fd00::/64'] } } as KubeObject));
  assert.equal(three.code, 422);
  assert.ok(three.message.startsWith('ServiceCIDR.networking.k8s.io "three" is invalid: spec.cidrs: Invalid value: '), three.message);
  assert.ok(three.message.endsWith(': may only hold up to 2 values'), three.message);
  const same = await refusal(client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'same' }, spec: { cidrs: ['10.1.0.0/24', '10.2.0.0/24'] } } as KubeObject));
  assert.ok(same.message.endsWith('may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'), same.message);
  // Overlapping CIDRs are allowed (the default range already holds 10.0.0.0/29).
  await client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'overlap' }, spec: { cidrs: ['10.0.0.0/24'] } } as KubeObject);
  // The controller adds its finalizer and Ready right after the create: update the object as it then is, or the
  // update meets a Conflict instead of the validation asserted here.
  const cur = await until(async () => {
    const o = await getCidr('overlap');
    return o && readyOf(o)?.status === 'True' ? o : undefined;
  }, 'overlap Ready');
  const moved = await refusal(client.update(SERVICE_CIDRS, undefined, { ...cur, spec: { cidrs: ['10.0.1.0/24'] } }));
  assert.equal(moved.message, 'ServiceCIDR.networking.k8s.io "overlap" is invalid: spec.cidrs[0]: Invalid value: "10.0.1.0/24": field is immutable');
  await client.delete(SERVICE_CIDRS, undefined, 'overlap');
});

test('a full default range is widened by a new ServiceCIDR; picked and foreign addresses; deletion waits for its addresses', async () => {
  // 10.0.0.0/29: .1 is the kubernetes Service's; take the rest.
  const taken: string[] = [];
  for (let i = 0; ; i++) {
    const res = await client.create(R.services, 'default', service(`fill-${i}`)).catch((e: unknown) => e);
    if (isStatusError(res)) {
      assert.equal(res.code, 500);
      assert.equal(res.message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
      break;
    }
    taken.push(ipOf(res as KubeObject));
    assert.ok(i < 6, 'the /29 fills up');
  }

  await client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'extra' }, spec: { cidrs: ['10.200.0.0/28'] } } as KubeObject);
  await until(async () => {
    const o = await getCidr('extra');
    return o && readyOf(o)?.status === 'True' && o.metadata.finalizers?.includes(SERVICE_CIDR_FINALIZER) ? o : undefined;
  }, 'extra Ready with its finalizer');

  const wide = await client.create(R.services, 'default', service('wide'));
  assert.match(ipOf(wide), /^10\.200\.0\.([1-9]|1[0-4])$/);
  const picked = await client.create(R.services, 'default', service('picked', '10.200.0.5'));
  assert.equal(ipOf(picked), '10.200.0.5');
  const ip = await client.get(IP_ADDRESSES, undefined, '10.200.0.5');
  assert.deepEqual(ip.spec, { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'picked' } });

  // cidrallocator.go ErrMismatchedNetwork, wrapped by alloc.go allocIPs.
  const far = await refusal(client.create(R.services, 'default', service('far', '10.201.0.5')));
  assert.equal(far.code, 422);
  assert.ok(far.message.startsWith('Service "far" is invalid: spec.clusterIPs: Invalid value: '), far.message);
  assert.ok(far.message.endsWith(': failed to allocate IP 10.201.0.5: the provided network does not match the current range'), far.message);

  await client.delete(SERVICE_CIDRS, undefined, 'extra');
  const held = await until(async () => {
    const o = await getCidr('extra');
    return o && readyOf(o)?.reason === 'Terminating' ? o : undefined;
  }, 'extra Terminating');
  assert.ok(held.metadata.deletionTimestamp);
  assert.deepEqual([readyOf(held)!.status, readyOf(held)!.message], ['False', TERMINATING_MESSAGE]);
  // A terminating ServiceCIDR hands out nothing more.
  const late = await refusal(client.create(R.services, 'default', service('late', '10.200.0.9')));
  assert.ok(late.message.endsWith('the provided network does not match the current range'), late.message);

  await client.delete(R.services, 'default', 'wide');
  await client.delete(R.services, 'default', 'picked');
  // After the controller's 10 s grace period, the finalizer goes and so does the object.
  await until(async () => ((await getCidr('extra')) ? undefined : true), 'extra to be deleted', 30_000);
});

type Entry = { manager: string; operation: string; subresource?: string; fieldsV1?: Record<string, unknown> };
const entriesOf = (o: KubeObject) => ((o.metadata.managedFields ?? []) as Entry[]).map((e) => `${e.manager} ${e.operation} ${e.subresource ?? ''}`.trim());

test('managedFields: the status is applied (forced) by each controller, the finalizer patched by kube-controller-manager', async () => {
  // Created as `kubectl create` would (its field manager), so later writes are tracked.
  await client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'owned' }, spec: { cidrs: ['10.220.0.0/24'] } } as KubeObject, { fieldManager: 'kubectl-create' });
  const sc = await until(async () => {
    const o = await getCidr('owned');
    return o && readyOf(o)?.status === 'True' && o.metadata.finalizers?.length ? o : undefined;
  }, 'owned Ready with its finalizer');
  const entries = entriesOf(sc);
  assert.equal(entries[0], 'kubectl-create Update');
  // servicecidrs_controller.go: ApplyStatus(FieldManager: controllerName, Force: true); the finalizer Patch names no
  // manager, so the User-Agent's product does.
  assert.ok(entries.includes('service-cidr-controller Apply status'), entries.join('; '));
  assert.ok(entries.includes('kube-controller-manager Update'), entries.join('; '));
  const status = (sc.metadata.managedFields as Entry[]).find((e) => e.manager === 'service-cidr-controller')!;
  assert.deepEqual(Object.keys(status.fieldsV1 ?? {}), ['f:status']);
  const fin = (sc.metadata.managedFields as Entry[]).find((e) => e.manager === 'kube-controller-manager')!;
  assert.deepEqual(Object.keys(fin.fieldsV1 ?? {}), ['f:metadata']);
  // The default one was created by kube-apiserver and first marked Ready by its default ServiceCIDR controller.
  const def = await client.get(SERVICE_CIDRS, undefined, 'kubernetes');
  assert.ok(entriesOf(def).includes('kube-apiserver Update'), entriesOf(def).join('; '));
  await client.delete(SERVICE_CIDRS, undefined, 'owned');
  await until(async () => ((await getCidr('owned')) ? undefined : true), 'owned gone', 30_000);
});

test('the default ServiceCIDR, deleted while a nested one covers every address, goes and is recreated', async () => {
  // 10.0.0.0/29 holds the kubernetes Service's .1 and whatever the earlier tests left; a twin covering the whole
  // range lets the deletion complete (canDeleteCIDR: a ServiceCIDR containing the prefix is its parent).
  await client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'twin' }, spec: { cidrs: ['10.0.0.0/29'] } } as KubeObject);
  await until(async () => {
    const o = await getCidr('twin');
    return o && readyOf(o)?.status === 'True' ? o : undefined;
  }, 'twin Ready');
  const old = await client.get(SERVICE_CIDRS, undefined, 'kubernetes');
  await client.delete(SERVICE_CIDRS, undefined, 'kubernetes');
  // Terminating meanwhile: the twin keeps allocating the same addresses, the default's allocator does not.
  // After the servicecidrs controller's 10 s grace period it goes; the API server's 10 s sync creates it again.
  const fresh = await until(async () => {
    const o = await getCidr('kubernetes');
    return o && o.metadata.uid !== old.metadata.uid && readyOf(o)?.status === 'True' ? o : undefined;
  }, 'the default ServiceCIDR recreated', 45_000);
  assert.deepEqual(fresh.spec, { cidrs: ['10.0.0.0/29'] });
  assert.ok([DEFAULT_READY_MESSAGE, READY_MESSAGE].includes(readyOf(fresh)!.message), readyOf(fresh)!.message);
  assert.ok(entriesOf(fresh).includes(`${DEFAULT_SERVICE_CIDR_CONTROLLER} Apply status`) || readyOf(fresh)!.message === READY_MESSAGE);
  await client.delete(SERVICE_CIDRS, undefined, 'twin');
  await until(async () => ((await getCidr('twin')) ? undefined : true), 'twin gone', 30_000);
});

test('a Terminating default range blocked by an address only it holds; a nested ServiceCIDR allocates meanwhile', async () => {
  // The kubernetes Service's 10.0.0.1 is in no other ServiceCIDR: the default stays Terminating.
  await client.delete(SERVICE_CIDRS, undefined, 'kubernetes');
  const held = await until(async () => {
    const o = await getCidr('kubernetes');
    return o && readyOf(o)?.reason === 'Terminating' ? o : undefined;
  }, 'kubernetes Terminating');
  assert.deepEqual([readyOf(held)!.status, readyOf(held)!.message], ['False', TERMINATING_MESSAGE]);
  // Nothing allocates from a Terminating range.
  const none = await refusal(client.create(R.services, 'default', service('nowhere')));
  assert.equal(none.message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
  // A nested ServiceCIDR over the first half: its addresses are handed out again (never its .3 broadcast).
  await client.create(SERVICE_CIDRS, undefined, { metadata: { name: 'half' }, spec: { cidrs: ['10.0.0.0/30'] } } as KubeObject);
  await until(async () => {
    const o = await getCidr('half');
    return o && readyOf(o)?.status === 'True' ? o : undefined;
  }, 'half Ready');
  const inside = await client.create(R.services, 'default', service('inside')).catch((e: unknown) => e);
  if (isStatusError(inside)) {
    // .2 may be held by a Service of an earlier test: then the nested range is full too.
    assert.equal(inside.message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
  } else {
    assert.equal(ipOf(inside as KubeObject), '10.0.0.2');
    await client.delete(R.services, 'default', 'inside');
  }
  // Still Terminating: .1 is inside the nested /30 now, but earlier tests' Services hold addresses beyond it
  // (.3 is the /30's broadcast address: not inside it).
  const services = (await client.list(R.services, 'default')).items.map(ipOf);
  const beyond = services.filter((ip) => /^10\.0\.0\.[3-7]$/.test(ip));
  if (beyond.length) {
    assert.equal(readyOf((await getCidr('kubernetes'))!)?.reason, 'Terminating');
    for (const s of (await client.list(R.services, 'default')).items) {
      if (beyond.includes(ipOf(s))) await client.delete(R.services, 'default', s.metadata.name!);
    }
  }
  // Every remaining address is inside `half`: the deletion completes, and the API server recreates the default.
  await until(async () => {
    const o = await getCidr('kubernetes');
    return o && o.metadata.uid !== held.metadata.uid && !o.metadata.deletionTimestamp ? o : undefined;
  }, 'the default ServiceCIDR gone and recreated', 45_000);
  await client.delete(SERVICE_CIDRS, undefined, 'half');
});
