// Table tests for the Service IP fields' validation messages: ValidateServiceClusterIPsRelatedFields and the
// upgrade/downgrade rules of ValidateServiceUpdate, printed as kube-apiserver prints them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Service } from 'kubernetes-types/core/v1.js';
import { kubeFieldErrorString as str } from './go-value.js';
import { validateServiceClusterIPsRelatedFields, validateServiceUpdate } from './service.js';

type Spec = NonNullable<Service['spec']>;
const svc = (spec: Spec): Service => ({
  metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '1' },
  spec: { type: 'ClusterIP', selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ...spec },
});

test('clusterIPs, ipFamilies and ipFamilyPolicy on their own', () => {
  const cases: Array<[string, Spec, string[]]> = [
    ['dual-stack pair', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' }, []],
    ['IPv6 primary', { clusterIP: 'fd00::5', clusterIPs: ['fd00::5', '10.0.0.5'], ipFamilies: ['IPv6', 'IPv4'] }, []],
    ['clusterIPs without clusterIP', { clusterIPs: ['10.0.0.5'] }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: must be empty when `clusterIP` is not specified']],
    ['clusterIP without clusterIPs', { clusterIP: '10.0.0.5' }, ['spec.clusterIPs: Required value']],
    ['first must match', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.6'] }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.6"}: first value must match `clusterIP`']],
    ['unknown family', { ipFamilies: ['IPv5'] }, ['spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"']],
    ['duplicate family', { ipFamilies: ['IPv4', 'IPv4'] }, ['spec.ipFamilies[1]: Duplicate value: "IPv4"']],
    ['unknown policy', { ipFamilyPolicy: 'Both' }, ['spec.ipFamilyPolicy: Unsupported value: "Both": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"']],
    ['None not alone', { clusterIP: 'None', clusterIPs: ['None', '10.0.0.5'] }, ['spec.clusterIPs: Invalid value: []string{"None", "10.0.0.5"}: \'None\' must be the first and only value']],
    ['bad address', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::zz'] }, ['spec.clusterIPs[1]: Invalid value: "fd00::zz": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ['three addresses', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5', '10.0.0.6'] }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.5", "fd00::5", "10.0.0.6"}: may only hold up to 2 values']],
    ['two of a family', { clusterIP: 'fd00::5', clusterIPs: ['fd00::5', 'fd00::6'] }, ['spec.clusterIPs: Invalid value: []string{"fd00::5", "fd00::6"}: may specify no more than one IP for each IP family']],
    ['families swapped', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv6', 'IPv4'] }, [
      'spec.clusterIPs[0]: Invalid value: "10.0.0.5": expected an IPv6 value as indicated by `ipFamilies[0]`',
      'spec.clusterIPs[1]: Invalid value: "fd00::5": expected an IPv4 value as indicated by `ipFamilies[1]`',
    ]],
    ['headless may name any family', { clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv6', 'IPv4'] }, []],
    ['ExternalName is checked elsewhere', { type: 'ExternalName', clusterIPs: ['x'] }, []],
  ];
  for (const [name, spec, want] of cases) assert.deepEqual(validateServiceClusterIPsRelatedFields(svc(spec)).map(str), want, name);
});

test('updates: the primary address and family stay; dropping the secondary needs SingleStack', () => {
  const dual: Spec = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' };
  const single: Spec = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' };
  const cases: Array<[string, Spec, Spec, string[]]> = [
    ['upgrade', single, { ...dual, ipFamilyPolicy: 'PreferDualStack' }, []],
    ['downgrade with SingleStack', dual, single, []],
    ['downgrade without SingleStack', dual, { ...single, ipFamilyPolicy: 'PreferDualStack' }, [
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' when releasing the secondary clusterIP",
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' when releasing the secondary ipFamily",
    ]],
    ['secondary changed', dual, { ...dual, clusterIPs: ['10.0.0.5', 'fd00::6'] }, ['spec.clusterIPs[1]: Invalid value: []string{"10.0.0.5", "fd00::6"}: may not change once set']],
    ['primary changed on upgrade', single, { ...dual, clusterIP: '10.0.0.6', clusterIPs: ['10.0.0.6', 'fd00::5'] }, ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.6", "fd00::5"}: may not change once set']],
    ['primary family changed', { ...single, ipFamilies: ['IPv4'] }, { ...single, clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv6'] }, [
      'spec.clusterIPs[0]: Invalid value: []string{"None"}: may not change once set',
    ]],
    ['families reordered', dual, { ...dual, clusterIP: 'fd00::5', clusterIPs: ['fd00::5', '10.0.0.5'], ipFamilies: ['IPv6', 'IPv4'] }, [
      'spec.clusterIPs[0]: Invalid value: []string{"fd00::5", "10.0.0.5"}: may not change once set',
      'spec.clusterIPs[1]: Invalid value: []string{"fd00::5", "10.0.0.5"}: may not change once set',
      // One per differing entry, both at index 0 as kube reports them (the message aggregate shows it once).
      'spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6", "IPv4"}: may not change once set',
      'spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6", "IPv4"}: may not change once set',
    ]],
    ['family dropped to the other one', dual, { ...single, ipFamilies: ['IPv6'], clusterIPs: ['10.0.0.5'] }, [
      'spec.ipFamilies[0]: Invalid value: []string{"10.0.0.5"}: may not change once set',
      'spec.clusterIPs[0]: Invalid value: "10.0.0.5": expected an IPv6 value as indicated by `ipFamilies[0]`',
    ]],
    ['headless to headless may change families', { clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'] }, { clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv6', 'IPv4'] }, []],
  ];
  for (const [name, before, after, want] of cases) assert.deepEqual(validateServiceUpdate(svc(after), svc(before)).map(str), want, name);
});
