// `kubectl delete apiservice` of a built-in Local APIService, through the oldest and newest kubectl against
// `winkube up`: kube-aggregator drops the group/version from discovery and the autoregister controller does not
// re-create an `onstart` APIService before the next start, so kubectl no longer finds the resource type, while a raw
// request still reaches it (kube-aggregator autoregister_controller.go checkAPIService, apiserver.go RemoveAPIService).

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

test('kubectl delete apiservice v1.batch: batch leaves discovery until the APIService is back', () => {
  const [first, ...rest] = kubectlEnds();
  const k = new Kubectl(first.path, cluster.kubeconfig);
  try {
    assert.match(k.ok(['api-resources', '--api-group=batch', '-o', 'name']), /^cronjobs\.batch\njobs\.batch\n$/);
    assert.match(k.ok(['delete', 'apiservice', 'v1.batch']), /apiservice\.apiregistration\.k8s\.io "v1\.batch" deleted/);
    for (const { version, path } of [first, ...rest]) {
      const kv = new Kubectl(path, cluster.kubeconfig);
      try {
        const gone = kv.run(['get', 'jobs']);
        assert.notEqual(gone.code, 0, version);
        assert.match(gone.stderr, /the server doesn't have a resource type "jobs"/, version);
        assert.equal(kv.ok(['api-resources', '--api-group=batch', '-o', 'name']), '', version);
        // The API itself still answers.
        assert.match(kv.ok(['get', '--raw', '/apis/batch/v1/namespaces/default/jobs']), /"kind":"JobList"/, version);
      } finally {
        kv.dispose();
      }
    }
    assert.notEqual(k.run(['get', 'apiservice', 'v1.batch']).code, 0, 'not re-created before the next start');
    k.ok(['create', '-f', '-'], `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.batch, labels: {kube-aggregator.kubernetes.io/automanaged: onstart}}
spec: {group: batch, version: v1, groupPriorityMinimum: 17400, versionPriority: 15}
`);
    assert.match(k.ok(['get', 'jobs']), /^$|No resources found/);
  } finally {
    k.dispose();
  }
});
