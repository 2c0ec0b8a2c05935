// local-path's helper pods through the real kubectl (1.27 and 1.33) against `winkube up`, as on kind: a claim's
// first consumer makes `helper-pod-create-<pv>` appear in local-path-storage (watched with `kubectl get pods -w`),
// run on the chosen node, succeed and go; the setup script's 0777 directory is what the consumer mounts; deleting
// the claim runs `helper-pod-delete-<pv>`; a setup script that fails ends in the provisioner's timeout text.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
const [OLDEST, NEWEST] = kubectlEnds();
let k: Kubectl;
let old: Kubectl;

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  old = new Kubectl(OLDEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  old?.dispose();
  await cluster?.stop();
});

const claimAndPod = (name: string) => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  tolerations: [{operator: Exists}]
  containers: [{name: c, image: busybox:1.36, command: [sh, -c, 'ls -ld /data; sleep 3600'], volumeMounts: [{name: d, mountPath: /data}]}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: ${name}}}]
`;

test('helper pods appear in local-path-storage, run on the volume\'s node, and go (kubectl 1.27 watches, 1.33 drives)', async () => {
  const watch = old.spawn(['get', 'pods', '-n', 'local-path-storage', '-w', '--output-watch-events', '-o', 'wide']);
  let seen = '';
  watch.stdout!.on('data', (d: Buffer) => { seen += d.toString(); });
  try {
    k.ok(['apply', '-f', '-'], claimAndPod('lp-a'));
    await eventually(() => k.ok(['get', 'pod', 'lp-a', '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, 'consumer Running');
    const pv = k.ok(['get', 'pvc', 'lp-a', '-o', 'jsonpath={.spec.volumeName}']);
    const node = k.ok(['get', 'pod', 'lp-a', '-o', 'jsonpath={.spec.nodeName}']);
    await eventually(() => new RegExp(`DELETED\\s+helper-pod-create-${pv}\\s+0/1\\s+Completed`).test(seen), 10_000, 'create helper deleted');
    assert.match(seen, new RegExp(`ADDED\\s+helper-pod-create-${pv}\\s+0/1\\s+Pending`));
    assert.match(seen, new RegExp(`helper-pod-create-${pv}\\s+.*\\s${node}\\s`), 'on the consumer\'s node');
    // The setup script's `mkdir -m 0777 -p "$VOL_DIR"` made what the consumer mounts.
    await eventually(() => /^drwxrwxrwx .* \/data$/m.test(k.ok(['logs', 'lp-a'])), 10_000, 'the 0777 directory');
    k.ok(['delete', 'pod', 'lp-a', '--now']);
    k.ok(['delete', 'pvc', 'lp-a']);
    await eventually(() => new RegExp(`DELETED\\s+helper-pod-delete-${pv}\\s+0/1\\s+Completed`).test(seen), 20_000, 'delete helper deleted');
    await eventually(() => k.run(['get', 'pv', pv]).code !== 0, 10_000, 'volume gone');
  } finally {
    watch.kill();
  }
});

test('a failing setup script: the helper pod errors and the claim gets the provisioner\'s timeout text', async () => {
  k.ok(['-n', 'local-path-storage', 'patch', 'configmap', 'local-path-config', '--type', 'merge', '-p', JSON.stringify({ data: {
    'config.json': JSON.stringify({ cmdTimeoutSeconds: 2, nodePathMap: [{ node: 'DEFAULT_PATH_FOR_NON_LISTED_NODES', paths: ['/var/local-path-provisioner'] }] }),
    setup: '#!/bin/sh\nset -eu\nmkdir /no-such-dir/x\n',
  } })]);
  k.ok(['apply', '-f', '-'], claimAndPod('lp-bad'));
  const uid = await eventually(() => k.ok(['get', 'pvc', 'lp-bad', '-o', 'jsonpath={.metadata.uid}']));
  const text = `failed to provision volume with StorageClass "standard": failed to create volume pvc-${uid}: create process timeout after 2 seconds`;
  await eventually(() => old.ok(['get', 'events', '--field-selector', 'involvedObject.name=lp-bad,reason=ProvisioningFailed', '-o', 'jsonpath={.items[*].message}']).includes(text), 20_000, 'ProvisioningFailed');
  assert.equal(k.ok(['get', 'pvc', 'lp-bad', '-o', 'jsonpath={.status.phase}']), 'Pending');
  assert.match(k.ok(['describe', 'pvc', 'lp-bad']), /Warning\s+ProvisioningFailed\s+.*create process timeout after 2 seconds/);
});
