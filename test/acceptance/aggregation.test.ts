// The aggregation layer with the real kubectl against `winkube up`: the Local APIServices, the e2e sample-apiserver
// (test/e2e/apimachinery/aggregator.go's Deployment + Service + APIService with a caBundle) Available and serving
// flunders through the API server, its pods deleted → Available=False with kube's reason and kubectl's discovery
// warning, and `kubectl top` through metrics-server's `v1beta1.metrics.k8s.io`.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, kubectlEnds, startCluster, type RunningCluster } from './harness.js';
import { createCa, issueCert } from '../../src/apiserver/pki.js';

const NEWEST = kubectlBinaries().at(-1)!;
const NS = 'sample-system';
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const availableOf = (name: string): { status: string; reason: string; message: string } | undefined => {
  const r = k.run(['get', 'apiservice', name, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")]}']);
  return r.code === 0 && r.stdout ? JSON.parse(r.stdout) : undefined;
};

test('kubectl get apiservices lists the Local ones and metrics-server\'s', async () => {
  const out = k.ok(['get', 'apiservices']);
  assert.match(out, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE\n/);
  assert.match(out, /^v1\.\s+Local\s+True\s+\S+$/m);
  assert.match(out, /^v1\.apps\s+Local\s+True\s+\S+$/m);
  assert.match(out, /^v2\.autoscaling\s+Local\s+True\s+\S+$/m);
  assert.match(out, /^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+/m);
  assert.equal(k.ok(['get', 'apiservice', 'v1.apps', '-o', 'jsonpath={.metadata.labels.kube-aggregator\\.kubernetes\\.io/automanaged}']), 'onstart');
});

test('kubectl top nodes works through v1beta1.metrics.k8s.io once its pod answers the discovery check', async () => {
  const cond = await eventually(() => { const c = availableOf('v1beta1.metrics.k8s.io'); return c?.status === 'True' ? c : undefined; }, 60_000, 'metrics-server Available');
  assert.deepEqual([cond.reason, cond.message], ['Passed', 'all checks passed']);
  const top = await eventually(() => { const r = k.run(['top', 'nodes']); return r.code === 0 ? r.stdout : undefined; }, 30_000, 'kubectl top nodes');
  assert.match(top, /^NAME\s+CPU\(cores\)\s+CPU(%|\(%\))\s+MEMORY\(bytes\)\s+MEMORY(%|\(%\))/);
  assert.match(k.ok(['api-resources', '--api-group=metrics.k8s.io']), /^nodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics$/m);
});

test('the e2e sample-apiserver behind an APIService: Available, flunders through kubectl, then its pods gone', async () => {
  const ca = createCa('sample-apiserver-ca');
  const serving = issueCert(ca, { cn: `sample-api.${NS}.svc`, server: { dns: [`sample-api.${NS}.svc`], ips: [] } });
  k.ok(['create', 'namespace', NS]);
  k.ok(['-n', NS, 'create', 'secret', 'generic', 'sample-apiserver-secret', `--from-literal=tls.crt=${serving.cert}`, `--from-literal=tls.key=${serving.key}`]);
  k.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: Deployment
metadata: {name: sample-apiserver-deployment, namespace: ${NS}, labels: {apiserver: 'true', app: sample-apiserver}}
spec:
  replicas: 1
  selector: {matchLabels: {apiserver: 'true', app: sample-apiserver}}
  template:
    metadata: {labels: {apiserver: 'true', app: sample-apiserver}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      volumes: [{name: apiserver-certs, secret: {secretName: sample-apiserver-secret}}]
      containers:
      - name: sample-apiserver
        image: registry.k8s.io/e2e-test-images/sample-apiserver:1.29.2
        args: [--etcd-servers=http://127.0.0.1:2379, --tls-cert-file=/apiserver.local.config/certificates/tls.crt, --tls-private-key-file=/apiserver.local.config/certificates/tls.key, --audit-log-path=-, --audit-log-maxage=0, --audit-log-maxbackup=0]
        volumeMounts: [{name: apiserver-certs, mountPath: /apiserver.local.config/certificates, readOnly: true}]
        readinessProbe: {httpGet: {scheme: HTTPS, port: 443, path: /readyz}, periodSeconds: 1}
---
apiVersion: v1
kind: Service
metadata: {name: sample-api, namespace: ${NS}, labels: {test: aggregator}}
spec:
  selector: {apiserver: 'true'}
  ports: [{protocol: TCP, port: 7443, targetPort: 443}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.wardle.example.com}
spec:
  service: {namespace: ${NS}, name: sample-api, port: 7443}
  group: wardle.example.com
  version: v1alpha1
  caBundle: ${Buffer.from(ca.cert).toString('base64')}
  groupPriorityMinimum: 2000
  versionPriority: 200
`);
  const cond = await eventually(() => { const c = availableOf('v1alpha1.wardle.example.com'); return c?.status === 'True' ? c : undefined; }, 60_000, 'the sample-apiserver Available');
  assert.deepEqual([cond.reason, cond.message], ['Passed', 'all checks passed']);
  assert.match(k.ok(['get', 'apiservice', 'v1alpha1.wardle.example.com']), /^v1alpha1\.wardle\.example\.com\s+sample-system\/sample-api\s+True\s+\S+$/m);
  await eventually(() => (/^flunders\s+wardle\.example\.com\/v1alpha1\s+true\s+Flunder$/m.test(k.ok(['api-resources', '--api-group=wardle.example.com'])) ? true : undefined), 30_000, 'flunders in api-resources');

  const flunder = `apiVersion: wardle.example.com/v1alpha1
kind: Flunder
metadata: {name: test-flunder, namespace: default, labels: {sample-label: 'true'}}
`;
  for (const kv of kubectlEnds()) {
    const kk = new Kubectl(kv.path, cluster.kubeconfig);
    const name = `flunder-${kv.version.replace(/\W/g, '')}`;
    const created = kk.run(['create', '-f', '-'], flunder.replace('test-flunder', name));
    assert.equal(created.code, 0, `${kv.version}: ${created.stderr}`);
    assert.equal(created.stdout.trim(), `flunder.wardle.example.com/${name} created`, kv.version);
    assert.match(kk.ok(['get', 'flunders']), new RegExp(`^NAME\\s+CREATED AT\\n(.*\\n)*${name}\\s+\\d{4}-\\d\\d-\\d\\dT`, 'm'), kv.version);
    kk.dispose();
  }
  const got = JSON.parse(k.ok(['get', 'flunder', `flunder-${kubectlEnds()[0].version.replace(/\W/g, '')}`, '-o', 'json']));
  assert.equal(got.kind, 'Flunder');
  assert.deepEqual(got.metadata.labels, { 'sample-label': 'true' });
  // The backend's own errors come through the proxy as they are.
  const dup = k.run(['create', '-f', '-'], flunder.replace('test-flunder', got.metadata.name));
  assert.match(dup.stderr, new RegExp(`Error from server \\(AlreadyExists\\): error when creating "STDIN": flunders\\.wardle\\.example\\.com "${got.metadata.name}" already exists`));
  assert.match(k.ok(['delete', 'flunder', got.metadata.name]), /deleted/);

  // The backend's pods gone (replicas 0): no addresses left, and kube's reason for it.
  k.ok(['-n', NS, 'scale', 'deployment', 'sample-apiserver-deployment', '--replicas=0']);
  const down = await eventually(() => { const c = availableOf('v1alpha1.wardle.example.com'); return c?.status === 'False' ? c : undefined; }, 60_000, 'the sample-apiserver unavailable');
  assert.deepEqual([down.reason, down.message], ['MissingEndpoints', `endpoints for service/sample-api in "${NS}" have no addresses with port name ""`]);
  assert.match(k.ok(['get', 'apiservice', 'v1alpha1.wardle.example.com']), /^v1alpha1\.wardle\.example\.com\s+sample-system\/sample-api\s+False \(MissingEndpoints\)\s+\S+$/m);
  // Aggregated discovery marks the version Stale and empty (handler_discovery.go on the proxy's 503): kubectl 1.33
  // records it as a failed group (client-go StaleGroupVersionError) and no longer maps flunders.
  const failed = new Kubectl(NEWEST.path, cluster.kubeconfig);
  const res = failed.run(['get', 'flunders']);
  failed.dispose();
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /the server doesn't have a resource type "flunders"/);
  // Asked directly, the aggregator refuses with 503 while the APIService is unavailable.
  const direct = k.run(['get', '--raw', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders']);
  assert.match(direct.stderr, /Error from server \(ServiceUnavailable\): the server is currently unable to handle the request/);
  // metrics keep working beside the broken group.
  assert.equal(k.run(['top', 'nodes']).code, 0);
});
