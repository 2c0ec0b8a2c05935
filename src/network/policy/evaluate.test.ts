import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkPolicy, NetworkPolicySpec } from 'kubernetes-types/networking/v1.js';
import { networkPolicyEnforcement } from '../profile.js';
import { compilePolicy } from './compile.js';
import { evaluatePolicies, type PolicyConnection, type PolicyPeer, type PolicyPod, type PolicyVerdict } from './evaluate.js';
import { PolicyIndex } from './policy-index.js';

const np = (name: string, spec: NetworkPolicySpec, namespace = 'prod'): NetworkPolicy => ({ metadata: { name, namespace }, spec });
const NS: Record<string, Record<string, string>> = {
  prod: { 'kubernetes.io/metadata.name': 'prod', team: 'a' },
  dev: { 'kubernetes.io/metadata.name': 'dev', team: 'b' },
  ops: { 'kubernetes.io/metadata.name': 'ops', team: 'a' },
};
const web: PolicyPod = { namespace: 'prod', name: 'web', labels: { app: 'web', tier: 'front' }, ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 53, protocol: 'UDP' }] };
const api: PolicyPod = { namespace: 'prod', name: 'api', labels: { app: 'api' } };
const client = (namespace: string, labels: Record<string, string>, ip = '10.244.1.9'): PolicyPeer => ({ ip, pod: { namespace, name: 'client', labels } });
const TCP = (port: number): PolicyConnection => ({ protocol: 'TCP', port });

const DENY_ALL: NetworkPolicySpec = { podSelector: {}, policyTypes: ['Ingress'] };
const ALLOW_FRONTEND: NetworkPolicySpec = { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'frontend' } } }], ports: [{ port: 8080 }] }] };

/** [case, policies, direction, subject, peer, connection, expected verdict (allowed by `policy#rule`, 'denied', 'open')] */
type Case = [string, NetworkPolicy[], 'Ingress' | 'Egress', PolicyPod, PolicyPeer, PolicyConnection, string, { windows?: boolean }?];
const CASES: Case[] = [
  ['no policy: not isolated', [], 'Ingress', web, client('prod', {}), TCP(8080), 'open'],
  ['deny-all ingress isolates every pod of the namespace', [np('deny', DENY_ALL)], 'Ingress', web, client('prod', { role: 'frontend' }), TCP(8080), 'denied'],
  ['deny-all ingress leaves egress alone', [np('deny', DENY_ALL)], 'Egress', web, { ip: '8.8.8.8' }, TCP(53), 'open'],
  ['a policy in another namespace does not isolate', [np('deny', DENY_ALL, 'dev')], 'Ingress', web, client('prod', {}), TCP(8080), 'open'],
  ['a policy selecting other pods does not isolate', [np('api-only', { podSelector: { matchLabels: { app: 'api' } } })], 'Ingress', web, client('prod', {}), TCP(8080), 'open'],
  ['podSelector peer in the same namespace', [np('front', ALLOW_FRONTEND)], 'Ingress', web, client('prod', { role: 'frontend' }), TCP(8080), 'prod/front#1'],
  ['podSelector peer: labels must match', [np('front', ALLOW_FRONTEND)], 'Ingress', web, client('prod', { role: 'backend' }), TCP(8080), 'denied'],
  ['podSelector peer: only the policy namespace', [np('front', ALLOW_FRONTEND)], 'Ingress', web, client('dev', { role: 'frontend' }), TCP(8080), 'denied'],
  ['port must match', [np('front', ALLOW_FRONTEND)], 'Ingress', web, client('prod', { role: 'frontend' }), TCP(9090), 'denied'],
  ['protocol must match (TCP is the default)', [np('front', ALLOW_FRONTEND)], 'Ingress', web, client('prod', { role: 'frontend' }), { protocol: 'UDP', port: 8080 }, 'denied'],
  ['ICMP never matches a rule with ports', [np('front', ALLOW_FRONTEND)], 'Ingress', web, client('prod', { role: 'frontend' }), { protocol: 'ICMP' }, 'denied'],
  ['a rule without ports allows every protocol, ICMP too', [np('any', { podSelector: {}, ingress: [{ from: [{ podSelector: {} }] }] })], 'Ingress', web, client('prod', {}), { protocol: 'ICMP' }, 'prod/any#1'],
  ['an empty rule allows everything', [np('all', { podSelector: {}, ingress: [{}] })], 'Ingress', web, { ip: '203.0.113.5' }, TCP(1), 'prod/all#1'],
  ['namespaceSelector alone: any pod of matching namespaces', [np('team', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] })], 'Ingress', web, client('ops', { whatever: 'x' }), TCP(80), 'prod/team#1'],
  ['namespaceSelector alone: other namespaces denied', [np('team', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] })], 'Ingress', web, client('dev', {}), TCP(80), 'denied'],
  ['namespaceSelector AND podSelector in one peer', [np('and', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } }, podSelector: { matchLabels: { role: 'mon' } } }] }] })], 'Ingress', web, client('ops', { role: 'web' }), TCP(80), 'denied'],
  ['namespaceSelector AND podSelector: both hold', [np('and', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } }, podSelector: { matchLabels: { role: 'mon' } } }] }] })], 'Ingress', web, client('ops', { role: 'mon' }), TCP(80), 'prod/and#1'],
  ['the name label every namespace carries', [np('byname', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'dev' } } }] }] })], 'Ingress', web, client('dev', {}), TCP(80), 'prod/byname#1'],
  ['ipBlock: inside the CIDR', [np('cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }] }] })], 'Ingress', web, { ip: '172.17.0.5' }, TCP(80), 'prod/cidr#1'],
  ['ipBlock: in the except range', [np('cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }] }] })], 'Ingress', web, { ip: '172.17.1.5' }, TCP(80), 'denied'],
  ['ipBlock: outside the CIDR', [np('cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16' } }] }] })], 'Ingress', web, { ip: '10.0.0.1' }, TCP(80), 'denied'],
  ['ipBlock with except is skipped by Calico on Windows', [np('cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }] }] })], 'Ingress', web, { ip: '172.17.0.5' }, TCP(80), 'denied', { windows: true }],
  ['ipBlock without except works on Windows', [np('cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16' } }] }] })], 'Ingress', web, { ip: '172.17.0.5' }, TCP(80), 'prod/cidr#1', { windows: true }],
  ['endPort: a port range', [np('range', { podSelector: {}, ingress: [{ ports: [{ port: 30000, endPort: 32767 }] }] })], 'Ingress', web, client('dev', {}), TCP(31000), 'prod/range#1'],
  ['endPort: above the range', [np('range', { podSelector: {}, ingress: [{ ports: [{ port: 30000, endPort: 32767 }] }] })], 'Ingress', web, client('dev', {}), TCP(32768), 'denied'],
  ['named port resolves on the destination pod', [np('named', { podSelector: {}, ingress: [{ ports: [{ port: 'http' }] }] })], 'Ingress', web, client('dev', {}), TCP(8080), 'prod/named#1'],
  ['named port: another port of the pod', [np('named', { podSelector: {}, ingress: [{ ports: [{ port: 'http' }] }] })], 'Ingress', web, client('dev', {}), TCP(80), 'denied'],
  ['named port: protocol of the container port', [np('named', { podSelector: {}, ingress: [{ ports: [{ port: 'dns', protocol: 'UDP' }] }] })], 'Ingress', web, client('dev', {}), { protocol: 'UDP', port: 53 }, 'prod/named#1'],
  ['named port: a pod without it', [np('named', { podSelector: {}, ingress: [{ ports: [{ port: 'http' }] }] })], 'Ingress', api, client('dev', {}), TCP(8080), 'denied'],
  ['named port is skipped by Calico on Windows', [np('named', { podSelector: {}, ingress: [{ ports: [{ port: 'http' }] }] })], 'Ingress', web, client('dev', {}), TCP(8080), 'denied', { windows: true }],
  ['policies add up: any allowing policy wins over deny-all', [np('deny', DENY_ALL), np('front', ALLOW_FRONTEND)], 'Ingress', web, client('prod', { role: 'frontend' }), TCP(8080), 'prod/front#1'],
  ['rules are ORed: the second rule allows', [np('two', { podSelector: {}, ingress: [{ ports: [{ port: 1 }] }, { ports: [{ port: 2 }] }] })], 'Ingress', web, client('dev', {}), TCP(2), 'prod/two#2'],
  ['egress: policyTypes defaulted from egress rules', [np('out', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.96.0.0/12' } }] }] })], 'Egress', web, { ip: '8.8.8.8' }, TCP(443), 'denied'],
  ['egress: allowed destination', [np('out', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '8.8.8.0/24' } }] }] })], 'Egress', web, { ip: '8.8.8.8' }, TCP(443), 'prod/out#1'],
  ['egress: named port resolves on the destination pod', [np('out', { podSelector: {}, policyTypes: ['Egress'], egress: [{ ports: [{ port: 'http' }] }] })], 'Egress', api, { ip: '10.244.2.5', pod: web }, TCP(8080), 'prod/out#1'],
  ['egress-only policy does not isolate ingress', [np('out', { podSelector: {}, policyTypes: ['Egress'] })], 'Ingress', web, client('prod', {}), TCP(8080), 'open'],
  ['matchExpressions In', [np('expr', { podSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] } })], 'Ingress', web, client('prod', {}), TCP(80), 'denied'],
  ['matchExpressions NotIn selects pods without the value', [np('expr', { podSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['api'] }] } })], 'Ingress', web, client('prod', {}), TCP(80), 'denied'],
  ['matchExpressions NotIn leaves the excluded pod open', [np('expr', { podSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['api'] }] } })], 'Ingress', api, client('prod', {}), TCP(80), 'open'],
  ['matchExpressions DoesNotExist', [np('expr', { podSelector: { matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] } })], 'Ingress', api, client('prod', {}), TCP(80), 'denied'],
  ['matchExpressions Exists', [np('expr', { podSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } })], 'Ingress', api, client('prod', {}), TCP(80), 'open'],
];

function outcome(v: PolicyVerdict): string {
  if (!v.isolated) return 'open';
  return v.allowed ? `${v.policy}#${v.rule}` : 'denied';
}

test('NetworkPolicy verdicts (kubernetes.io network-policies semantics)', () => {
  for (const [name, policies, direction, subject, peer, conn, want, o] of CASES) {
    const index = new PolicyIndex();
    for (const p of policies) index.set(compilePolicy(p));
    const skips = o?.windows ? networkPolicyEnforcement('windows', { plugin: 'calico' }).skips : networkPolicyEnforcement('linux', { plugin: 'calico' }).skips;
    const v = evaluatePolicies({ index, namespaceLabels: (n) => NS[n], skips }, direction, subject, peer, conn);
    assert.equal(outcome(v), want, name);
    if (o?.windows && want === 'denied') assert.match(v.isolated && !v.allowed ? v.skipped ?? '' : '', /Calico for Windows skips rules with negative matches or named ports/, name);
  }
});

test('the index finds the policies of a pod without scanning the others', () => {
  const index = new PolicyIndex();
  for (let i = 0; i < 5000; i++) index.set(compilePolicy(np(`p${i}`, { podSelector: { matchLabels: { app: `app-${i}` } } })));
  index.set(compilePolicy(np('both', { podSelector: { matchLabels: { app: 'app-7', tier: 'front' } } })));
  index.set(compilePolicy(np('expr', { podSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] } })));
  assert.deepEqual(index.selecting('prod', { app: 'app-7', tier: 'front' }).map((p) => p.name), ['both', 'expr', 'p7']);
  assert.deepEqual(index.selecting('prod', { app: 'app-7' }).map((p) => p.name), ['p7']);
  assert.deepEqual(index.selecting('dev', { app: 'app-7' }), []);
  // Replacing a policy moves it between buckets; deleting empties them.
  index.set(compilePolicy(np('p7', { podSelector: {} })));
  assert.deepEqual(index.selecting('prod', { app: 'other' }).map((p) => p.name), ['p7']);
  for (let i = 0; i < 5000; i++) index.delete(`prod/p${i}`);
  index.delete('prod/both');
  index.delete('prod/expr');
  assert.equal(index.size, 0);
  assert.equal(index.hasAny('prod'), false);
});

test('which CNIs enforce NetworkPolicy', () => {
  const cases: [Parameters<typeof networkPolicyEnforcement>, string | undefined][] = [
    [['linux', { plugin: 'calico' }], 'Calico'],
    [['windows', { plugin: 'calico' }, '10.0.17763'], 'Calico'],
    [['windows', { plugin: 'ovn-k8s-cni-overlay' }], 'OVN ACLs'],
    [['windows', { plugin: 'azure-vnet' }, '10.0.20348'], 'Azure NPM'],
    [['windows', { plugin: 'azure-vnet' }, '10.0.17763'], undefined],
    [['linux', { plugin: 'flannel' }], undefined],
    [['windows', { plugin: 'flannel' }, '10.0.20348'], undefined],
    [['windows', { plugin: 'win-bridge' }], undefined],
    [['windows', { plugin: 'win-overlay' }], undefined],
    [['windows', { plugin: 'wincni' }], undefined],
    [['linux', { plugin: 'bridge' }], undefined],
  ];
  for (const [args, engine] of cases) assert.equal(networkPolicyEnforcement(...args).engine, engine, JSON.stringify(args));
});
