// Issue 10 acceptance: `kubectl rollout history|undo|restart|pause|resume|status` against `winkube up`, on the oldest
// and newest kubectl, with kubectl's own output and the Deployment controller's revisions, events and conditions.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlEnds();

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
});

interface Cond { type: string; status: string; reason: string; message: string }
interface DeployJson {
  metadata: { annotations?: Record<string, string>; generation: number };
  spec: { paused?: boolean; template: { metadata?: { annotations?: Record<string, string> }; spec: { containers: { image: string }[] } } };
  status: { observedGeneration?: number; conditions?: Cond[] };
}
interface RSJson { metadata: { name: string; annotations: Record<string, string> }; spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } }

const manifest = (image: string, cause: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: { kubernetes.io/change-cause: "${cause}" }
spec:
  replicas: 2
  revisionHistoryLimit: 1${extra}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers: [{ name: web, image: ${image} }]
`;

function session(version: { version: string; path: string }, ns: string) {
  const k = new Kubectl(version.path, cluster.kubeconfig);
  const at = (args: string[], input?: string) => k.ok([...args, '-n', ns], input);
  const run = (args: string[], timeoutMs?: number) => k.run([...args, '-n', ns], undefined, timeoutMs);
  const deploy = (name = 'web') => JSON.parse(at(['get', 'deployment', name, '-o', 'json'])) as DeployJson;
  const replicaSets = () => (JSON.parse(at(['get', 'rs', '-l', 'app=web', '-o', 'json'])).items as RSJson[]);
  const progressing = (name = 'web') => deploy(name).status.conditions?.find((c) => c.type === 'Progressing');
  const rolledOut = (name = 'web') => assert.match(at(['rollout', 'status', `deployment/${name}`, '--timeout=30s']), new RegExp(`deployment "${name}" successfully rolled out\\n$`), version.version);
  const history = () => at(['rollout', 'history', 'deployment/web']);
  const table = (rows: [number, string][]) => `deployment.apps/web \nREVISION  CHANGE-CAUSE\n${rows.map(([r, c]) => `${String(r).padEnd(10)}${c}`).join('\n')}\n\n`;
  const events = (reason: string) => at(['get', 'events', '--field-selector', `involvedObject.name=web,reason=${reason}`, '-o', 'jsonpath={range .items[*]}{.type} {.message}{"\\n"}{end}']);
  return { k, at, run, deploy, replicaSets, progressing, rolledOut, history, table, events };
}

for (const v of VERSIONS) {
  test(`kubectl ${v.version}: rollout history and undo, to the previous and a named revision`, async () => {
    const ns = `rollout-${v.version.replace('.', '-')}`;
    const s = session(v, ns);
    try {
      s.k.ok(['create', 'namespace', ns]);
      assert.match(s.at(['apply', '-f', '-'], manifest('nginx:1.25', 'create')), /deployment\.apps\/web created/);
      s.rolledOut();
      assert.match(s.at(['apply', '-f', '-'], manifest('nginx:1.26', 'upgrade')), /deployment\.apps\/web configured/);
      s.rolledOut();
      assert.equal(s.history(), s.table([[1, 'create'], [2, 'upgrade']]), v.version);

      const rev1 = s.at(['rollout', 'history', 'deployment/web', '--revision=1']);
      assert.match(rev1, /^deployment\.apps\/web with revision #1\nPod Template:\n  Labels:\tapp=web\n\tpod-template-hash=[a-z0-9]+\n  Annotations:\tkubernetes\.io\/change-cause: create\n  Containers:\n   web:\n    Image:\tnginx:1\.25\n/, v.version);
      const missing = s.run(['rollout', 'history', 'deployment/web', '--revision=9']);
      assert.equal(missing.code, 1);
      assert.equal(missing.stderr, 'error: unable to find the specified revision\n', v.version);

      const notThere = s.run(['rollout', 'undo', 'deployment/web', '--to-revision=9']);
      assert.equal(notThere.code, 1);
      assert.equal(notThere.stderr, 'error: unable to find specified revision 9 in history\n', v.version);

      assert.equal(s.at(['rollout', 'undo', 'deployment/web']), 'deployment.apps/web rolled back\n', v.version);
      s.rolledOut();
      // The old ReplicaSet came back as revision 3, remembering revision 1; the Deployment took its change-cause.
      assert.equal(s.history(), s.table([[2, 'upgrade'], [3, 'create']]), v.version);
      const d = s.deploy();
      assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.25');
      assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
      assert.equal(d.metadata.annotations?.['kubernetes.io/change-cause'], 'create');
      const back = s.replicaSets().find((rs) => rs.spec.template.spec.containers[0].image === 'nginx:1.25')!;
      assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision'], '3');
      assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision-history'], '1');
      assert.equal(back.spec.replicas, 2);

      assert.equal(s.at(['rollout', 'undo', 'deployment/web', '--to-revision=3']), 'deployment.apps/web skipped rollback (current template already matches revision 3)\n', v.version);
      assert.equal(s.at(['rollout', 'undo', 'deployment/web', '--to-revision=2']), 'deployment.apps/web rolled back\n', v.version);
      s.rolledOut();
      assert.equal(s.history(), s.table([[3, 'create'], [4, 'upgrade']]), v.version);
      assert.match(s.at(['rollout', 'status', 'deployment/web', '--revision=4']), /successfully rolled out/);
      const wrongRev = s.run(['rollout', 'status', 'deployment/web', '--revision=3']);
      assert.equal(wrongRev.stderr, 'error: desired revision (3) is different from the running revision (4)\n', v.version);
    } finally {
      s.k.ok(['delete', 'namespace', ns, '--wait=false']);
      s.k.dispose();
    }
  });

  test(`kubectl ${v.version}: rollout restart, pause and resume; revisionHistoryLimit; server-side rollback events`, async () => {
    const ns = `restart-${v.version.replace('.', '-')}`;
    const s = session(v, ns);
    try {
      s.k.ok(['create', 'namespace', ns]);
      s.at(['apply', '-f', '-'], manifest('nginx:1.25', 'create'));
      s.rolledOut();
      const first = s.replicaSets()[0].metadata.name;

      assert.equal(s.at(['rollout', 'restart', 'deployment/web']), 'deployment.apps/web restarted\n', v.version);
      assert.match(s.deploy().spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      s.rolledOut();
      const restarted = s.replicaSets().find((rs) => rs.metadata.name !== first)!;
      assert.equal(restarted.spec.replicas, 2);
      assert.equal(restarted.metadata.annotations['deployment.kubernetes.io/revision'], '2');
      assert.equal(s.history(), s.table([[1, 'create'], [2, 'create']]), v.version);

      // A second restart leaves revisions 2 and 3: revisionHistoryLimit 1 deletes revision 1 once the rollout completes.
      await new Promise((r) => setTimeout(r, 1100)); // restartedAt has one-second resolution
      s.at(['rollout', 'restart', 'deployment/web']);
      s.rolledOut();
      await eventually(() => s.replicaSets().length === 2, 10_000, 'revision 1 cleaned up');
      assert.ok(!s.replicaSets().some((rs) => rs.metadata.name === first));
      assert.equal(s.history(), s.table([[2, 'create'], [3, 'create']]), v.version);

      assert.equal(s.at(['rollout', 'pause', 'deployment/web']), 'deployment.apps/web paused\n', v.version);
      assert.equal(s.run(['rollout', 'pause', 'deployment/web']).stderr, 'error: deployments.apps "web" is already paused\n', v.version);
      const paused = await eventually(() => {
        const c = s.progressing();
        return c?.reason === 'DeploymentPaused' ? c : undefined;
      }, 10_000, 'Progressing DeploymentPaused');
      assert.deepEqual([paused.status, paused.message], ['Unknown', 'Deployment is paused']);
      s.at(['set', 'image', 'deployment/web', 'web=nginx:1.27']);
      await eventually(() => { const d = s.deploy(); return d.status.observedGeneration === d.metadata.generation; }, 10_000, 'the paused template change observed');
      // Paused: no new ReplicaSet and the running one keeps its size; with the template changed both ReplicaSets are
      // old, so history cleanup (which kube runs on paused syncs) leaves only revisionHistoryLimit of them.
      assert.deepEqual(s.replicaSets().map((rs) => [rs.spec.template.spec.containers[0].image, rs.spec.replicas, rs.metadata.annotations['deployment.kubernetes.io/revision']]), [['nginx:1.25', 2, '3']]);
      const waiting = s.run(['rollout', 'status', 'deployment/web', '--timeout=2s'], 15_000);
      assert.notEqual(waiting.code, 0);
      assert.match(waiting.stdout, /^Waiting for deployment "web" rollout to finish: 0 out of 2 new replicas have been updated\.\.\.\n/, v.version);
      assert.equal(waiting.stderr, 'error: timed out waiting for the condition\n', v.version);
      // The only other revision left is 3 (a plain undo finds no previous one: `no rollout history found`).
      assert.equal(s.run(['rollout', 'undo', 'deployment/web']).stderr, 'error: no rollout history found for deployment "web"\n', v.version);
      assert.equal(s.run(['rollout', 'undo', 'deployment/web', '--to-revision=3']).stderr, "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n", v.version);
      assert.equal(s.run(['rollout', 'restart', 'deployment/web']).stderr, 'error: deployments.apps "web" can\'t restart paused deployment (run rollout resume first)\n', v.version);

      assert.equal(s.at(['rollout', 'resume', 'deployment/web']), 'deployment.apps/web resumed\n', v.version);
      assert.equal(s.run(['rollout', 'resume', 'deployment/web']).stderr, 'error: deployments.apps "web" is not paused\n', v.version);
      s.rolledOut();
      const done = s.progressing()!;
      assert.equal(done.reason, 'NewReplicaSetAvailable');
      assert.match(done.message, /^ReplicaSet "web-[a-z0-9]+" has successfully progressed\.$/);
      assert.equal(s.deploy().metadata.annotations?.['deployment.kubernetes.io/revision'], '4');

      // The apps/v1 remnant of spec.rollbackTo, handled by kube-controller-manager (rollback.go): 0 is the previous revision.
      s.at(['annotate', 'deployment/web', 'deprecated.deployment.rollback.to=0']);
      await eventually(() => s.events('DeploymentRollback'), 10_000, 'the DeploymentRollback event');
      assert.equal(s.events('DeploymentRollback'), 'Normal Rolled back deployment "web" to revision 3\n');
      await eventually(() => s.deploy().metadata.annotations?.['deprecated.deployment.rollback.to'] === undefined, 10_000, 'the request cleared');
      assert.equal(s.deploy().spec.template.spec.containers[0].image, 'nginx:1.25');
      s.rolledOut();
      s.at(['annotate', 'deployment/web', 'deprecated.deployment.rollback.to=9']);
      assert.equal(await eventually(() => s.events('DeploymentRollbackRevisionNotFound'), 10_000, 'the not-found event'), 'Warning Unable to find the revision to rollback to.\n');
      const current = s.deploy().metadata.annotations!['deployment.kubernetes.io/revision'];
      s.at(['annotate', 'deployment/web', `deprecated.deployment.rollback.to=${current}`]);
      assert.equal(await eventually(() => s.events('DeploymentRollbackTemplateUnchanged'), 10_000, 'the unchanged event'), 'Warning The rollback revision contains the same template as current deployment "web"\n');
    } finally {
      s.k.ok(['delete', 'namespace', ns, '--wait=false']);
      s.k.dispose();
    }
  });

  test(`kubectl ${v.version}: progressDeadlineSeconds ends a stuck rollout with ProgressDeadlineExceeded`, async () => {
    const ns = `deadline-${v.version.replace('.', '-')}`;
    const s = session(v, ns);
    try {
      s.k.ok(['create', 'namespace', ns]);
      s.at(['apply', '-f', '-'], manifest('nginx:1.25', 'create', '\n  progressDeadlineSeconds: 3'));
      s.rolledOut();
      // No node is plan9: the new ReplicaSet's pod stays Pending and the rollout makes no progress.
      s.at(['patch', 'deployment/web', '-p', '{"spec":{"template":{"spec":{"nodeSelector":{"kubernetes.io/os":"plan9"}}}}}']);
      const r = s.run(['rollout', 'status', 'deployment/web', '--timeout=30s'], 40_000);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(r.stderr, 'error: deployment "web" exceeded its progress deadline\n', v.version);
      const c = s.progressing()!;
      assert.equal(c.status, 'False');
      assert.equal(c.reason, 'ProgressDeadlineExceeded');
      assert.match(c.message, /^ReplicaSet "web-[a-z0-9]+" has timed out progressing\.$/);
      assert.match(s.at(['describe', 'deployment/web']), /Progressing\s+False\s+ProgressDeadlineExceeded/);
      // Undo gets it going again.
      assert.equal(s.at(['rollout', 'undo', 'deployment/web']), 'deployment.apps/web rolled back\n', v.version);
      s.rolledOut();
      assert.equal(s.progressing()?.reason, 'NewReplicaSetAvailable');
    } finally {
      s.k.ok(['delete', 'namespace', ns, '--wait=false']);
      s.k.dispose();
    }
  });
}
