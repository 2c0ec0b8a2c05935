// The API server's egress end to end on one machine: a real kubelet server (CONNECT to a modelled pod address), the
// network model deciding delivery, TLS to the pod's listener checked for `<svc>.<ns>.svc`, and the callers on top:
// a Service-backed validating webhook and services/pods proxy.

import test from 'node:test';
import assert from 'node:assert/strict';
import { KUBELET_SERVER_ANNOTATION } from '../../api/well-known.js';
import { StatusError } from '../../api/errors.js';
import type { Kubelet } from '../../node/kubelet.js';
import { KubeletServer } from '../../node/server/kubelet-server.js';
import type { HttpRequest, Listener } from '../../node/shell/interfaces.js';
import { addNode, addPod, modelCluster } from '../../network/testing/model-cluster.js';
import { silentLogger } from '../../util/log.js';
import { attrs, fakeLookup } from '../admission/testing.js';
import { validatingAdmissionWebhook } from '../admission/validating-admission-webhook.js';
import { createCa, issueCert } from '../pki.js';
import { ClusterEgress } from './egress.js';
import { proxySubresource } from './proxy-subresource.js';

const clusterCa = createCa('cluster-ca');
const kubeletServing = issueCert(clusterCa, { cn: 'kubelet', server: { dns: [], ips: ['127.0.0.1'] } });
const apiClient = issueCert(clusterCa, { cn: 'kube-apiserver-kubelet-client', orgs: ['system:masters'] });
const webhookCa = createCa('webhook-ca');
const webhookServing = issueCert(webhookCa, { cn: 'hook.default.svc', server: { dns: ['hook.default.svc'], ips: [] } });

const text = (status: number, body: string) => ({ status, headers: { 'content-type': 'text/plain' }, body: Buffer.from(body) });
const webhookHandler = async (req: HttpRequest) => {
  const review = JSON.parse(req.body.toString()) as { request: { uid: string } };
  const response = { uid: review.request.uid, allowed: false, status: { message: `seen from ${req.remoteAddress} on ${req.localAddress}:${req.localPort}` } };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', response })) };
};
const webhookListener: Listener = { port: 8443, protocol: 'TCP', program: 'agnhost', handler: webhookHandler, tls: webhookServing };
const webListener: Listener = { port: 80, protocol: 'TCP', program: 'nginx', handler: async (req) => text(200, `hello from nginx: ${req.method} ${req.path}`) };

const net = modelCluster();
const n1 = addNode(net, { name: 'n1', os: 'linux', index: 1 });
const hookPod = addPod(net, n1, 5, 'hook', [webhookListener]);
const webPod = addPod(net, n1, 6, 'web', [webListener]);
const server = new KubeletServer({
  tls: { ...kubeletServing, ca: clusterCa.cert }, logger: silentLogger, now: () => Date.now(),
  kubelet: (n) => (n === 'n1' ? ({} as Kubelet) : undefined),
  network: { net, hnsText: () => undefined, resolveFromPod: async () => undefined },
});
const egress = new ClusterEgress(() => ({ cert: apiClient.cert, key: apiClient.key, ca: clusterCa.cert }));

const slice = (svc: string, ip: string, port: number, pod: string) => ({
  metadata: { name: `${svc}-x`, namespace: 'default', labels: { 'kubernetes.io/service-name': svc } }, addressType: 'IPv4',
  ports: [{ name: '', port, protocol: 'TCP' }],
  endpoints: [{ addresses: [ip], conditions: { ready: true }, nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'default', name: pod } }],
});

let objects: Record<string, unknown[]>;
let lookup: ReturnType<typeof fakeLookup>;
test.before(async () => {
  const port = await server.listen();
  objects = {
    nodes: [{ metadata: { name: 'n1', annotations: { [KUBELET_SERVER_ANNOTATION]: `127.0.0.1:${port}` } } }],
    services: [
      { metadata: { name: 'hook', namespace: 'default' }, spec: { type: 'ClusterIP', ports: [{ port: 443, targetPort: 8443 }] } },
      { metadata: { name: 'web', namespace: 'default' }, spec: { type: 'ClusterIP', ports: [{ port: 80, targetPort: 80 }] } },
      { metadata: { name: 'closed', namespace: 'default' }, spec: { type: 'ClusterIP', ports: [{ port: 80, targetPort: 9999 }] } },
    ],
    'discovery.k8s.io/endpointslices': [slice('hook', hookPod.ip, 8443, 'hook'), slice('web', webPod.ip, 80, 'web'), slice('closed', webPod.ip, 9999, 'web')],
    pods: [{ metadata: { name: 'web', namespace: 'default' }, spec: { nodeName: 'n1', containers: [{ name: 'nginx', ports: [{ containerPort: 80 }] }] }, status: { podIP: webPod.ip } }],
  };
  lookup = fakeLookup(objects);
});
test.after(() => server.close());

const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'svc.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail',
  clientConfig: { service: { namespace: 'default', name: 'hook', path: '/validate', port: 443 }, caBundle: Buffer.from(webhookCa.cert).toString('base64') },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...extra,
});
const withHook = (h: unknown) => fakeLookup({ ...objects, 'admissionregistration.k8s.io/validatingwebhookconfigurations': [{ metadata: { name: 'c' }, webhooks: [h] }] });

async function rejection(p: unknown): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a rejection');
}

test('a Service-backed webhook answers over TLS through the node agent hosting its pod', async () => {
  const err = await rejection(validatingAdmissionWebhook({ egress }).validate!(attrs('configmaps', { metadata: { name: 'c' } }), withHook(hook())));
  // The pod saw the node's address as the client, and its own address and target port as the destination.
  assert.equal(err.message, `admission webhook "svc.example.com" denied the request: seen from ${n1.ip} on ${hookPod.ip}:8443`);
});

test('the caBundle is checked against the Service DNS name', async () => {
  const wrongCa = Buffer.from(clusterCa.cert).toString('base64');
  const err = await rejection(validatingAdmissionWebhook({ egress }).validate!(attrs('configmaps', { metadata: { name: 'c' } }),
    withHook(hook({ clientConfig: { service: { namespace: 'default', name: 'hook', path: '/validate', port: 443 }, caBundle: wrongCa } }))));
  assert.equal(err.message, 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://hook.default.svc:443/validate?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority');
});

test('a closed pod port is connection refused at the pod address', async () => {
  const err = await rejection(validatingAdmissionWebhook({ egress }).validate!(attrs('configmaps', { metadata: { name: 'c' } }),
    withHook(hook({ clientConfig: { service: { namespace: 'default', name: 'closed', port: 80 } } }))));
  assert.equal(err.message, `Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://closed.default.svc:80/?timeout=10s": dial tcp ${webPod.ip}:9999: connect: connection refused`);
});

test('services/proxy and pods/proxy carry plain HTTP to the pod', async () => {
  const viaSvc = await proxySubresource(egress, lookup, { kind: 'services', namespace: 'default', id: 'web:80', rest: ['index.html'], method: 'GET', query: { a: '1' } });
  assert.equal(viaSvc.status, 200);
  assert.equal(String(viaSvc.body), 'hello from nginx: GET /index.html?a=1');
  const viaPod = await proxySubresource(egress, lookup, { kind: 'pods', namespace: 'default', id: 'web', rest: [], method: 'GET' });
  assert.equal(String(viaPod.body), 'hello from nginx: GET /');
  const refused = await rejection(proxySubresource(egress, lookup, { kind: 'services', namespace: 'default', id: 'closed', rest: [], method: 'GET' }));
  assert.equal(refused.code, 503);
  assert.equal(refused.message, `error trying to reach service: dial tcp ${webPod.ip}:9999: connect: connection refused`);
});
