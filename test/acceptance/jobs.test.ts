// Issue 10 acceptance (batch/v1): Jobs and CronJobs through the real kubectl against `winkube up` — a parallel Linux
// Job that completes, a Windows Job that fails at its backoffLimit, an Indexed Job, `kubectl create job --from`,
// the printed columns and kube's validation message for a Job that would restart Always.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
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

const jp = (kind: string, name: string, path: string) => k.ok(['get', kind, name, '-o', `jsonpath={${path}}`]);

test('a Linux Job of 3 completions, parallelism 2, completes; kubectl wait returns; get jobs prints kube\'s columns', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: echo}
spec:
  completions: 3
  parallelism: 2
  template:
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      restartPolicy: Never
      containers: [{name: c, image: 'busybox:1.36', command: [sh, -c, echo done]}]
`);
  const r = k.run(['wait', '--for=condition=complete', 'job/echo', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /job.batch\/echo condition met/);
  assert.equal(jp('job', 'echo', '.status.succeeded'), '3');
  assert.equal(jp('job', 'echo', '.spec.selector.matchLabels.batch\\.kubernetes\\.io/controller-uid'), jp('job', 'echo', '.metadata.uid'));
  const out = k.ok(['get', 'jobs']);
  assert.match(out.split('\n')[0], /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/);
  assert.match(out, /echo\s+Complete\s+3\/3\s+\d+s\s+\d+s/);
  const pods = k.ok(['get', 'pods', '-l', 'batch.kubernetes.io/job-name=echo', '-o', 'jsonpath={range .items[*]}{.status.phase}{"\\n"}{end}']);
  assert.deepEqual(pods.trim().split('\n'), ['Succeeded', 'Succeeded', 'Succeeded']);
  const logs = k.ok(['logs', 'job/echo']);
  assert.equal(logs, 'done\n');
  assert.match(k.ok(['describe', 'job', 'echo']), /Pods Statuses:\s+0 Active \(0 Ready\) \/ 3 Succeeded \/ 0 Failed/);
  assert.match(k.ok(['explain', 'job.spec.backoffLimit']), /FIELD:\s+backoffLimit/);
  assert.match(k.ok(['get', 'all']), /job\.batch\/echo\s+Complete/);
});

test('a Windows Job (cmd /c exit 3, backoffLimit 1) fails with BackoffLimitExceeded', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: winfail}
spec:
  backoffLimit: 1
  template:
    spec:
      nodeSelector: {node.kubernetes.io/windows-build: 10.0.17763}
      restartPolicy: Never
      containers: [{name: c, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019', command: [cmd, /c, exit 3]}]
`);
  const r = k.run(['wait', '--for=condition=failed', 'job/winfail', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(jp('job', 'winfail', '.status.failed'), '2');
  assert.equal(jp('job', 'winfail', '.status.conditions[?(@.type=="Failed")].reason'), 'BackoffLimitExceeded');
  assert.equal(jp('job', 'winfail', '.status.conditions[?(@.type=="Failed")].message'), 'Job has reached the specified backoff limit');
  const ev = k.ok(['get', 'events', '--field-selector', 'involvedObject.name=winfail', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
  assert.match(ev, /SuccessfulCreate: Created pod: winfail-/);
  assert.match(ev, /BackoffLimitExceeded: Job has reached the specified backoff limit/);
  assert.match(k.ok(['get', 'job', 'winfail']), /winfail\s+Failed\s+0\/1/);
});

test('an Indexed Job gives each pod its index (annotation, label, JOB_COMPLETION_INDEX)', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: indexed}
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  template:
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      restartPolicy: Never
      containers: [{name: c, image: 'busybox:1.36', command: [sh, -c, 'echo index=$JOB_COMPLETION_INDEX']}]
`);
  const r = k.run(['wait', '--for=condition=complete', 'job/indexed', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(jp('job', 'indexed', '.status.completedIndexes'), '0-2');
  const idx = k.ok(['get', 'pods', '-l', 'batch.kubernetes.io/job-name=indexed', '-o', 'jsonpath={range .items[*]}{.metadata.labels.batch\\.kubernetes\\.io/job-completion-index}{"\\n"}{end}']);
  assert.deepEqual(idx.trim().split('\n').sort(), ['0', '1', '2']);
  const pod1 = k.ok(['get', 'pods', '-l', 'batch.kubernetes.io/job-completion-index=1,batch.kubernetes.io/job-name=indexed', '-o', 'jsonpath={.items[0].metadata.name}']);
  assert.match(pod1, /^indexed-1-[a-z0-9]{5}$/);
  assert.equal(k.ok(['logs', pod1]), 'index=1\n');
});

test('CronJob: get cronjobs columns, kubectl create job --from=cronjob runs the template', async () => {
  k.ok(['create', 'cronjob', 'hello', '--image=busybox:1.36', '--schedule=0 0 1 1 *', '--', 'sh', '-c', 'echo hello']);
  k.ok(['patch', 'cronjob', 'hello', '--type=merge', '-p', '{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"nodeSelector":{"kubernetes.io/os":"linux"}}}}}}}']);
  const out = k.ok(['get', 'cj']);
  assert.match(out.split('\n')[0], /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/);
  assert.match(out, /hello\s+0 0 1 1 \*\s+<none>\s+False\s+0\s+<none>\s+\d+s/);
  assert.equal(jp('cronjob', 'hello', '.spec.concurrencyPolicy'), 'Allow');
  assert.equal(jp('cronjob', 'hello', '.spec.successfulJobsHistoryLimit'), '3');
  k.ok(['create', 'job', 'manual', '--from=cronjob/hello']);
  assert.equal(jp('job', 'manual', '.metadata.annotations.cronjob\\.kubernetes\\.io/instantiate'), 'manual');
  const r = k.run(['wait', '--for=condition=complete', 'job/manual', '--timeout=60s'], undefined, 70_000);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(k.ok(['logs', 'job/manual']), 'hello\n');
  // Bad schedules and time zones are refused with kube's messages.
  const bad = k.run(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=61 * * * *']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /spec\.schedule: Invalid value: "61 \* \* \* \*": end of range \(61\) above maximum \(59\): 61/);
  const tz = k.run(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: CronJob
metadata: {name: tz}
spec:
  schedule: '@hourly'
  timeZone: Mars/Olympus
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
`);
  assert.match(tz.stderr, /spec\.timeZone: Invalid value: "Mars\/Olympus": unknown time zone Mars\/Olympus/);
});

test('a Job whose pods would restart Always is refused as kube-apiserver refuses it', () => {
  const r = k.run(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: always}
spec:
  template:
    spec:
      containers: [{name: c, image: busybox}]
`);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /The Job "always" is invalid: spec\.template\.spec\.restartPolicy: Required value: valid values: "OnFailure", "Never"/);
});
