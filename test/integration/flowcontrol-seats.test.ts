// API Priority and Fairness seats through the API server core and its HTTPS front end: a list charged by the
// objects stored for its resource (list_work_estimator.go) cannot fit a three-seat Reject level beside a held
// request while a get still does, and a request queued on a one-seat level leaves its queue when its HTTP client
// disconnects, counted as `cancelled` (queueset.go; priority-and-fairness.go).

import test from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { KubeObject } from '../../src/api/types.js';
import type { ResourceType } from '../../src/client/interfaces.js';
import { startWebhookServer } from '../../src/apiserver/admission/webhook/testing.js';
import { HttpFrontEnd } from '../../src/apiserver/http-server.js';
import { createCa, issueCert, SERVER_DNS } from '../../src/apiserver/pki.js';
import { silentLogger } from '../../src/util/log.js';
import { startControlPlane } from './helpers.js';

const FC = 'flowcontrol.apiserver.k8s.io';
const fsRT: ResourceType = { group: FC, version: 'v1', resource: 'flowschemas', kind: 'FlowSchema', namespaced: false };
const plRT: ResourceType = { group: FC, version: 'v1', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false };
const vwc: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const crb: ResourceType = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false };
const cmRT: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

async function eventually<T>(fn: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const level = (name: string, shares: number, limitResponse: object): KubeObject => ({
  metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse } },
});
const schema = (name: string, user: string): KubeObject => ({
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name }, matchingPrecedence: 50, distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: [{ kind: 'User', user: { name: user } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }],
  },
});

test('APF seats: a large list is several seats wide; a disconnected client leaves its queue', async () => {
  const t = await startControlPlane();
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const hook = await startWebhookServer(async () => {
    await held;
    return { allowed: true };
  });
  const ca = createCa();
  const front = new HttpFrontEnd({ api: t.cp.api, logger: silentLogger, tls: { ...issueCert(ca, { cn: 'kube-apiserver', server: { dns: SERVER_DNS, ips: ['127.0.0.1'] } }), ca: ca.cert }, port: 0 });
  await front.listen();
  try {
    for (const u of ['apf-wide', 'apf-gone']) {
      await t.client.create(crb, undefined, { metadata: { name: u }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u }] });
    }
    // One share of 600 seats over kube's 245: ceil(600 / 246) = 3 seats, none lent or borrowed.
    await t.client.create(plRT, undefined, level('apf-wide', 1, { type: 'Reject' }));
    await t.client.create(fsRT, undefined, schema('apf-wide', 'apf-wide'));
    // No shares: one request at a time, one queue.
    await t.client.create(plRT, undefined, level('apf-gone', 0, { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 5 } }));
    await t.client.create(fsRT, undefined, schema('apf-gone', 'apf-gone'));
    for (const name of ['apf-wide', 'apf-gone']) {
      await eventually(async () => (await t.client.get<any>(fsRT, undefined, name)).status?.conditions?.[0]?.reason === 'Found', `${name} Found`);
    }
    await t.client.create(vwc, undefined, {
      metadata: { name: 'hold' },
      webhooks: [{ name: 'hold.example.com', clientConfig: { url: hook.url('/hold'), caBundle: hook.caBundle }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { hold: 'yes' } }, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 30 }],
    });
    // 250 ConfigMaps: a list of them is charged ceil(250 / 100) = 3 seats or more (list_work_estimator.go).
    await Promise.all(Array.from({ length: 250 }, (_, i) => t.client.create(cmRT, 'default', { metadata: { name: `cm-${i}` } })));
    // Lists are charged by the counts of the last minute's poll (store.go startObservingCount): take that poll now.
    t.cp.api.flowControl!.refreshObjectCounts();

    const wide = t.cp.client({ name: 'apf-wide', groups: ['system:authenticated'] });
    const list = { method: 'GET' as const, path: '/api/v1/namespaces/default/configmaps' };
    assert.equal((await wide.transport.request(list)).status, 200, 'alone, a list wider than the level runs');
    const holding = wide.transport.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'held-1', labels: { hold: 'yes' } } }, contentType: 'application/json' });
    await eventually(() => hook.requests.length === 1, 'held in the webhook');
    const refused = await wide.transport.request(list);
    assert.equal(refused.status, 429, 'one seat held: the list needs three of the remaining two');
    assert.equal(refused.body, 'Too many requests, please try again later.\n');
    assert.equal((await wide.transport.request({ ...list, path: '/api/v1/namespaces/default/configmaps/cm-1' })).status, 200, 'a get takes one seat and fits');
    assert.equal((await wide.transport.request({ ...list, query: { fieldSelector: 'metadata.name=cm-2' } })).status, 200, 'a list naming one object is a get');

    // apf-gone: its one seat held, then a request over HTTPS waits in the queue until its client disconnects.
    const gone = t.cp.client({ name: 'apf-gone', groups: ['system:authenticated'] });
    const holdingGone = gone.transport.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'held-2', labels: { hold: 'yes' } } }, contentType: 'application/json' });
    await eventually(() => hook.requests.length === 2, 'second held');
    const user = issueCert(ca, { cn: 'apf-gone' });
    const req = https.request({ host: '127.0.0.1', port: front.port, path: list.path, ca: ca.cert, cert: user.cert, key: user.key });
    req.on('error', () => {});
    req.end();
    const metrics = async () => String((await t.client.transport.request({ method: 'GET', path: '/metrics' })).body);
    await eventually(async () => (await metrics()).includes('apiserver_flowcontrol_current_inqueue_requests{flow_schema="apf-gone",priority_level="apf-gone"} 1'), 'queued over HTTPS');
    req.destroy();
    const m = await eventually(async () => {
      const text = await metrics();
      return text.includes('apiserver_flowcontrol_current_inqueue_requests{flow_schema="apf-gone",priority_level="apf-gone"} 0') ? text : undefined;
    }, 'left the queue');
    assert.match(m, /apiserver_flowcontrol_rejected_requests_total\{flow_schema="apf-gone",priority_level="apf-gone",reason="cancelled"\} 1\n/);
    assert.match(m, /apiserver_flowcontrol_rejected_requests_total\{flow_schema="apf-wide",priority_level="apf-wide",reason="concurrency-limit"\} 1\n/);
    // An in-process caller that gives up leaves the queue the same way.
    const abort = new AbortController();
    const pending = gone.transport.request({ ...list, signal: abort.signal });
    await eventually(async () => (await metrics()).includes('apiserver_flowcontrol_current_inqueue_requests{flow_schema="apf-gone",priority_level="apf-gone"} 1'), 'queued in-process');
    abort.abort();
    assert.equal((await pending).status, 429);
    assert.match(await metrics(), /reason="cancelled"\} 2\n/);

    release();
    assert.equal((await holding).status, 201);
    assert.equal((await holdingGone).status, 201);
    assert.equal((await gone.transport.request(list)).status, 200);
  } finally {
    release();
    await front.close();
    await hook.close();
    await t.stop();
  }
});
