// APIService validation and printing with kube-aggregator's messages and cells.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { availableCell } from '../printers/apiregistration.js';
import { validateApiService, validateApiServiceStatusUpdate } from './apiregistration.js';

const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec });
const msgs = (o: KubeObject) => validateApiService(o).map((e) => e.toString());
const ok = { groupPriorityMinimum: 2000, versionPriority: 200 };

test('table: the valid and the refused', () => {
  const cases: [string, KubeObject, string[]][] = [
    ['a Local APIService', svc('v1.apps', { group: 'apps', version: 'v1', ...ok }), []],
    ['the core group', svc('v1.', { group: '', version: 'v1', ...ok }), []],
    ['a service reference', svc('v1alpha1.wardle.example.com', { group: 'wardle.example.com', version: 'v1alpha1', ...ok, service: { namespace: 'w', name: 'api', port: 443 }, insecureSkipTLSVerify: true }), []],
    ['empty group with another version', svc('v2.', { group: '', version: 'v2', ...ok }), ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube']],
    ['bad version', svc('V1.x.io', { group: 'x.io', version: 'V1', ...ok }), [
      'spec.version: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    ]],
    ['service without namespace, name or a valid port', svc('v1.x.io', { group: 'x.io', version: 'v1', ...ok, service: { port: 70000 } }), [
      'spec.service.namespace: Required value', 'spec.service.name: Required value',
      'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    ]],
    ['caBundle with insecureSkipTLSVerify', svc('v1.x.io', { group: 'x.io', version: 'v1', ...ok, service: { namespace: 'a', name: 'b', port: 443 }, caBundle: 'YWJj', insecureSkipTLSVerify: true }), [
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    ]],
    ['a name with a slash', svc('v1/x', { group: 'x.io', version: 'v1', ...ok }), ['metadata.name: Invalid value: "v1/x": may not contain \'/\'']],
  ];
  for (const [name, obj, want] of cases) assert.deepEqual(msgs(obj), want, name);
});

test('status conditions are True, False or Unknown', () => {
  const o = svc('v1.x.io', { group: 'x.io', version: 'v1', ...ok });
  const bad = { ...o, status: { conditions: [{ type: 'Available', status: 'Maybe' }] } };
  assert.deepEqual(validateApiServiceStatusUpdate(bad, o).map((e) => e.toString()), ['status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"']);
});

test('AVAILABLE cell: True, False (Reason), Unknown', () => {
  const withCond = (c?: object) => ({ metadata: { name: 'x' }, status: c ? { conditions: [c] } : undefined }) as unknown as KubeObject;
  assert.equal(availableCell(withCond({ type: 'Available', status: 'True', reason: 'Passed' })), 'True');
  assert.equal(availableCell(withCond({ type: 'Available', status: 'False', reason: 'MissingEndpoints' })), 'False (MissingEndpoints)');
  assert.equal(availableCell(withCond()), 'Unknown');
});
