// API Priority and Fairness with the real kubectl (1.27 and 1.33) against `winkube up`: `get --raw -v=8` shows the
// X-Kubernetes-PF-* headers naming the matched FlowSchema and level by UID (exempt for the admin, the user's own
// schema under --as), the Dangling condition, and a one-seat Reject level held by a create parked in a validating
// webhook answers 429 with Retry-After (staging/src/k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster, kubectlAsync, type KubectlResult } from './harness.js';
import { startWebhookServer, type TestWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';

const ENDS = kubectlEnds();
let cluster: RunningCluster;
let k: Kubectl;
let server: TestWebhookServer;
let release: () => void = () => {};

/** kubectl without blocking this process, whose event loop answers the webhook. */
function kubectl(bin: string, args: string[], input?: string): Promise<KubectlResult> {
  return kubectlAsync(bin, cluster.kubeconfig, args, input);
}

/** Both PF headers as kubectl -v=8 prints them (Go's canonical header names). */
function pfHeaders(verbose: string): { fs?: string; pl?: string } {
  return {
    fs: /X-Kubernetes-Pf-Flowschema-Uid: (\S+)/i.exec(verbose)?.[1],
    pl: /X-Kubernetes-Pf-Prioritylevel-Uid: (\S+)/i.exec(verbose)?.[1],
  };
}

const uid = (kind: string, name: string) => k.ok(['get', kind, name, '-o', 'jsonpath={.metadata.uid}']);

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(ENDS.at(-1)!.path, cluster.kubeconfig);
  const held = new Promise<void>((r) => (release = r));
  server = await startWebhookServer(async () => {
    await held;
    return { allowed: true };
  });
  // No nominal seats and no borrowing: the level runs one request at a time and turns the rest away.
  k.ok(['apply', '-f', '-'], `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: apf-one}
spec:
  type: Limited
  limited: {nominalConcurrencyShares: 0, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: {type: Reject}}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: apf-one}
spec:
  priorityLevelConfiguration: {name: apf-one}
  matchingPrecedence: 50
  distinguisherMethod: {type: ByUser}
  rules:
  - subjects: [{kind: User, user: {name: apf-user}}]
    resourceRules: [{verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true}]
    nonResourceRules: [{verbs: ['*'], nonResourceURLs: ['*']}]
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: apf-dangling}
spec:
  priorityLevelConfiguration: {name: no-such-level}
  rules:
  - subjects: [{kind: User, user: {name: nobody}}]
    nonResourceRules: [{verbs: ['*'], nonResourceURLs: ['*']}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: apf-user}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: apf-user}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: apf-hold}
webhooks:
- name: hold.winkube.example.com
  clientConfig: {url: '${server.url('/hold')}', caBundle: '${server.caBundle}'}
  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [configmaps]}]
  objectSelector: {matchLabels: {hold: 'yes'}}
  sideEffects: None
  timeoutSeconds: 30
  admissionReviewVersions: [v1]
`);
});

after(async () => {
  release();
  k?.dispose();
  await server?.close();
  await cluster?.stop();
});

test('kubectl -v=8 shows the matched FlowSchema and priority level by UID', async () => {
  const exempt = { fs: uid('flowschema', 'exempt'), pl: uid('prioritylevelconfiguration', 'exempt') };
  const mine = { fs: uid('flowschema', 'apf-one'), pl: uid('prioritylevelconfiguration', 'apf-one') };
  for (const { version, path } of ENDS) {
    const admin = await kubectl(path, ['get', '--raw', '/api/v1/namespaces/default/configmaps', '-v=8']);
    assert.equal(admin.code, 0, `${version}: ${admin.stderr}`);
    assert.deepEqual(pfHeaders(admin.stderr), exempt, version);
    const user = await kubectl(path, ['get', '--raw', '/version', '--as=apf-user', '-v=8']);
    assert.equal(user.code, 0, `${version}: ${user.stderr}`);
    assert.deepEqual(pfHeaders(user.stderr), mine, version);
  }
});

test('a FlowSchema naming a missing level is Dangling', async () => {
  const cond = await eventually(() => k.ok(['get', 'flowschema', 'apf-dangling', '-o', 'jsonpath={.status.conditions[0].type}/{.status.conditions[0].status}/{.status.conditions[0].reason}/{.status.conditions[0].message}']) || undefined);
  assert.equal(cond, 'Dangling/True/NotFound/This FlowSchema references the PriorityLevelConfiguration object named "no-such-level" but there is no such object');
  const found = await eventually(() => k.ok(['get', 'flowschema', 'apf-one', '-o', 'jsonpath={.status.conditions[0].reason}']) || undefined);
  assert.equal(found, 'Found');
});

test('the one seat taken, the next request of the flow gets 429 with Retry-After', async () => {
  // The seat: a create parked in the webhook until the end of the test.
  const parked = kubectl(ENDS.at(-1)!.path, ['create', '--as=apf-user', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: parked, namespace: default, labels: {hold: "yes"}}\n');
  await eventually(() => server.requests.length === 1 || undefined, 20_000, 'the create to reach the webhook');
  const mine = { fs: uid('flowschema', 'apf-one'), pl: uid('prioritylevelconfiguration', 'apf-one') };
  for (const { version, path } of ENDS) {
    const r = await kubectl(path, ['get', '--raw', '/api/v1/namespaces/default/configmaps', '--as=apf-user', '-v=8']);
    assert.notEqual(r.code, 0, version);
    // 1.27 prints "Response Status: 429 Too Many Requests", 1.33 status="429 Too Many Requests".
    assert.match(r.stderr, /429 Too Many Requests/, version);
    assert.match(r.stderr, /Too many requests, please try again later\./, version);
    assert.match(r.stderr, /Retry-After: 1\b/, version);
    assert.deepEqual(pfHeaders(r.stderr), mine, version);
    assert.match(r.stderr, /Error from server \(TooManyRequests\): the server has received too many requests and has asked us to try again later/, version);
    // The admin is exempt and not held up.
    assert.equal((await kubectl(path, ['get', 'configmaps', '-n', 'default'])).code, 0, version);
  }
  release();
  const done = await parked;
  assert.equal(done.code, 0, done.stderr);
  assert.equal((await kubectl(ENDS[0]!.path, ['get', 'configmap', 'parked', '--as=apf-user'])).code, 0);
});
