// The servicecidrs controller: finalizer and Ready on every ServiceCIDR, deletion held while IPAddresses only it
// contains remain, released after the grace period (pkg/controller/servicecidrs/servicecidrs_controller.go).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { IP_ADDRESSES } from '../../apiserver/allocators/ip-address-objects.js';
import { drain, newHarness } from '../testing/harness.js';
import {
  canDeleteServiceCIDR, DELETION_GRACE_MS, READY_MESSAGE, SERVICE_CIDR_FINALIZER, SERVICE_CIDRS, ServiceCIDRsController,
  TERMINATING_MESSAGE,
} from './controller.js';

const cidr = (name: string, cidrs: string[]): KubeObject => ({ metadata: { name }, spec: { cidrs } }) as KubeObject;
const terminating = (name: string, cidrs: string[]): KubeObject =>
  ({ metadata: { name, deletionTimestamp: '2025-01-01T00:00:00Z', finalizers: [SERVICE_CIDR_FINALIZER] }, spec: { cidrs } }) as KubeObject;
const ipObj = (ip: string, managed = true): KubeObject => ({
  metadata: {
    name: ip,
    labels: { 'ipaddress.kubernetes.io/ip-family': ip.includes(':') ? 'IPv6' : 'IPv4', ...(managed ? { 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } : {}) },
  },
  spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 's' } },
}) as KubeObject;

/** Lets the informers' watches deliver what the client just wrote. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('canDeleteServiceCIDR', () => {
  const cases: { name: string; all: KubeObject[]; ips: KubeObject[]; want: boolean }[] = [
    { name: 'no addresses inside', all: [cidr('x', ['10.200.0.0/24'])], ips: [ipObj('10.96.0.5')], want: true },
    { name: 'an allocator address only it contains', all: [cidr('x', ['10.200.0.0/24'])], ips: [ipObj('10.200.0.5')], want: false },
    { name: 'an address someone else wrote (not the allocator\'s)', all: [cidr('x', ['10.200.0.0/24'])], ips: [ipObj('10.200.0.5', false)], want: true },
    { name: 'another ServiceCIDR also contains the address', all: [cidr('x', ['10.200.0.0/24']), cidr('y', ['10.200.0.0/28'])], ips: [ipObj('10.200.0.5')], want: true },
    { name: 'a larger ServiceCIDR contains the whole CIDR', all: [cidr('x', ['10.200.0.0/24']), cidr('big', ['10.200.0.0/16'])], ips: [ipObj('10.200.0.200')], want: true },
    { name: 'the same CIDR under another name', all: [cidr('x', ['10.200.0.0/24']), cidr('twin', ['10.200.0.0/24'])], ips: [ipObj('10.200.0.5')], want: true },
    { name: 'a smaller overlapping one does not cover the address', all: [cidr('x', ['10.200.0.0/24']), cidr('small', ['10.200.0.0/28'])], ips: [ipObj('10.200.0.100')], want: false },
    { name: 'the network address is in no ServiceCIDR', all: [cidr('x', ['10.200.0.0/24'])], ips: [ipObj('10.200.0.0')], want: true },
    // A nested ServiceCIDR covers only its own addresses (ContainsAddress), whatever its own state.
    { name: 'terminating default, nested ready one covers the address', all: [terminating('kubernetes', ['10.96.0.0/28']), cidr('nested', ['10.96.0.0/29'])], ips: [ipObj('10.96.0.1'), ipObj('10.96.0.6')], want: true },
    { name: 'terminating default, an address outside the nested one', all: [terminating('kubernetes', ['10.96.0.0/28']), cidr('nested', ['10.96.0.0/29'])], ips: [ipObj('10.96.0.1'), ipObj('10.96.0.9')], want: false },
    { name: 'the nested one\'s broadcast address is not inside it', all: [terminating('kubernetes', ['10.96.0.0/28']), cidr('nested', ['10.96.0.0/29'])], ips: [ipObj('10.96.0.7')], want: false },
    { name: 'a terminating twin still counts as containing it', all: [terminating('kubernetes', ['10.96.0.0/28']), terminating('twin', ['10.96.0.0/28'])], ips: [ipObj('10.96.0.9')], want: true },
    { name: 'dual-stack: one family covered by a parent, the other holds an address', all: [cidr('x', ['10.200.0.0/24', 'fd00::/112']), cidr('v4', ['10.200.0.0/16'])], ips: [ipObj('fd00::5')], want: false },
    { name: 'dual-stack: both families covered by parents', all: [cidr('x', ['10.200.0.0/24', 'fd00::/112']), cidr('v4', ['10.200.0.0/16']), cidr('v6', ['fd00::/64'])], ips: [ipObj('fd00::5')], want: true },
  ];
  for (const c of cases) it(c.name, () => assert.equal(canDeleteServiceCIDR(c.all[0], c.all, c.ips), c.want));
});

describe('ServiceCIDRsController', () => {
  it('adds the finalizer and Ready, holds a deletion while addresses remain, then lets go after the grace period', async () => {
    const h = newHarness();
    h.client.seed(SERVICE_CIDRS, cidr('extra', ['10.200.0.0/24']));
    // The default ServiceCIDR as the API server wrote it: its message gives way to the controller's.
    h.client.seed(SERVICE_CIDRS, { ...cidr('kubernetes', ['10.96.0.0/12']), status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: '', message: 'Kubernetes default Service CIDR is ready' }] } } as KubeObject);
    h.client.seed(IP_ADDRESSES, ipObj('10.200.0.5'));
    const c = new ServiceCIDRsController({ ...h });
    await h.sync();
    await drain([c]);
    // kube's writes: a patch adding the finalizer, then the Ready condition applied to the status subresource.
    assert.deepEqual(h.client.actionSummary().filter((a) => a.endsWith(' extra')), ['patch servicecidrs extra', 'patch servicecidrs/status extra']);
    const get = (n: string) => h.client.all(SERVICE_CIDRS).find((o) => o.metadata.name === n)!;
    const ready = (n: string) => (get(n).status as { conditions: { type: string; status: string; reason: string; message: string }[] }).conditions.find((x) => x.type === 'Ready')!;
    for (const n of ['extra', 'kubernetes']) {
      assert.deepEqual(get(n).metadata.finalizers, [SERVICE_CIDR_FINALIZER]);
      assert.deepEqual({ ...ready(n) }, { type: 'Ready', status: 'True', reason: '', message: READY_MESSAGE, lastTransitionTime: (ready(n) as unknown as { lastTransitionTime: string }).lastTransitionTime });
    }

    await h.client.delete(SERVICE_CIDRS, undefined, 'extra');
    await settle();
    await drain([c]);
    assert.ok(get('extra').metadata.deletionTimestamp, 'Terminating: the finalizer holds it');
    assert.deepEqual([ready('extra').status, ready('extra').reason, ready('extra').message], ['False', 'Terminating', TERMINATING_MESSAGE]);

    await h.client.delete(IP_ADDRESSES, undefined, '10.200.0.5');
    await settle();
    await drain([c]);
    assert.ok(get('extra'), 'still there within the grace period');
    await h.clock.advance(DELETION_GRACE_MS);
    await settle();
    await drain([c]);
    assert.equal(get('extra'), undefined, 'finalizer removed, object gone');
  });

  it('a new ServiceCIDR covering the addresses unblocks a terminating one', async () => {
    const h = newHarness();
    h.client.seed(SERVICE_CIDRS, { ...cidr('old', ['10.200.0.0/24']), metadata: { name: 'old', finalizers: [SERVICE_CIDR_FINALIZER] } } as KubeObject);
    h.client.seed(IP_ADDRESSES, ipObj('10.200.0.5'));
    const c = new ServiceCIDRsController({ ...h });
    await h.sync();
    await h.client.delete(SERVICE_CIDRS, undefined, 'old');
    await settle();
    await drain([c]);
    assert.ok(h.client.all(SERVICE_CIDRS).some((o) => o.metadata.name === 'old'));
    await h.client.create(SERVICE_CIDRS, undefined, cidr('new', ['10.200.0.0/16']));
    await settle();
    await drain([c]);
    await h.clock.advance(DELETION_GRACE_MS);
    await settle();
    await drain([c]);
    assert.deepEqual(h.client.all(SERVICE_CIDRS).map((o) => o.metadata.name), ['new']);
  });
});
