// Tests for the service CIDR list: kube-apiserver's start-up refusals, word for word, and the indexed addresses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseServiceCidrs, serviceCidrHost } from './service-cidrs.js';

test('one or two CIDRs of different families, primary first', () => {
  assert.deepEqual(parseServiceCidrs('10.96.0.0/12').map((c) => [c.family, c.spec]), [['IPv4', '10.96.0.0/12']]);
  assert.deepEqual(parseServiceCidrs('fd00:10:96::/108,10.96.0.0/16').map((c) => [c.family, c.spec]), [['IPv6', 'fd00:10:96::/108'], ['IPv4', '10.96.0.0/16']]);
  assert.deepEqual(parseServiceCidrs(['10.96.0.0/12', 'fd00::/112']).map((c) => c.family), ['IPv4', 'IPv6']);
  const [v4, v6] = parseServiceCidrs('10.96.0.0/12,fd00:10:96::/112');
  assert.deepEqual([serviceCidrHost(v4, 1), serviceCidrHost(v4, 10), serviceCidrHost(v6, 10)], ['10.96.0.1', '10.96.0.10', 'fd00:10:96::a']);
});

test('refusals carry kube-apiserver\'s messages', () => {
  const cases: Array<[string, string]> = [
    ['', '--service-cluster-ip-range must contain at least one valid cidr'],
    ['10.96.0.0', 'service-cluster-ip-range[0] is not a valid cidr'],
    ['10.96.0.0/12,fd00::', 'service-cluster-ip-range[1] is not a valid cidr'],
    ['10.96.0.0/30', 'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses'],
    ['10.96.0.0/11', 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12'],
    ['fd00::/64', 'specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108'],
    ['10.96.0.0/12,fd00::/107', 'specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108'],
    ['10.96.0.0/12,10.112.0.0/12', '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family'],
    ['10.96.0.0/12,fd00::/112,10.0.0.0/24', '--service-cluster-ip-range must not contain more than two entries'],
    ['10.0.0.0/8,10.112.0.0/12', '[specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12, --service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family]'],
  ];
  for (const [input, message] of cases) assert.throws(() => parseServiceCidrs(input), { message }, input);
});
