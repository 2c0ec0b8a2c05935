import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Ingress, NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import { defaultNetworkPolicy } from '../strategies/networking.js';
import { validateIngress, validateIngressClass, validateIPAddress, validateNetworkPolicy, validateServiceCIDR } from './networking.js';

const np = (spec: Partial<NetworkPolicy['spec']>): NetworkPolicy => ({ metadata: { name: 'np', namespace: 'default' }, spec: { podSelector: {}, ...spec } });
const ing = (spec: Ingress['spec']): Ingress => ({ metadata: { name: 'i', namespace: 'default' }, spec });
const svc = (name: string, number?: number, portName?: string) => ({ service: { name, port: { ...(number ? { number } : {}), ...(portName ? { name: portName } : {}) } } });
const msgs = (errs: { toString(): string }[]) => errs.map(String);

test('NetworkPolicy validation (pkg/apis/networking/validation)', () => {
  const table: [string, NetworkPolicy, string[]][] = [
    ['deny all', np({ policyTypes: ['Ingress'] }), []],
    ['bad protocol', np({ ingress: [{ ports: [{ protocol: 'ICMP', port: 80 }] }] }), ['spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"']],
    ['endPort below port', np({ egress: [{ ports: [{ port: 90, endPort: 80 }] }] }), ['spec.egress[0].ports[0].endPort: Invalid value: 90: must be greater than or equal to `port`']],
    ['empty peer', np({ ingress: [{ from: [{}] }] }), ['spec.ingress[0].from[0]: Required value: must specify a peer']],
    ['ipBlock and selector', np({ ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] }), ['spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer']],
    ['except outside cidr', np({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24', '10.0.0.0/16'] } }] }] }), [
      'spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
      'spec.egress[0].to[0].ipBlock.except[1]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
    ]],
    ['bad cidr', np({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] }), ['spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
    ['bad policy type', np({ policyTypes: ['Both'] }), ['spec.policyTypes[0]: Unsupported value: "Both": supported values: "Ingress", "Egress"']],
  ];
  for (const [name, obj, want] of table) assert.deepEqual(msgs(validateNetworkPolicy(obj)), want, name);
});

test('NetworkPolicy defaults: TCP, and Egress only when egress rules exist', () => {
  const a = np({ ingress: [{ ports: [{ port: 80 }] }] });
  defaultNetworkPolicy(a);
  assert.deepEqual([a.spec!.policyTypes, a.spec!.ingress![0].ports![0].protocol], [['Ingress'], 'TCP']);
  const b = np({ egress: [{}] });
  defaultNetworkPolicy(b);
  assert.deepEqual(b.spec!.policyTypes, ['Ingress', 'Egress']);
});

test('Ingress validation', () => {
  const table: [string, Ingress, string[]][] = [
    ['kubectl create ingress shape', ing({ rules: [{ host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend: svc('svc1', 8080) }] } }] }), []],
    ['nothing', ing({}), ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified']],
    ['IP host', ing({ rules: [{ host: '1.2.3.4' }] }), ['spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address']],
    ['relative Prefix path', ing({ rules: [{ http: { paths: [{ path: 'x', pathType: 'Prefix', backend: svc('s', 80) }] } }] }), ['spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path']],
    ['no pathType', ing({ rules: [{ http: { paths: [{ path: '/', backend: svc('s', 80) } as never] } }] }), ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']],
    ['no port', ing({ defaultBackend: svc('s') }), ['spec.defaultBackend.service.port: Required value: port name or number is required']],
  ];
  for (const [name, obj, want] of table) assert.deepEqual(msgs(validateIngress(obj)), want, name);
});

test('IngressClass, ServiceCIDR and IPAddress validation', () => {
  assert.deepEqual(msgs(validateIngressClass({ metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx' } })), []);
  assert.deepEqual(msgs(validateIngressClass({ metadata: { name: 'x' }, spec: { controller: 'nginx' } })), ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']);
  assert.deepEqual(msgs(validateServiceCIDR({ metadata: { name: 'k' }, spec: { cidrs: ['10.96.0.0/12', 'fd00:10:96::/112'] } })), []);
  assert.deepEqual(msgs(validateServiceCIDR({ metadata: { name: 'k' }, spec: { cidrs: [] } })), ['spec.cidrs: Required value: at least one CIDR required']);
  assert.deepEqual(msgs(validateIPAddress({ metadata: { name: '10.96.0.1' }, spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' } } })), []);
  assert.deepEqual(msgs(validateIPAddress({ metadata: { name: 'x' }, spec: {} })).length, 2);
});
