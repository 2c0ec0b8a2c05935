import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../types.js';
import { SERVICE_TABLE, serviceExternalIP, servicePorts } from './service.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

function svc(spec: Service['spec'], status?: Service['status']): Service {
  return { metadata: { name: 's', creationTimestamp: '2026-01-01T00:00:00Z' }, spec, ...(status ? { status } : {}) };
}

describe('service External-IP', () => {
  const cases: [string, Service, string][] = [
    ['ClusterIP', svc({ type: 'ClusterIP' }), '<none>'],
    ['ClusterIP with externalIPs', svc({ type: 'ClusterIP', externalIPs: ['1.2.3.4', '5.6.7.8'] }), '1.2.3.4,5.6.7.8'],
    ['NodePort', svc({ type: 'NodePort' }), '<none>'],
    ['LoadBalancer pending', svc({ type: 'LoadBalancer' }), '<pending>'],
    [
      'LoadBalancer ingress sorted, hostname when no ip',
      svc({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '9.9.9.9' }, { hostname: 'lb.example.com' }, { ip: '9.9.9.9' }] } }),
      '9.9.9.9,lb.example.com',
    ],
    [
      'LoadBalancer long value is not clipped (server prints wide)',
      svc({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ hostname: 'a-very-long-load-balancer.example.com' }] } }),
      'a-very-long-load-balancer.example.com',
    ],
    [
      'LoadBalancer ingress plus externalIPs',
      svc({ type: 'LoadBalancer', externalIPs: ['1.1.1.1'] }, { loadBalancer: { ingress: [{ ip: '2.2.2.2' }] } }),
      '2.2.2.2,1.1.1.1',
    ],
    ['LoadBalancer externalIPs only', svc({ type: 'LoadBalancer', externalIPs: ['1.1.1.1'] }), '1.1.1.1'],
    ['ExternalName', svc({ type: 'ExternalName', externalName: 'db.example.com' }), 'db.example.com'],
    ['unknown type', svc({}), '<unknown>'],
  ];
  for (const [name, s, want] of cases) {
    it(name, () => assert.equal(serviceExternalIP(s), want));
  }
});

describe('service Port(s)', () => {
  const cases: [string, Parameters<typeof servicePorts>[0], string][] = [
    ['none', undefined, '<none>'],
    ['empty', [], '<none>'],
    ['cluster port', [{ port: 80, protocol: 'TCP' }], '80/TCP'],
    ['node port', [{ port: 80, nodePort: 30080, protocol: 'TCP' }], '80:30080/TCP'],
    ['several, protocol defaulted', [{ port: 53, protocol: 'UDP' }, { port: 53 }], '53/UDP,53/TCP'],
  ];
  for (const [name, ports, want] of cases) {
    it(name, () => assert.equal(servicePorts(ports), want));
  }
});

describe('service row', () => {
  it('prints all columns', () => {
    const s = svc({ type: 'NodePort', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }], selector: { app: 'x' } });
    const row = SERVICE_TABLE.row(s as unknown as KubeObject, NOW);
    assert.equal(row.length, SERVICE_TABLE.columns.length);
    assert.deepEqual(row, ['s', 'NodePort', '10.96.0.10', '<none>', '80:30080/TCP', '10m', 'app=x']);
  });

  it('falls back to clusterIP, prints None for headless and <none> without one', () => {
    assert.equal(SERVICE_TABLE.row(svc({ type: 'ClusterIP', clusterIP: '10.96.0.1' }) as unknown as KubeObject, NOW)[2], '10.96.0.1');
    assert.equal(SERVICE_TABLE.row(svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] }) as unknown as KubeObject, NOW)[2], 'None');
    const ext = SERVICE_TABLE.row(svc({ type: 'ExternalName', externalName: 'x.io' }) as unknown as KubeObject, NOW);
    assert.deepEqual([ext[2], ext[4], ext[6]], ['<none>', '<none>', '<none>']);
  });
});
