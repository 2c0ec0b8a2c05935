// Issue 10 acceptance with real kubectl (oldest and newest): a ServiceCIDR widens a full Service range, a Service
// picks an address in it, an address outside every ServiceCIDR is refused with kube 1.33's message, and deleting the
// ServiceCIDR while addresses remain leaves it Terminating with the servicecidrs controller's condition
// (pkg/controller/servicecidrs/servicecidrs_controller.go, pkg/registry/core/service/ipallocator/cidrallocator.go).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, writeTemp, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
let defaultUid = '';

before(async () => {
  // A /28 so the default range can be filled: .1 is the kubernetes Service's, .10 kube-dns's.
  cluster = await startCluster({ args: ['--service-cidr', '10.96.0.0/28'] });
  // Started now, checked by the last test: deleting the default ServiceCIDR while a twin covers the whole range
  // (servicecidrs_controller.go canDeleteCIDR) completes after the 10 s grace period, and the API server's 10 s sync
  // then creates it again. Meanwhile the twin keeps the range allocating (each CIDR's own allocator, cidrallocator.go).
  const k = new Kubectl(kubectlEnds().at(-1)!.path, cluster.kubeconfig);
  try {
    k.ok(['apply', '-f', writeTemp('twin.yaml', 'apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata:\n  name: twin\nspec:\n  cidrs:\n  - 10.96.0.0/28\n')]);
    await eventually(() => k.ok(['get', 'servicecidr', 'twin', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']) === 'True', 20_000, 'twin Ready');
    defaultUid = k.ok(['get', 'servicecidr', 'kubernetes', '-o', 'jsonpath={.metadata.uid}']);
    k.ok(['delete', 'servicecidr', 'kubernetes', '--wait=false']);
  } finally {
    k.dispose();
  }
});

after(async () => {
  await cluster?.stop();
});

for (const [n, { version, path }] of kubectlEnds().entries()) {
  test(`kubectl ${version}: an extra ServiceCIDR, a picked address, Terminating while addresses remain`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    const name = `extra-${n}`;
    const net = `10.${210 + n}.0`;
    try {
      // Fill the default range.
      for (let i = 0; ; i++) {
        const r = k.run(['create', 'service', 'clusterip', `fill-${n}-${i}`, '--tcp=80:80']);
        if (r.code !== 0) {
          assert.match(r.stderr, /Internal error occurred: failed to allocate a serviceIP: range is full/);
          break;
        }
        assert.ok(i < 14, 'the /28 fills up');
      }

      k.ok(['apply', '-f', writeTemp(`${name}.yaml`, `apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata:\n  name: ${name}\nspec:\n  cidrs:\n  - ${net}.0/28\n`)]);
      await eventually(() => k.ok(['get', 'servicecidr', name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].message}']) === 'Kubernetes Service CIDR is ready', 20_000, 'Ready');
      assert.equal(k.ok(['get', 'servicecidr', name, '-o', 'jsonpath={.metadata.finalizers}']), '["networking.k8s.io/service-cidr-finalizer"]');
      assert.match(k.ok(['get', 'servicecidrs']), new RegExp(`^${name}\\s+${net.replace(/\./g, '\\.')}\\.0/28\\s+\\S+$`, 'm'));
      // managedFields as kube's controllers leave them: the finalizer patched without a field manager (the
      // User-Agent's product), the Ready condition applied with force to the status subresource.
      const owners = k.ok(['get', 'servicecidr', name, '-o', 'yaml', '--show-managed-fields']);
      assert.match(owners, /manager: kube-controller-manager\n\s+operation: Update\n\s+time: /);
      assert.match(owners, /manager: service-cidr-controller\n\s+operation: Apply\n\s+subresource: status\n\s+time: /);
      // Field sets follow the v1 schema: finalizers a set, status.conditions a list map keyed by type
      // (networking/v1/types.go +listType=map, meta/v1 ObjectMeta.finalizers +listType=set), not atomic `{}` leaves.
      assert.match(owners, /f:finalizers:\n(\s+\.: \{\}\n)?\s+v:"networking\.k8s\.io\/service-cidr-finalizer": \{\}/);
      assert.match(owners, /f:conditions:\n(\s+\.: \{\}\n)?\s+k:\{"type":"Ready"\}:\n\s+\.: \{\}\n\s+f:lastTransitionTime: \{\}/);
      assert.doesNotMatch(owners, /f:(finalizers|conditions): \{\}/);

      // The next Service gets an address of the new range; another picks one.
      k.ok(['create', 'service', 'clusterip', `wide-${n}`, '--tcp=80:80']);
      const wide = k.ok(['get', 'service', `wide-${n}`, '-o', 'jsonpath={.spec.clusterIP}']);
      assert.match(wide, new RegExp(`^${net.replace(/\./g, '\\.')}\\.([1-9]|1[0-4])$`));
      // The allocator picks at random, so the chosen address must differ from the one wide-N was given.
      const host = wide === `${net}.5` ? 6 : 5;
      k.ok(['create', 'service', 'clusterip', `picked-${n}`, '--tcp=80:80', `--clusterip=${net}.${host}`]);
      assert.equal(k.ok(['get', 'service', `picked-${n}`, '-o', 'jsonpath={.spec.clusterIP}']), `${net}.${host}`);
      assert.match(k.ok(['get', 'ipaddress', `${net}.${host}`]), new RegExp(`^${net.replace(/\./g, '\\.')}\\.${host}\\s+services/default/picked-${n}\\s+\\S+$`, 'm'));

      const far = k.run(['create', 'service', 'clusterip', `far-${n}`, '--tcp=80:80', '--clusterip=10.250.0.5']);
      assert.notEqual(far.code, 0);
      assert.match(far.stderr, new RegExp(`Service "far-${n}" is invalid: spec\\.clusterIPs: Invalid value: .*"10\\.250\\.0\\.5".*: failed to allocate IP 10\\.250\\.0\\.5: the provided network does not match the current range`));

      // Deleting with addresses left: Terminating, Ready=False with the controller's reason and message.
      k.ok(['delete', 'servicecidr', name, '--wait=false']);
      const yaml = await eventually(() => {
        const out = k.ok(['get', 'servicecidr', name, '-o', 'yaml']);
        return out.includes('reason: Terminating') ? out : undefined;
      }, 20_000, 'Terminating');
      assert.match(yaml, /deletionTimestamp: "/);
      assert.match(yaml, /- networking\.k8s\.io\/service-cidr-finalizer/);
      // kubectl folds the long message over two lines.
      const message = 'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR';
      assert.match(yaml, new RegExp(`message: ${message.split(' ').join('\\s+')}\\n\\s+reason: Terminating\\n\\s+status: "False"\\n\\s+type: Ready`));

      // Once the Services are gone (and the 10 s grace period has passed) so is the ServiceCIDR.
      k.ok(['delete', 'service', `wide-${n}`, `picked-${n}`]);
      await eventually(() => k.run(['get', 'servicecidr', name]).code !== 0 || undefined, 30_000, 'the ServiceCIDR to go');
    } finally {
      k.dispose();
    }
  });
}

test('the default ServiceCIDR was recreated by the API server after its deletion completed; ComponentStatus errors', async () => {
  const { path } = kubectlEnds().at(-1)!;
  const k = new Kubectl(path, cluster.kubeconfig);
  try {
    // defaultservicecidr: recreated from --service-cluster-ip-range with the same spec, Ready again.
    await eventually(() => {
      const r = k.run(['get', 'servicecidr', 'kubernetes', '-o', 'jsonpath={.metadata.uid} {.spec.cidrs} {.status.conditions[?(@.type=="Ready")].status}']);
      return r.code === 0 && !r.stdout.startsWith(`${defaultUid} `) && r.stdout.endsWith(' ["10.96.0.0/28"] True') ? true : undefined;
    }, 30_000, 'the default ServiceCIDR recreated');
    k.ok(['delete', 'servicecidr', 'twin', '--wait=false']);

    // A component that does not exist: a plain Go error, 500 with no reason in the Status (metav1.Status omitempty).
    const missing = k.run(['get', '--raw', '/api/v1/componentstatuses/kube-proxy', '-v=8']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /Error from server: Component not found: kube-proxy/);
    assert.match(missing.stderr, /\{\\?"kind\\?":\\?"Status\\?",\\?"apiVersion\\?":\\?"v1\\?",\\?"metadata\\?":\{\},\\?"status\\?":\\?"Failure\\?",\\?"message\\?":\\?"Component not found: kube-proxy\\?",\\?"code\\?":500\}/);
  } finally {
    k.dispose();
  }
});
