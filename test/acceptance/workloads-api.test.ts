// Issue 10 acceptance, kube 1.33 parts with the real kubectl against `winkube up`: Job podFailurePolicy (FailJob on
// an exit code), backoffLimitPerIndex with failedIndexes, successPolicy; `kubectl api-resources` listing the
// networking, flowcontrol, podtemplates and CSIStorageCapacity resources; `kubectl create ingress` / `get ingress`;
// a NetworkPolicy round trip; and an HPA on an External metric with no external metrics API (kubectl describe hpa).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster({ args: ['--horizontal-pod-autoscaler-sync-period', '2s'] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const jp = (kind: string, name: string, path: string) => k.ok(['get', kind, name, '-o', `jsonpath={${path}}`]);

test('podFailurePolicy: exit code 42 fails the Job at once with reason PodFailurePolicy', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: pfp}
spec:
  backoffLimit: 6
  podFailurePolicy:
    rules:
    - {action: FailJob, onExitCodes: {containerName: main, operator: In, values: [42]}}
    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}
  template:
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      restartPolicy: Never
      containers: [{name: main, image: 'busybox:1.36', command: [sh, -c, 'exit 42']}]
`);
  const r = k.run(['wait', '--for=condition=failed', 'job/pfp', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(jp('job', 'pfp', '.status.conditions[?(@.type=="FailureTarget")].reason'), 'PodFailurePolicy');
  assert.match(jp('job', 'pfp', '.status.conditions[?(@.type=="Failed")].message'), /^Container main for pod default\/pfp-[a-z0-9]{5} failed with exit code 42 matching FailJob rule at index 0$/);
  assert.equal(jp('job', 'pfp', '.status.failed'), '1');
  assert.equal(jp('job', 'pfp', '.spec.podReplacementPolicy'), 'Failed');
  const bad = k.run(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: pfp-bad}
spec:
  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [0]}}]}
  template:
    spec:
      restartPolicy: OnFailure
      containers: [{name: main, image: 'busybox:1.36'}]
`);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /spec.podFailurePolicy.rules\[0\].onExitCodes.values\[0\]: Invalid value: 0: must not be 0 for the In operator/);
  assert.match(bad.stderr, /spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified/);
});

test('backoffLimitPerIndex: index 1 fails (FailIndex on exit 3), the others succeed; Failed with FailedIndexes', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: per-index}
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  backoffLimitPerIndex: 1
  podFailurePolicy: {rules: [{action: FailIndex, onExitCodes: {operator: In, values: [3]}}]}
  template:
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      restartPolicy: Never
      containers: [{name: main, image: 'busybox:1.36', command: [sh, -c, 'if [ "$JOB_COMPLETION_INDEX" = 1 ]; then exit 3; fi']}]
`);
  const r = k.run(['wait', '--for=condition=failed', 'job/per-index', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(jp('job', 'per-index', '.status.failedIndexes'), '1');
  assert.equal(jp('job', 'per-index', '.status.completedIndexes'), '0,2');
  assert.equal(jp('job', 'per-index', '.status.conditions[?(@.type=="Failed")].reason'), 'FailedIndexes');
  assert.equal(jp('job', 'per-index', '.status.conditions[?(@.type=="Failed")].message'), 'Job has failed indexes');
  assert.equal(jp('job', 'per-index', '.spec.backoffLimit'), '2147483647');
});

test('successPolicy: index 0 succeeding completes the Job (SuccessPolicy, "Matched rules at index 0")', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: leader}
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  successPolicy: {rules: [{succeededIndexes: "0"}]}
  template:
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      restartPolicy: Never
      containers: [{name: main, image: 'busybox:1.36', command: [sh, -c, 'if [ "$JOB_COMPLETION_INDEX" != 0 ]; then sleep 3600; fi']}]
`);
  const r = k.run(['wait', '--for=condition=complete', 'job/leader', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(jp('job', 'leader', '.status.conditions[?(@.type=="SuccessCriteriaMet")].reason'), 'SuccessPolicy');
  assert.equal(jp('job', 'leader', '.status.conditions[?(@.type=="Complete")].message'), 'Matched rules at index 0');
});

test('kubectl api-resources lists the rest of a default 1.33 cluster', () => {
  const out = k.ok(['api-resources']);
  for (const re of [
    /^networkpolicies\s+netpol\s+networking\.k8s\.io\/v1\s+true\s+NetworkPolicy$/m,
    /^ingresses\s+ing\s+networking\.k8s\.io\/v1\s+true\s+Ingress$/m,
    /^ingressclasses\s+networking\.k8s\.io\/v1\s+false\s+IngressClass$/m,
    /^ipaddresses\s+ip\s+networking\.k8s\.io\/v1\s+false\s+IPAddress$/m,
    /^servicecidrs\s+networking\.k8s\.io\/v1\s+false\s+ServiceCIDR$/m,
    /^flowschemas\s+flowcontrol\.apiserver\.k8s\.io\/v1\s+false\s+FlowSchema$/m,
    /^prioritylevelconfigurations\s+flowcontrol\.apiserver\.k8s\.io\/v1\s+false\s+PriorityLevelConfiguration$/m,
    /^csistoragecapacities\s+storage\.k8s\.io\/v1\s+true\s+CSIStorageCapacity$/m,
    /^podtemplates\s+v1\s+true\s+PodTemplate$/m,
  ]) assert.match(out, re);
  const fs = k.ok(['get', 'flowschemas']);
  assert.match(fs.split('\n')[0], /^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL$/);
  assert.match(fs, /^exempt\s+exempt\s+1\s+<none>\s+\S+\s+False$/m);
  assert.match(fs, /^catch-all\s+catch-all\s+10000\s+ByUser\s+\S+\s+False$/m);
  assert.match(k.ok(['get', 'prioritylevelconfigurations']), /^workload-low\s+Limited\s+100\s+128\s+6\s+50\s+\S+$/m);
  assert.match(k.ok(['get', 'servicecidrs']), /^kubernetes\s+10\.96\.0\.0\/12\s+\S+$/m);
});

test('kubectl create ingress and get ingress; an IngressClass', () => {
  k.ok(['create', 'ingress', 'simple', '--rule=foo.com/bar=svc1:8080,tls=my-cert']);
  assert.equal(jp('ingress', 'simple', '.spec.rules[0].http.paths[0].pathType'), 'Exact');
  const out = k.ok(['get', 'ingress']);
  assert.match(out.split('\n')[0], /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE$/);
  assert.match(out, /^simple\s+<none>\s+foo\.com\s+80, 443\s+\S+$/m);
  assert.match(k.ok(['describe', 'ingress', 'simple']), /foo\.com\s+\n?\s*\/bar\s+svc1:8080/);
  const bad = k.run(['create', 'ingress', 'bad', '--rule=1.2.3.4/=svc:80']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /spec.rules\[0\].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address/);
  k.ok(['apply', '-f', '-'], 'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec: {controller: k8s.io/ingress-nginx}\n');
  assert.match(k.ok(['get', 'ingressclass']), /^nginx\s+k8s\.io\/ingress-nginx\s+<none>\s+\S+$/m);
});

test('a NetworkPolicy round trip: defaults, columns, describe, validation', () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-allow}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
  - from: [{podSelector: {matchLabels: {role: frontend}}}, {ipBlock: {cidr: 172.17.0.0/16, except: [172.17.1.0/24]}}]
    ports: [{port: 80}]
`);
  assert.equal(jp('networkpolicy', 'web-allow', '.spec.policyTypes[*]'), 'Ingress');
  assert.equal(jp('netpol', 'web-allow', '.spec.ingress[0].ports[0].protocol'), 'TCP');
  assert.match(k.ok(['get', 'netpol']), /^web-allow\s+app=web\s+\S+$/m);
  assert.match(k.ok(['describe', 'netpol', 'web-allow']), /PodSelector:\s+app=web/);
  const bad = k.run(['apply', '-f', '-'], 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: bad}\nspec:\n  podSelector: {}\n  ingress: [{from: [{ipBlock: {cidr: 10.0.0.0/16, except: [10.1.0.0/24]}}]}]\n');
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /spec.ingress\[0\].from\[0\].ipBlock.except\[0\]: Invalid value: "10.1.0.0\/24": must be a strict subset of `cidr`/);
  k.ok(['delete', 'netpol', 'web-allow']);
});

test('HPA on an External metric with no external metrics API: ScalingActive False FailedGetExternalMetric', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
  replicas: 1
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: c, image: 'registry.k8s.io/pause:3.10'}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: worker}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: worker}
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: External
    external:
      metric: {name: queue_length, selector: {matchLabels: {queue: worker_tasks}}}
      target: {type: AverageValue, averageValue: "30"}
`);
  const msg = 'unable to get external metric default/queue_length/&LabelSelector{MatchLabels:map[string]string{queue: worker_tasks,},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue_length.external.metrics.k8s.io)';
  const out = await eventually(() => {
    const d = k.ok(['describe', 'hpa', 'worker']);
    return /ScalingActive\s+False\s+FailedGetExternalMetric/.test(d) ? d : undefined;
  }, 60_000, 'FailedGetExternalMetric');
  assert.ok(out.includes(`the HPA was unable to compute the replica count: ${msg}`), out);
  assert.ok(out.includes(`Warning  FailedGetExternalMetric`), out);
  assert.match(out, /"queue_length" \(target average value\)/);
});
