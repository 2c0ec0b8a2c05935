import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bigToIp6, canonicalIp, formatCidr6, inCidr, ip6ToBig, nthHost6, nthSubnet6, parseCidr6 } from './cidr6.js';

test('IPv6 text round-trips in RFC 5952 form', () => {
  const cases: [string, string][] = [
    ['fd00:10:244::', 'fd00:10:244::'],
    ['FD00:0010:0244:0000:0000:0000:0000:0001', 'fd00:10:244::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::', '::'],
    ['1:0:2:3:4:5:6:7', '1:0:2:3:4:5:6:7'],
  ];
  for (const [input, want] of cases) assert.equal(bigToIp6(ip6ToBig(input)), want, input);
  for (const bad of ['1::2::3', 'fd00:10:244', 'g::1', '1:2:3:4:5:6:7:8:9']) assert.throws(() => ip6ToBig(bad), /invalid IPv6 address/, bad);
});

test('node subnets and hosts of an IPv6 cluster CIDR, as the node IPAM controller hands them out', () => {
  const cluster = parseCidr6('fd00:10:244::/56');
  assert.equal(formatCidr6(nthSubnet6(cluster, 64, 0)), 'fd00:10:244::/64');
  assert.equal(formatCidr6(nthSubnet6(cluster, 64, 3)), 'fd00:10:244:3::/64');
  assert.throws(() => nthSubnet6(cluster, 64, 256), /holds 256 \/64 subnets/);
  assert.equal(nthHost6(nthSubnet6(cluster, 64, 3), 2), 'fd00:10:244:3::2');
  assert.throws(() => parseCidr6('fd00:10:244::1/56'), /host bits set/);
  assert.equal(inCidr('fd00:10:244::/56', 'fd00:10:244:3::2'), true);
  assert.equal(inCidr('fd00:10:244::/56', 'fd00:10:245::2'), false);
  assert.equal(inCidr('10.244.0.0/16', 'fd00:10:244::2'), false, 'across families');
  assert.equal(inCidr('10.244.0.0/16', '10.244.3.2'), true);
  assert.equal(canonicalIp('FD00:10:244:0:0:0:0:2'), 'fd00:10:244::2');
});
