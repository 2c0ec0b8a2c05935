// Issue 10 acceptance: `kubectl explain` for every resource `kubectl api-resources` lists, and one field below each,
// with the oldest and newest kubectl against `winkube up`. Both read OpenAPI v3 (/openapi/v3/<group version>), so every
// served group version must be there, the reviews and metrics.k8s.io included (kube-aggregator merges those).

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

interface ApiResource { name: string; group: string; version: string; kind: string }

/** `kubectl api-resources -o wide` rows as resource, group/version and kind. */
function apiResources(k: Kubectl): ApiResource[] {
  const lines = k.ok(['api-resources', '--no-headers']).trimEnd().split('\n');
  return lines.map((l) => {
    const cols = l.trim().split(/\s+/);
    // NAME [SHORTNAMES] APIVERSION NAMESPACED KIND
    const kind = cols[cols.length - 1], gv = cols[cols.length - 3];
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    return { name: cols[0], group, version, kind };
  });
}

for (const { version, path } of kubectlEnds()) {
  test(`kubectl ${version}: explain works for every served resource and one field deep`, () => {
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const resources = apiResources(k);
      assert.ok(resources.length >= 40, `${resources.length} resources`);
      const failures: string[] = [];
      for (const r of resources) {
        // --api-version picks the group: `events.events.k8s.io` or `pods.metrics.k8s.io` would otherwise be read by
        // kubectl as the core resource plus a field path (explain's SplitAndParseResourceRequestWithMatchingPrefix).
        const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
        const top = k.run(['explain', r.name, `--api-version=${apiVersion}`]);
        if (top.code !== 0 || !top.stdout.includes(`KIND:       ${r.kind}`)) {
          failures.push(`${r.name} (${apiVersion}): ${top.stderr.trim() || top.stdout.slice(0, 200)}`);
          continue;
        }
        const field = /^FIELDS:\n\s+(\w+)/m.exec(top.stdout)?.[1];
        if (!field) {
          failures.push(`${r.name}: no FIELDS`);
          continue;
        }
        const deep = k.run(['explain', `${r.name}.${field}`, `--api-version=${apiVersion}`]);
        if (deep.code !== 0 || !deep.stdout.includes(`FIELD: ${field} <`)) failures.push(`${r.name}.${field}: ${deep.stderr.trim()}`);
      }
      assert.deepEqual(failures, []);
      // The kinds served beside the registry, by name.
      assert.match(k.ok(['explain', 'selfsubjectaccessreviews.spec.resourceAttributes']), /FIELD: resourceAttributes <ResourceAttributes>/);
      assert.match(k.ok(['explain', 'tokenreviews']), /KIND:\s+TokenReview/);
      assert.match(k.ok(['explain', 'pods.containers', '--api-version=metrics.k8s.io/v1beta1']), /KIND:\s+PodMetrics[\s\S]*FIELD: containers <\[\]ContainerMetrics>/);
    } finally {
      k.dispose();
    }
  });
}
