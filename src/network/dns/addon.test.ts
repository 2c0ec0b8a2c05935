import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCorefile } from '../../node/shell/servers/coredns.js';
import { corefile, dnsAddonObjects } from './addon.js';

test('addon: the objects kubeadm creates, in its order', () => {
  const objs = dnsAddonObjects({ dnsIP: '10.96.0.10' });
  assert.deepEqual(objs.map((o) => `${o.rt.kind}/${o.obj.metadata.name}`), [
    'ServiceAccount/coredns', 'ClusterRole/system:coredns', 'ClusterRoleBinding/system:coredns', 'ConfigMap/coredns', 'Service/kube-dns', 'Deployment/coredns',
    // winkube's own, after kubeadm's: the DNS server publishes its address on kube-dns.
    'Role/winkube:dns-address-publisher', 'RoleBinding/winkube:dns-address-publisher',
  ]);
  const svc = objs[4].obj as unknown as { spec: { clusterIP: string; selector: Record<string, string> } };
  assert.equal(svc.spec.clusterIP, '10.96.0.10');
  assert.deepEqual(svc.spec.selector, { 'k8s-app': 'kube-dns' });
});

test('addon: the coredns process reads the ports of kubeadm\'s Corefile', () => {
  assert.deepEqual(parseCorefile(corefile()), { dnsPort: 53, health: 8080, ready: 8181, metrics: 9153 });
  assert.deepEqual(parseCorefile('.:1053 {\n  health :9090\n  prometheus 127.0.0.1:9253\n}\n'), { dnsPort: 1053, health: 9090, ready: undefined, metrics: 9253 });
});
