// Table tests for the IP family initialisation (alloc.go initIPFamilyFields): defaults on IPv4-only, dual-stack and
// IPv6-primary clusters, kube's refusals word for word, and how updates add or drop the secondary family.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Service } from 'kubernetes-types/core/v1.js';
import { isStatusError } from '../errors.js';
import { initIPFamilyFields, type IPFamily } from './services-ip-families.js';

type Spec = NonNullable<Service['spec']>;
const V4: IPFamily[] = ['IPv4'];
const DUAL: IPFamily[] = ['IPv4', 'IPv6'];
const V6DUAL: IPFamily[] = ['IPv6', 'IPv4'];
const svc = (spec: Spec): Service => ({ metadata: { name: 'web' }, spec: { type: 'ClusterIP', selector: { app: 'web' }, ...spec } });

/** [policy, families] after initialisation, or the 422's message. */
function run(spec: Spec, cluster: IPFamily[], old?: Spec): [string | undefined, string[] | undefined] | string {
  const s = svc(spec);
  try {
    initIPFamilyFields(s, old ? svc(old) : undefined, cluster);
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    assert.equal(err.code, 422);
    return err.message;
  }
  return [s.spec!.ipFamilyPolicy, s.spec!.ipFamilies];
}

test('creates: defaults and refusals', () => {
  const cases: Array<[string, Spec, IPFamily[], ReturnType<typeof run>]> = [
    ['nothing asked, IPv4-only', {}, V4, ['SingleStack', ['IPv4']]],
    ['nothing asked, dual-stack', {}, DUAL, ['SingleStack', ['IPv4']]],
    ['nothing asked, IPv6 primary', {}, V6DUAL, ['SingleStack', ['IPv6']]],
    ['PreferDualStack, IPv4-only', { ipFamilyPolicy: 'PreferDualStack' }, V4, ['PreferDualStack', ['IPv4']]],
    ['PreferDualStack, dual-stack', { ipFamilyPolicy: 'PreferDualStack' }, DUAL, ['PreferDualStack', ['IPv4', 'IPv6']]],
    ['RequireDualStack, IPv6 primary', { ipFamilyPolicy: 'RequireDualStack' }, V6DUAL, ['RequireDualStack', ['IPv6', 'IPv4']]],
    ['RequireDualStack asking IPv6 first', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6'] }, DUAL, ['RequireDualStack', ['IPv6', 'IPv4']]],
    ['family from the requested address', { clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] }, DUAL, ['SingleStack', ['IPv6']]],
    ['families from both requested addresses', { ipFamilyPolicy: 'PreferDualStack', clusterIP: 'fd00::5', clusterIPs: ['fd00::5', '10.0.0.5'] }, DUAL, ['PreferDualStack', ['IPv6', 'IPv4']]],
    ['headless, selectorless: both families anywhere', { clusterIP: 'None', clusterIPs: ['None'], selector: undefined }, V4, ['RequireDualStack', ['IPv4', 'IPv6']]],
    ['headless, selectorless, SingleStack', { clusterIP: 'None', clusterIPs: ['None'], selector: undefined, ipFamilyPolicy: 'SingleStack' }, V4, ['SingleStack', ['IPv4']]],
    ['headless with a selector is a normal Service', { clusterIP: 'None', clusterIPs: ['None'] }, V4, ['SingleStack', ['IPv4']]],
    ['ExternalName has none', { type: 'ExternalName', externalName: 'example.com' }, DUAL, [undefined, undefined]],
    ['RequireDualStack, IPv4-only', { ipFamilyPolicy: 'RequireDualStack' }, V4,
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services'],
    ['headless with a selector, RequireDualStack, IPv4-only', { clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack' }, V4,
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services'],
    ['IPv6, IPv4-only', { ipFamilies: ['IPv6'] }, V4,
      'Service "web" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster'],
    ['an IPv6 address, IPv4-only', { clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] }, V4,
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster'],
    ['two addresses, no policy', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'] }, DUAL,
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be \'RequireDualStack\' or \'PreferDualStack\' when multiple cluster IPs are specified'],
    ['two families, SingleStack', { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] }, DUAL,
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be \'RequireDualStack\' or \'PreferDualStack\' when multiple IP families are specified'],
    ['validation first', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', '10.0.0.6'], ipFamilyPolicy: 'RequireDualStack' }, DUAL,
      'Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.5", "10.0.0.6"}: may specify no more than one IP for each IP family'],
  ];
  for (const [name, spec, cluster, want] of cases) assert.deepEqual(run(spec, cluster), want, name);
});

test('updates: the old policy carries over; releasing the secondary needs SingleStack', () => {
  const dual: Spec = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack' };
  const single: Spec = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' };
  const cases: Array<[string, Spec, Spec, IPFamily[], ReturnType<typeof run>]> = [
    ['unchanged PreferDualStack stays dual on a cluster now IPv4-only', dual, dual, V4, ['PreferDualStack', ['IPv4', 'IPv6']]],
    ['unchanged PreferDualStack stays single on a cluster now dual-stack', { ...single, ipFamilyPolicy: 'PreferDualStack' }, { ...single, ipFamilyPolicy: 'PreferDualStack' }, DUAL, ['PreferDualStack', ['IPv4']]],
    ['policy omitted adopts the old one', { ...single, ipFamilyPolicy: undefined }, single, DUAL, ['SingleStack', ['IPv4']]],
    ['upgrade', { ...single, ipFamilyPolicy: 'RequireDualStack' }, single, DUAL, ['RequireDualStack', ['IPv4', 'IPv6']]],
    ['SingleStack on unchanged fields drops the secondary', { ...dual, ipFamilyPolicy: 'SingleStack' }, dual, DUAL, ['SingleStack', ['IPv4']]],
    ['dropping the address without SingleStack', { ...dual, clusterIPs: ['10.0.0.5'] }, dual, DUAL,
      'Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "PreferDualStack": must be \'SingleStack\' to release the secondary cluster IP'],
    ['dropping both without SingleStack', { ...dual, ipFamilyPolicy: 'RequireDualStack', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'] }, dual, DUAL,
      'Service "web" is invalid: [spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be \'SingleStack\' to release the secondary cluster IP, spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be \'SingleStack\' to release the secondary IP family]'],
    ['a RequireDualStack Service on a cluster now IPv4-only', { ...dual, ipFamilyPolicy: 'RequireDualStack' }, { ...dual, ipFamilyPolicy: 'RequireDualStack' }, V4,
      'Service "web" is invalid: [spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services, spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster]'],
  ];
  for (const [name, spec, old, cluster, want] of cases) assert.deepEqual(run(spec, cluster, old), want, name);
});
