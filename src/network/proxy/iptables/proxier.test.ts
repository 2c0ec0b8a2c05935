import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from 'kubernetes-types/core/v1.js';
import { servicePortsOf, type SliceLike } from '../service-ports.js';
import { IptablesProxier } from './proxier.js';

const node = { name: 'linux-1', nodeIP: '172.18.0.3' };

function svc(spec: Partial<NonNullable<Service['spec']>>): Service {
  return { metadata: { namespace: 'default', name: 'web' }, spec: { clusterIP: '10.96.0.20', ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080, protocol: 'TCP' }], type: 'NodePort', ...spec } };
}
const slice = (eps: { ip: string; node: string; ready?: boolean }[]): SliceLike => ({
  metadata: { namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  endpoints: eps.map((e) => ({ addresses: [e.ip], nodeName: e.node, conditions: { ready: e.ready ?? true } })),
});

test('iptables-save output declares every chain it jumps to (iptables-restore would refuse it otherwise)', () => {
  for (const etp of ['Cluster', 'Local'] as const) {
    const p = new IptablesProxier(node, () => 0);
    p.syncAll(servicePortsOf(svc({ externalTrafficPolicy: etp }), [slice([{ ip: '10.244.1.5', node: 'linux-1' }, { ip: '10.244.2.5', node: 'win-1' }])]));
    const text = p.save();
    const declared = new Set([...text.matchAll(/^:(\S+) /gm)].map((m) => m[1]));
    for (const [, target] of text.matchAll(/-j (KUBE-[A-Z0-9-]+)/g)) assert.ok(declared.has(target), `${etp}: ${target} is declared\n${text}`);
    assert.match(text, /^-A KUBE-NODEPORTS -p tcp -m comment --comment "default\/web:http" -m tcp --dport 30080 -j KUBE-EXT-/m);
  }
});

test('REJECT for a Service without endpoints, DROP for externalTrafficPolicy Local without local endpoints, masquerade for external traffic', () => {
  const p = new IptablesProxier(node, () => 0);
  p.syncAll(servicePortsOf(svc({}), [slice([])]));
  assert.equal(p.evaluate('10.96.0.20', 80, 'TCP', { external: false, toNodeIP: false })?.action, 'reject');
  p.syncAll(servicePortsOf(svc({ externalTrafficPolicy: 'Local' }), [slice([{ ip: '10.244.2.5', node: 'win-1' }])]));
  assert.equal(p.evaluate(node.nodeIP, 30080, 'TCP', { external: true, toNodeIP: true })?.action, 'drop');
  p.syncAll(servicePortsOf(svc({}), [slice([{ ip: '10.244.2.5', node: 'win-1' }])]));
  const v = p.evaluate(node.nodeIP, 30080, 'TCP', { external: true, toNodeIP: true });
  assert.equal(v?.action, 'dnat');
  assert.equal(v?.action === 'dnat' && v.masquerade, true);
  const fromPod = p.evaluate('10.96.0.20', 80, 'TCP', { external: false, toNodeIP: false });
  assert.equal(fromPod?.action === 'dnat' && fromPod.masquerade, false);
});
