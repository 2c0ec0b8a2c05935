// Tests for the two-family IP arithmetic: parsing every IPv6 spelling, Go's net.IP.String output, CIDR parsing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { familyOf, formatIp, parseIp, parseIpCidr } from './ip-range.js';

test('IPv6 addresses parse in any spelling and print as Go prints them', () => {
  const cases: Array<[string, string]> = [
    ['fd00:10:96::a', 'fd00:10:96::a'],
    ['FD00:0010:0096:0000:0000:0000:0000:000A', 'fd00:10:96::a'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // the first of two equal zero runs
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // a single zero group is not compressed
    ['::ffff:10.0.0.1', '::ffff:a00:1'],
  ];
  for (const [text, want] of cases) {
    const ip = parseIp(text);
    assert.equal(ip?.family, 'IPv6', text);
    assert.equal(formatIp('IPv6', ip!.value), want, text);
  }
  for (const bad of ['1:2:3:4:5:6:7:8:9', '1::2::3', 'fe80::1%eth0', 'g::1', '10.0.0.256', '']) assert.equal(parseIp(bad), undefined, bad);
  assert.deepEqual(parseIp('10.96.0.10'), { family: 'IPv4', value: 0x0a60000an });
  assert.deepEqual([familyOf('10.0.0.1'), familyOf('fd00::1'), familyOf('x')], ['IPv4', 'IPv6', undefined]);
});

test('CIDRs of both families: the network address, size and Go spelling', () => {
  const v6 = parseIpCidr('fd00:10:96:0::5/112');
  assert.deepEqual([v6.family, v6.prefix, v6.bits, v6.size, v6.spec], ['IPv6', 112, 128, 65536n, 'fd00:10:96::/112']);
  const v4 = parseIpCidr('10.96.7.1/12');
  assert.deepEqual([v4.family, v4.size, v4.spec], ['IPv4', 1048576n, '10.96.0.0/12']);
  for (const bad of ['10.0.0.0', '10.0.0.0/33', 'fd00::/129', 'fd00::/x', 'nope/8']) assert.throws(() => parseIpCidr(bad), /invalid CIDR/, bad);
});
