// The remote availability check's order and words (kube 1.33 remote_available_controller.go), and group ordering.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/types.js';
import type { ApiService } from '../../api/validation/apiregistration.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import { checkAvailability, type DiscoveryProbe } from './availability.js';
import { sortedByGroupAndVersion } from './priorities.js';

const api = (name: string, spec: ApiService['spec']): ApiService => ({ metadata: { name }, spec }) as ApiService;
const wardle = api('v1alpha1.wardle.example.com', { group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: 'ns', name: 'sample-api', port: 7443 } });

function lookup(objs: Record<string, unknown>): AdmissionLookup {
  return { get: (_g, resource, ns, name) => objs[`${resource}/${ns}/${name}`] as KubeObject | undefined, list: () => [] };
}
const svc = { metadata: { name: 'sample-api', namespace: 'ns' }, spec: { ports: [{ port: 7443, targetPort: 443 }] } };
const eps = (subsets: unknown[]) => ({ metadata: { name: 'sample-api', namespace: 'ns' }, subsets });
const okProbe: DiscoveryProbe = async () => ({ status: 200 });

test('each failing step gives its reason and message', async () => {
  const cases: [string, Record<string, unknown>, DiscoveryProbe, string, string][] = [
    ['no Service', {}, okProbe, 'ServiceNotFound', 'service/sample-api in "ns" is not present'],
    ['no such port', { 'services/ns/sample-api': { ...svc, spec: { ports: [{ port: 443 }] } } }, okProbe, 'ServicePortError', 'service/sample-api in "ns" is not listening on port 7443'],
    ['no Endpoints', { 'services/ns/sample-api': svc }, okProbe, 'EndpointsNotFound', 'cannot find endpoints for service/sample-api in "ns"'],
    ['no addresses', { 'services/ns/sample-api': svc, 'endpoints/ns/sample-api': eps([{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 443 }] }]) }, okProbe, 'MissingEndpoints', 'endpoints for service/sample-api in "ns" have no addresses with port name ""'],
    ['bad status', { 'services/ns/sample-api': svc, 'endpoints/ns/sample-api': eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 443 }] }]) }, async () => ({ status: 403 }), 'FailedDiscoveryCheck',
      'failing or missing response from https://sample-api.ns.svc:7443/apis/wardle.example.com/v1alpha1: bad status from https://sample-api.ns.svc:7443/apis/wardle.example.com/v1alpha1: 403'],
    ['transport error', { 'services/ns/sample-api': svc, 'endpoints/ns/sample-api': eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 443 }] }]) }, async () => { throw new Error('Get "x": EOF'); }, 'FailedDiscoveryCheck',
      'failing or missing response from https://sample-api.ns.svc:7443/apis/wardle.example.com/v1alpha1: Get "x": EOF'],
    ['all checks', { 'services/ns/sample-api': svc, 'endpoints/ns/sample-api': eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 443 }] }]) }, okProbe, 'Passed', 'all checks passed'],
  ];
  for (const [name, objs, probe, reason, message] of cases) {
    const c = await checkAvailability(wardle, lookup(objs), probe);
    assert.deepEqual([c.reason, c.message], [reason, message], name);
    assert.equal(c.status, reason === 'Passed' ? 'True' : 'False', name);
  }
});

test('one successful attempt of five is enough', async () => {
  let n = 0;
  const flaky: DiscoveryProbe = async () => { if (n++ < 4) throw new Error('EOF'); return { status: 200 }; };
  const objs = { 'services/ns/sample-api': svc, 'endpoints/ns/sample-api': eps([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 443 }] }]) };
  assert.equal((await checkAvailability(wardle, lookup(objs), flaky)).reason, 'Passed');
});

test('SortedByGroupAndVersion: group priority, then name; versions by priority, then kube-aware', () => {
  const sorted = sortedByGroupAndVersion([
    api('v1.b.io', { group: 'b.io', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 }),
    api('v1.a.io', { group: 'a.io', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 }),
    api('v1beta1.a.io', { group: 'a.io', version: 'v1beta1', groupPriorityMinimum: 1000, versionPriority: 100 }),
    api('v1.apps', { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 }),
    api('v1.autoscaling', { group: 'autoscaling', version: 'v1', groupPriorityMinimum: 17500, versionPriority: 15 }),
    api('v2.autoscaling', { group: 'autoscaling', version: 'v2', groupPriorityMinimum: 17500, versionPriority: 30 }),
  ]);
  assert.deepEqual(sorted.map((g) => g.map((s) => s.metadata.name)), [['v1.apps'], ['v2.autoscaling', 'v1.autoscaling'], ['v1.a.io', 'v1beta1.a.io'], ['v1.b.io']]);
});
