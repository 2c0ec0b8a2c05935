// API Priority and Fairness through the API server core: a user's FlowSchema on a one-seat Reject level and on a
// one-queue Queue level, saturated by a request held in a validating webhook, answered with kube's 429
// (priority-and-fairness.go tooManyRequests), the X-Kubernetes-PF-* headers, the Dangling condition and the metrics.

import test from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/api/types.js';
import type { ResourceType } from '../../src/client/interfaces.js';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { startControlPlane } from './helpers.js';

const FC = 'flowcontrol.apiserver.k8s.io';
const fsRT: ResourceType = { group: FC, version: 'v1', resource: 'flowschemas', kind: 'FlowSchema', namespaced: false };
const plRT: ResourceType = { group: FC, version: 'v1', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false };
const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const crb: ResourceType = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false };

async function eventually<T>(fn: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** No nominal seats and no borrowing: the level runs one request at a time (queueset canAccommodateSeatsLocked). */
const level = (name: string, limitResponse: object): KubeObject => ({
  metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse } },
});
const schema = (name: string, user: string, pl: string): KubeObject => ({
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: pl }, matchingPrecedence: 50, distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: [{ kind: 'User', user: { name: user } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }],
  },
});

test('APF: a saturated Reject level and a full queue answer 429 with kube\'s text and headers', async () => {
  const t = await startControlPlane();
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const server = await startWebhookServer(async () => {
    await held;
    return { allowed: true };
  });
  try {
    for (const u of ['apf-reject', 'apf-queue']) {
      await t.client.create(crb, undefined, { metadata: { name: u }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u }] });
    }
    // A schema naming a level that does not exist yet is Dangling, and matches nothing.
    const fsR = await t.client.create(fsRT, undefined, schema('apf-reject', 'apf-reject', 'apf-reject'));
    const dangling = await eventually(async () => (await t.client.get<any>(fsRT, undefined, 'apf-reject')).status?.conditions?.[0], 'Dangling condition');
    assert.deepEqual({ ...dangling, lastTransitionTime: undefined }, { type: 'Dangling', status: 'True', reason: 'NotFound', lastTransitionTime: undefined, message: 'This FlowSchema references the PriorityLevelConfiguration object named "apf-reject" but there is no such object' });
    const plR = await t.client.create(plRT, undefined, level('apf-reject', { type: 'Reject' }));
    await eventually(async () => (await t.client.get<any>(fsRT, undefined, 'apf-reject')).status?.conditions?.[0]?.reason === 'Found', 'Found');
    const fsQ = await t.client.create(fsRT, undefined, schema('apf-queue', 'apf-queue', 'apf-queue'));
    const plQ = await t.client.create(plRT, undefined, level('apf-queue', { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } }));
    await t.client.create(vwc, undefined, {
      metadata: { name: 'hold' },
      webhooks: [{ name: 'hold.example.com', clientConfig: { url: server.url('/hold'), caBundle: server.caBundle }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { hold: 'yes' } }, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 30 }],
    });
    await eventually(async () => (await t.client.get<any>(fsRT, undefined, 'apf-queue')).status?.conditions?.[0]?.reason === 'Found', 'apf-queue Found');

    const rejectUser = t.cp.client({ name: 'apf-reject', groups: ['system:authenticated'] });
    const queueUser = t.cp.client({ name: 'apf-queue', groups: ['system:authenticated'] });
    const list = { method: 'GET' as const, path: '/api/v1/namespaces/default/configmaps' };
    const ok = await rejectUser.transport.request(list);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers?.['X-Kubernetes-PF-FlowSchema-UID'], fsR.metadata.uid);
    assert.equal(ok.headers?.['X-Kubernetes-PF-PriorityLevel-UID'], plR.metadata.uid);

    // Each user's one seat is taken by a create held in the webhook.
    const hold = (c: typeof rejectUser, name: string) => c.transport.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name, labels: { hold: 'yes' } } }, contentType: 'application/json' });
    const heldReject = hold(rejectUser, 'held-1');
    const heldQueue = hold(queueUser, 'held-2');
    await eventually(() => server.requests.length === 2, 'both held in the webhook');

    const rejected = await rejectUser.transport.request(list);
    assert.equal(rejected.status, 429);
    assert.equal(rejected.body, 'Too many requests, please try again later.\n');
    assert.equal(rejected.contentType, 'text/plain; charset=utf-8');
    assert.equal(rejected.headers?.['Retry-After'], '1');
    assert.equal(rejected.headers?.['X-Kubernetes-PF-FlowSchema-UID'], fsR.metadata.uid);
    assert.equal(rejected.headers?.['X-Kubernetes-PF-PriorityLevel-UID'], plR.metadata.uid);
    // Others are not held up: the admin is exempt.
    assert.equal((await t.client.transport.request(list)).status, 200);

    // The Queue level: the next request waits in its one queue, the one after finds it full.
    const queued = queueUser.transport.request(list);
    const metrics = async () => String((await t.client.transport.request({ method: 'GET', path: '/metrics' })).body);
    await eventually(async () => (await metrics()).includes('apiserver_flowcontrol_current_inqueue_requests{flow_schema="apf-queue",priority_level="apf-queue"} 1'), 'one queued');
    const full = await queueUser.transport.request(list);
    assert.equal(full.status, 429);
    assert.equal(full.headers?.['X-Kubernetes-PF-PriorityLevel-UID'], plQ.metadata.uid);
    assert.equal(full.headers?.['X-Kubernetes-PF-FlowSchema-UID'], fsQ.metadata.uid);

    release();
    assert.equal((await heldReject).status, 201);
    assert.equal((await heldQueue).status, 201);
    const served = await queued;
    assert.equal(served.status, 200);
    assert.equal(served.headers?.['X-Kubernetes-PF-FlowSchema-UID'], fsQ.metadata.uid);
    assert.equal((await rejectUser.transport.request(list)).status, 200);

    const m = await metrics();
    assert.match(m, /apiserver_flowcontrol_rejected_requests_total\{flow_schema="apf-reject",priority_level="apf-reject",reason="concurrency-limit"\} 1\n/);
    assert.match(m, /apiserver_flowcontrol_rejected_requests_total\{flow_schema="apf-queue",priority_level="apf-queue",reason="queue-full"\} 1\n/);
    assert.match(m, /apiserver_flowcontrol_dispatched_requests_total\{flow_schema="apf-queue",priority_level="apf-queue"\} 2\n/);
    assert.match(m, /apiserver_flowcontrol_current_executing_seats\{flow_schema="apf-reject",priority_level="apf-reject"\} 0\n/);
    assert.match(m, /apiserver_flowcontrol_nominal_limit_seats\{priority_level="catch-all"\} 13\n/);

  } finally {
    release();
    await server.close();
    await t.stop();
  }
});
