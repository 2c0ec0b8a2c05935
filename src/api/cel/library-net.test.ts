// kube's IP and CIDR library beyond parsing: netip's classifications, canonical text, masking
// (staging/src/k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go; Go net/netip Addr.String, Is*).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, evaluate, type Declarations } from './compile.js';

const decls: Declarations = { variables: { self: 'dyn' } };

async function run(expr: string): Promise<{ value?: unknown; error?: string }> {
  const c = compile(expr, decls, []);
  if (!c.ok) return { error: c.detail };
  return evaluate(c.program, {});
}

describe('IP and CIDR functions', () => {
  const cases: [string, unknown][] = [
    ["ip('10.0.0.1').isGlobalUnicast()", true],
    ["ip('255.255.255.255').isGlobalUnicast()", false],
    ["ip('::1').isGlobalUnicast()", false],
    ["ip('2001:db8::1').isGlobalUnicast()", true],
    ["ip('169.254.1.1').isLinkLocalUnicast()", true],
    ["ip('fe80::1').isLinkLocalUnicast()", true],
    ["ip('10.0.0.1').isLinkLocalUnicast()", false],
    ["ip('224.0.0.251').isLinkLocalMulticast()", true],
    ["ip('ff02::fb').isLinkLocalMulticast()", true],
    ["ip('239.1.1.1').isLinkLocalMulticast()", false],
    ["ip.isCanonical('127.0.0.1')", true],
    ["ip.isCanonical('2001:db8::1')", true],
    ["ip.isCanonical('2001:DB8::1')", false],
    ["ip.isCanonical('2001:db8:0:0:0:0:0:1')", false],
    ["ip.isCanonical('1:0:0:1:0:0:0:1')", false],
    ["ip.isCanonical('1:0:0:1::1')", true],
    ["string(ip('2001:DB8:0:0:0:0:0:1'))", '2001:db8::1'],
    ["cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')", true],
    ["string(cidr('2001:db8:1::5/32').masked())", '2001:db8::/32'],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.0.0.0/16').containsCIDR('10.0.0.0/8')", false],
    ["ip('10.0.0.1') == ip('10.0.0.1')", true],
  ];
  for (const [expr, value] of cases) it(expr, async () => assert.deepEqual(await run(expr), { value }));

  it('ip.isCanonical refuses what is no IP', async () => {
    assert.deepEqual(await run("ip.isCanonical('not-an-ip')"), { error: 'IP Address "not-an-ip" parse error during conversion from string: ParseAddr("not-an-ip"): unable to parse IP' });
  });
});
