// Issue 10 acceptance: a Helm-style templated install (test/fixtures/helm-style-chart.yaml: CRD, Namespace,
// ServiceAccount, Role/RoleBinding, ConfigMap, Secret, Deployment, Service, HPA, PDB, then a CR of the CRD) through
// `kubectl apply --server-side --field-manager=helm` on the oldest and newest kubectl: a re-apply writes nothing,
// another manager's change conflicts with kube's text (apimachinery fieldmanager internal/conflict.go; the hints are
// kubectl's), `--force-conflicts` takes the field over, and `--dry-run=server` and `kubectl diff --server-side` work.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const CHART = join(ROOT, 'test', 'fixtures', 'helm-style-chart.yaml');
const KINDS = [
  'customresourcedefinition.apiextensions.k8s.io/sitesettings.web.example.com', 'namespace/helm-demo', 'serviceaccount/web-release',
  'role.rbac.authorization.k8s.io/web-release', 'rolebinding.rbac.authorization.k8s.io/web-release', 'configmap/web-release-config',
  'secret/web-release-secret', 'deployment.apps/web-release', 'service/web-release', 'horizontalpodautoscaler.autoscaling/web-release',
  'poddisruptionbudget.policy/web-release',
];
const CR = `apiVersion: web.example.com/v1
kind: SiteSetting
metadata: { name: web-release, namespace: helm-demo, labels: { app.kubernetes.io/managed-by: Helm } }
spec: { theme: dark, maintenance: false }
`;
const OPS_REPLICAS = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web-release, namespace: helm-demo }
spec:
  replicas: 3
`;
// kubectl's hints after the server's "Apply failed with …" (kubectl pkg/cmd/apply/apply.go).
const HINTS = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
`;

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

for (const { version, path } of kubectlEnds()) {
  test(`kubectl ${version}: a chart's manifest installs, re-applies as a no-op, and conflicts like kube`, async () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const out = k.ok(['apply', '--server-side', '--field-manager=helm', '-f', CHART]);
      assert.deepEqual(out.trimEnd().split('\n'), KINDS.map((x) => `${x} serverside-applied`));
      // The CRD is Established by now (kubectl applied it first); the CR of it goes in the same way.
      let cr = k.run(['apply', '--server-side', '--field-manager=helm', '-f', '-'], CR);
      for (let i = 0; cr.code !== 0 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        cr = k.run(['apply', '--server-side', '--field-manager=helm', '-f', '-'], CR);
      }
      assert.equal(cr.stdout, 'sitesetting.web.example.com/web-release serverside-applied\n', cr.stderr);
      assert.match(k.ok(['get', 'sset', '-n', 'helm-demo']), /^web-release\s/m);

      // Re-applying the same manifest: kubectl still says serverside-applied, and nothing is written (the
      // resourceVersions stay). The Secret is left out: its applied stringData never reads back (it becomes data), so
      // the merged object differs from the live one and winkube writes it again (not checked against a real cluster).
      const rvs = () => k.ok(['get', '-n', 'helm-demo', 'deploy/web-release', 'cm/web-release-config', 'svc/web-release', 'hpa/web-release', 'pdb/web-release', 'sa/web-release', 'role/web-release', 'rolebinding/web-release', 'sitesetting/web-release',
        '-o', 'jsonpath={range .items[*]}{.metadata.resourceVersion} {end}']);
      const before = rvs();
      assert.equal(k.ok(['apply', '--server-side', '--field-manager=helm', '-f', CHART]), out);
      k.ok(['apply', '--server-side', '--field-manager=helm', '-f', '-'], CR);
      assert.equal(rvs(), before);
      const managers = JSON.parse(k.ok(['get', 'deploy', '-n', 'helm-demo', 'web-release', '-o', 'json', '--show-managed-fields'])).metadata.managedFields as { manager: string; operation: string }[];
      assert.ok(managers.some((m) => m.manager === 'helm' && m.operation === 'Apply'), JSON.stringify(managers));

      // Another manager wants .spec.replicas: refused with the server's text and kubectl's hints.
      const conflict = k.run(['apply', '--server-side', '--field-manager=ops', '-f', '-'], OPS_REPLICAS);
      assert.equal(conflict.code, 1);
      assert.equal(conflict.stderr, `error: Apply failed with 1 conflict: conflict with "helm": .spec.replicas\n${HINTS}`);
      // A server-side dry run with force succeeds and changes nothing; diff shows what it would change.
      assert.equal(k.ok(['apply', '--server-side', '--field-manager=ops', '--force-conflicts', '--dry-run=server', '-f', '-'], OPS_REPLICAS), 'deployment.apps/web-release serverside-applied (server dry run)\n');
      assert.equal(k.ok(['get', 'deploy', '-n', 'helm-demo', 'web-release', '-o', 'jsonpath={.spec.replicas}']), '2');
      const diff = k.run(['diff', '--server-side', '--field-manager=ops', '--force-conflicts', '-f', '-'], OPS_REPLICAS);
      assert.equal(diff.code, 1, diff.stderr);
      assert.match(diff.stdout, /^-  replicas: 2$/m);
      assert.match(diff.stdout, /^\+  replicas: 3$/m);
      assert.equal(k.run(['diff', '--server-side', '--field-manager=helm', '-f', CHART]).code, 0, 'no diff for the chart itself');
      // Forced: ops owns .spec.replicas now, and helm re-applying its 2 conflicts the other way round.
      assert.equal(k.ok(['apply', '--server-side', '--field-manager=ops', '--force-conflicts', '-f', '-'], OPS_REPLICAS), 'deployment.apps/web-release serverside-applied\n');
      assert.equal(k.ok(['get', 'deploy', '-n', 'helm-demo', 'web-release', '-o', 'jsonpath={.spec.replicas}']), '3');
      const back = k.run(['apply', '--server-side', '--field-manager=helm', '-f', CHART]);
      assert.equal(back.code, 1);
      assert.match(back.stderr, /^error: Apply failed with 1 conflict: conflict with "ops": \.spec\.replicas\n/);
      // An Update manager (kubectl scale through the scale subresource) is named with its subresource and version.
      k.ok(['scale', 'deploy', '-n', 'helm-demo', 'web-release', '--replicas=4']);
      const scaled = k.run(['apply', '--server-side', '--field-manager=ops', '-f', '-'], OPS_REPLICAS);
      assert.match(scaled.stderr, /^error: Apply failed with 1 conflict: conflict with "kubectl[^"]*" with subresource "scale" using apps\/v1: \.spec\.replicas\n/);
    } finally {
      // Gone before the next kubectl installs it again (namespace and CRD finalisation included): kubectl stops waiting
      // once a kind is gone (the CR's, after its CRD), so wait for the namespace and the CRD themselves.
      k.run(['delete', '-f', CHART, '--timeout=90s'], undefined, 120_000);
      await eventually(() => k.run(['get', 'namespace/helm-demo', KINDS[0]!]).stderr.match(/NotFound.*\n.*NotFound/s), 90_000, 'helm-demo and its CRD gone');
      k.dispose();
    }
  });
}
