import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostLocalAllocator, IpamExhaustedError } from './host-local.js';
import { nthSubnet, parseCidr, formatCidr, nthHost } from './cidr.js';

test('allocates from .2, skips the gateway, is idempotent per owner', () => {
  const a = new HostLocalAllocator('10.244.2.0/24');
  assert.equal(a.gateway, '10.244.2.1');
  assert.equal(a.allocate('pod-a'), '10.244.2.2');
  assert.equal(a.allocate('pod-b'), '10.244.2.3');
  assert.equal(a.allocate('pod-a'), '10.244.2.2');
  assert.equal(a.allocatedCount, 2);
});

test('released addresses are reused only after the range wraps (round-robin like host-local)', () => {
  const a = new HostLocalAllocator('10.0.0.0/29'); // usable .2 .. .6
  const ips = ['a', 'b', 'c', 'd', 'e'].map((o) => a.allocate(o));
  assert.deepEqual(ips, ['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
  assert.throws(() => a.allocate('f'), IpamExhaustedError);
  a.release('b');
  assert.equal(a.allocate('f'), '10.0.0.3');
  a.release('a');
  a.release('d');
  assert.equal(a.allocate('g'), '10.0.0.5', 'continues after the last reserved address');
  assert.equal(a.allocate('h'), '10.0.0.2');
});

test('reserve records existing addresses and refuses conflicts', () => {
  const a = new HostLocalAllocator('10.244.0.0/24');
  assert.equal(a.reserve('x', '10.244.0.9'), true);
  assert.equal(a.reserve('y', '10.244.0.9'), false);
  assert.equal(a.reserve('y', '10.244.1.9'), false);
  assert.equal(a.reserve('y', '10.244.0.1'), false, 'the gateway is not for pods');
  assert.equal(a.allocate('x'), '10.244.0.9');
});

test('cidr helpers', () => {
  assert.equal(formatCidr(nthSubnet(parseCidr('10.244.0.0/16'), 24, 7)), '10.244.7.0/24');
  assert.equal(formatCidr(nthSubnet(parseCidr('10.0.0.0/8'), 24, 300)), '10.1.44.0/24');
  assert.throws(() => nthSubnet(parseCidr('10.244.0.0/16'), 24, 256), /out of range/);
  assert.equal(nthHost(parseCidr('172.18.0.0/16'), 2), '172.18.0.2');
  assert.throws(() => nthHost(parseCidr('172.18.0.0/30'), 3), /out of range/);
  assert.throws(() => parseCidr('10.0.0.1/24'), /host bits/);
  assert.throws(() => parseCidr('300.0.0.0/8'), /invalid IPv4/);
});
