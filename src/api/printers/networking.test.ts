import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../types.js';
import { FLOW_SCHEMA_TABLE, PRIORITY_LEVEL_TABLE } from './flowcontrol.js';
import { formatHosts, INGRESS_CLASS_TABLE, INGRESS_TABLE, IP_ADDRESS_TABLE, NETWORK_POLICY_TABLE, SERVICE_CIDR_TABLE } from './networking.js';
import { FLOW_SCHEMAS, PRIORITY_LEVELS } from '../../apiserver/bootstrap-flowcontrol.js';

const obj = (o: Record<string, unknown>) => ({ ...o, metadata: { name: 'x', ...(o.metadata as object), creationTimestamp: '2024-01-01T00:00:00Z' } }) as KubeObject;
const NOW = Date.parse('2024-01-01T00:05:00Z');

test('printers.go rows for networking.k8s.io', () => {
  const table: [string, ReturnType<typeof INGRESS_TABLE.row>, unknown[]][] = [
    ['ingress', INGRESS_TABLE.row(obj({ spec: { rules: [{ host: 'foo.com' }], tls: [{}] }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb' }] } } }), NOW), ['x', '<none>', 'foo.com', '10.0.0.2,lb', '80, 443', '5m']],
    ['ingress without host', INGRESS_TABLE.row(obj({ spec: { ingressClassName: 'nginx', defaultBackend: {} } }), NOW), ['x', 'nginx', '*', '', '80', '5m']],
    ['networkpolicy', NETWORK_POLICY_TABLE.row(obj({ spec: { podSelector: { matchLabels: { app: 'web' } } } }), NOW), ['x', 'app=web', '5m']],
    ['networkpolicy all pods', NETWORK_POLICY_TABLE.row(obj({ spec: { podSelector: {} } }), NOW), ['x', '<none>', '5m']],
    ['ingressclass', INGRESS_CLASS_TABLE.row(obj({ spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'p' } } }), NOW), ['x', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/p', '5m']],
    ['servicecidr', SERVICE_CIDR_TABLE.row(obj({ spec: { cidrs: ['10.96.0.0/12', 'fd00::/112'] } }), NOW), ['x', '10.96.0.0/12,fd00::/112', '5m']],
    ['ipaddress', IP_ADDRESS_TABLE.row(obj({ spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' } } }), NOW), ['x', 'services/default/kubernetes', '5m']],
  ];
  for (const [name, got, want] of table) assert.deepEqual(got, want, name);
  assert.equal(formatHosts([{ host: 'a' }, { host: 'b' }, { host: 'c' }, { host: 'd' }, { host: 'e' }]), 'a,b,c + 2 more...');
});

test('flowcontrol rows for the bootstrap objects', () => {
  const exempt = PRIORITY_LEVELS.find((p) => p.metadata?.name === 'exempt')!;
  const system = PRIORITY_LEVELS.find((p) => p.metadata?.name === 'system')!;
  assert.deepEqual(PRIORITY_LEVEL_TABLE.row(obj(exempt as never), NOW).slice(1, 6), ['Exempt', '<none>', '<none>', '<none>', '<none>']);
  assert.deepEqual(PRIORITY_LEVEL_TABLE.row(obj(system as never), NOW).slice(1, 6), ['Limited', 30, 64, 6, 50]);
  const catchAll = FLOW_SCHEMAS.find((f) => f.metadata?.name === 'catch-all')!;
  assert.deepEqual(FLOW_SCHEMA_TABLE.row(obj(catchAll as never), NOW).slice(1), ['catch-all', 10000, 'ByUser', '5m', '?']);
  assert.equal(FLOW_SCHEMAS.length, 13);
  assert.equal(PRIORITY_LEVELS.length, 8);
});
