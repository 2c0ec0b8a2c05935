// Issue 10 acceptance, the rest of core and networking.k8s.io with real kubectl (oldest and newest): `kubectl get cs`
// from the components' state with kube's warning and columns, IPAddress objects per ClusterIP and the Ready default
// ServiceCIDR (MultiCIDRServiceAllocator, GA in 1.33), and the legacy `bindings` resource.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;

before(async () => {
  cluster = await startCluster();
});

after(async () => {
  await cluster?.stop();
});

/** A table's rows as whitespace-split cells, header first. */
const rows = (out: string) => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

for (const { version, path } of kubectlEnds()) {
  test(`kubectl ${version}: componentstatuses, IPAddresses, ServiceCIDRs and bindings`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      // ComponentStatus: every component runs in `winkube up`, the store answers.
      const cs = k.run(['get', 'cs']);
      assert.equal(cs.code, 0, cs.stderr);
      assert.match(cs.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
      assert.deepEqual(rows(cs.stdout), [
        ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
        ['scheduler', 'Healthy', 'ok'], ['controller-manager', 'Healthy', 'ok'], ['etcd-0', 'Healthy', 'ok'],
      ]);
      const missing = k.run(['get', 'componentstatus', 'kube-proxy']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /Error from server: Component not found: kube-proxy/);
      const resources = k.ok(['api-resources', '--api-group=']);
      assert.match(resources, /^bindings\s+v1\s+true\s+Binding$/m);
      assert.match(resources, /^componentstatuses\s+cs\s+v1\s+false\s+ComponentStatus$/m);

      // IPAddress per ClusterIP, gone with its Service.
      const svc = `acc-${version.replace(/\./g, '-')}`;
      k.ok(['create', 'service', 'clusterip', svc, '--tcp', '80']);
      const ip = k.ok(['get', 'service', svc, '-o', 'jsonpath={.spec.clusterIP}']).trim();
      assert.deepEqual(rows(k.ok(['get', 'ipaddress', ip])).map((r) => r.slice(0, 2)), [['NAME', 'PARENTREF'], [ip, `services/default/${svc}`]]);
      assert.match(k.ok(['get', 'ipaddresses']), /^10\.96\.0\.1\s+services\/default\/kubernetes\s/m);
      assert.equal(k.ok(['get', 'ipaddress', ip, '-o', 'jsonpath={.metadata.labels}']).trim(),
        '{"ipaddress.kubernetes.io/ip-family":"IPv4","ipaddress.kubernetes.io/managed-by":"ipallocator.k8s.io"}');
      k.ok(['delete', 'service', svc]);
      const gone = k.run(['get', 'ipaddress', ip]);
      assert.match(gone.stderr, new RegExp(`Error from server \\(NotFound\\): ipaddresses.networking.k8s.io "${ip.replace(/\./g, '\\.')}" not found`));

      // The default ServiceCIDR.
      assert.deepEqual(rows(k.ok(['get', 'servicecidrs'])).map((r) => r.slice(0, 2)), [['NAME', 'CIDRS'], ['kubernetes', '10.96.0.0/12']]);
      assert.equal(k.ok(['get', 'servicecidr', 'kubernetes', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']), 'True');

      // bindings: a pod no scheduler takes, bound by a Binding that names it.
      const pod = `bind-${version.replace(/\./g, '-')}`;
      const node = k.ok(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}']).trim();
      k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: ${pod}}
spec: {schedulerName: nobody, containers: [{name: c, image: busybox:1.36, command: [sleep, '3600']}]}
`);
      // BindingREST answers a Status (Success, 201), which kubectl names as it can.
      assert.equal(k.ok(['create', '-f', '-'], `apiVersion: v1
kind: Binding
metadata: {name: ${pod}}
target: {apiVersion: v1, kind: Node, name: ${node}}
`), 'status/<unknown> created\n');
      assert.equal(k.ok(['get', 'pod', pod, '-o', 'jsonpath={.spec.nodeName}']), node);
      k.ok(['delete', 'pod', pod, '--wait=false']);
    } finally {
      k.dispose();
    }
  });
}
