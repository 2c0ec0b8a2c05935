// Issue 10 acceptance, GMSA as kubernetes-sigs/windows-gmsa deploys it in the default cluster, with the real kubectl:
// the GMSACredentialSpec CRD, a Role granting `use` on a named spec, the webhook resolving gmsaCredentialSpecName
// (nltest /PARENTDOMAIN in the pod names the domain), and the webhook's refusals behind kube's wrapper
// (windows-gmsa admission-webhook/webhook.go, integration_tests/integration_test.go; windows-facts §6).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
const NS = 'gmsa-apps';
const WRAP = 'admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: ';
let cluster: RunningCluster;
let k: Kubectl;

/** The cred spec the webhook inlines: Go's json.Marshal of `credspec` (keys sorted, compact). */
const CONTENTS = '{"ActiveDirectoryConfig":{"GroupManagedServiceAccounts":[{"Name":"WebApp1","Scope":"CONTOSO"},{"Name":"WebApp1","Scope":"contoso.com"}]},"CmsPlugins":["ActiveDirectory"],"DomainJoinConfig":{"DnsName":"contoso.com","DnsTreeName":"contoso.com","Guid":"244818ae-87ac-4fcd-92ec-e79e5252348a","MachineAccountName":"WebApp1","NetBiosName":"CONTOSO","Sid":"S-1-5-21-2126449477-2524075714-3094792973"}}';

before(async () => {
  cluster = await startCluster();
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
  // The Kubernetes docs' "Configure GMSA" objects: the spec, a ClusterRole to `use` it, a ServiceAccount bound to it.
  k.ok(['apply', '-f', '-'], `
apiVersion: windows.k8s.io/v1
kind: GMSACredentialSpec
metadata: {name: gmsa-webapp1}
credspec:
  ActiveDirectoryConfig:
    GroupManagedServiceAccounts:
    - {Name: WebApp1, Scope: CONTOSO}
    - {Name: WebApp1, Scope: contoso.com}
  CmsPlugins: [ActiveDirectory]
  DomainJoinConfig:
    DnsName: contoso.com
    DnsTreeName: contoso.com
    Guid: 244818ae-87ac-4fcd-92ec-e79e5252348a
    MachineAccountName: WebApp1
    NetBiosName: CONTOSO
    Sid: S-1-5-21-2126449477-2524075714-3094792973
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: webapp1-role}
rules:
- apiGroups: [windows.k8s.io]
  resources: [gmsacredentialspecs]
  verbs: [use]
  resourceNames: [gmsa-webapp1]
---
apiVersion: v1
kind: Namespace
metadata: {name: ${NS}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: webapp1-sa, namespace: ${NS}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: allow-webapp1-sa-use-gmsa, namespace: ${NS}}
subjects:
- {kind: ServiceAccount, name: webapp1-sa, namespace: ${NS}}
roleRef: {kind: ClusterRole, name: webapp1-role, apiGroup: rbac.authorization.k8s.io}
`);
});

after(async () => {
  k?.dispose();
  await cluster?.stop();
});

/** A Windows pod naming GMSA specs at pod level and/or on its container. */
function pod(name: string, o: { sa?: string; podSpec?: string; podContents?: string; containerSpec?: string; ns?: string }): string {
  const win = (spec?: string, contents?: string) => (spec || contents ? { windowsOptions: { ...(spec ? { gmsaCredentialSpecName: spec } : {}), ...(contents ? { gmsaCredentialSpec: contents } : {}) } } : undefined);
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: o.ns ?? NS },
    spec: {
      ...(o.sa ? { serviceAccountName: o.sa } : {}),
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      ...(win(o.podSpec, o.podContents) ? { securityContext: win(o.podSpec, o.podContents) } : {}),
      containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: ['ping', '-t', 'localhost'], ...(win(o.containerSpec) ? { securityContext: win(o.containerSpec) } : {}) }],
    },
  });
}

test('the default cluster ships the GMSACredentialSpec CRD and the webhook in kube-system, on Linux nodes', () => {
  assert.match(k.ok(['api-resources', '--api-group=windows.k8s.io']), /^gmsacredentialspecs\s+windows\.k8s\.io\/v1\s+false\s+GMSACredentialSpec\s*$/m);
  assert.match(k.ok(['get', 'gmsacredentialspecs']), /^gmsa-webapp1\s+\d+s$/m);
  assert.equal(k.ok(['get', 'deploy', '-n', 'kube-system', 'gmsa-webhook', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']), 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.13.0');
  for (const n of k.ok(['get', 'pods', '-n', 'kube-system', '-l', 'app=gmsa-webhook', '-o', 'jsonpath={.items[*].spec.nodeName}']).split(' ')) {
    assert.equal(k.ok(['get', 'node', n, '-o', 'jsonpath={.metadata.labels.kubernetes\\.io/os}']), 'linux', n);
  }
  for (const kind of ['mutatingwebhookconfiguration', 'validatingwebhookconfiguration']) {
    const svc = JSON.parse(k.ok(['get', kind, 'gmsa-webhook', '-o', 'jsonpath={.webhooks[0].clientConfig.service}']));
    assert.deepEqual({ name: svc.name, namespace: svc.namespace }, { name: 'gmsa-webhook', namespace: 'kube-system' }, kind);
  }
  // The webhook asks in the pod's namespace (a LocalSubjectAccessReview), where the RoleBinding is.
  const canUse = (sa: string) => k.run(['auth', 'can-i', 'use', 'gmsacredentialspecs.windows.k8s.io/gmsa-webapp1', '-n', NS, '--as', `system:serviceaccount:${NS}:${sa}`]).stdout.trim();
  assert.equal(canUse('webapp1-sa'), 'yes');
  assert.equal(canUse('default'), 'no');
});

test('a pod naming the spec gets its contents filled in, and nltest /PARENTDOMAIN in it names the domain', async () => {
  k.ok(['apply', '-f', '-'], pod('webapp1', { sa: 'webapp1-sa', podSpec: 'gmsa-webapp1' }));
  assert.equal(k.ok(['get', 'pod', 'webapp1', '-n', NS, '-o', 'jsonpath={.spec.securityContext.windowsOptions.gmsaCredentialSpec}']), CONTENTS);
  // The patched pod keeps the system metadata the API server sets after mutating admission.
  assert.match(k.ok(['get', 'pod', 'webapp1', '-n', NS, '-o', 'jsonpath={.metadata.uid} {.metadata.creationTimestamp}']), /^[0-9a-f-]{36} \d{4}-\d\d-\d\dT/);
  // Container level too: the patch lands on that container.
  k.ok(['apply', '-f', '-'], pod('webapp1-container', { sa: 'webapp1-sa', containerSpec: 'gmsa-webapp1' }));
  assert.equal(k.ok(['get', 'pod', 'webapp1-container', '-n', NS, '-o', 'jsonpath={.spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec}']), CONTENTS);
  await eventually(() => k.ok(['get', 'pod', 'webapp1', '-n', NS, '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, 'webapp1 Running');
  const out = k.ok(['exec', '-n', NS, 'webapp1', '--', 'nltest', '/PARENTDOMAIN']);
  assert.ok(out.startsWith('contoso.com'), out);
  assert.match(out, /The command completed successfully/);
});

test('without a binding to `use` the spec, the pod is refused with the webhook\'s text in kube\'s wrapper', () => {
  for (const kv of kubectlEnds()) {
    const kk = new Kubectl(kv.path, cluster.kubeconfig);
    try {
      const r = kk.run(['apply', '-f', '-'], pod(`no-grant-${kv.version.replace(/\W/g, '')}`, { podSpec: 'gmsa-webapp1' }));
      assert.notEqual(r.code, 0, kv.version);
      assert.ok(r.stderr.includes(`${WRAP}service account "default" is not authorized to \`use\` GMSA cred spec "gmsa-webapp1"\n`), `${kv.version}: ${r.stderr}`);
    } finally {
      kk.dispose();
    }
  }
});

test('a spec name that does not exist is refused by the mutating webhook', () => {
  for (const kv of kubectlEnds()) {
    const kk = new Kubectl(kv.path, cluster.kubeconfig);
    try {
      const r = kk.run(['apply', '-f', '-'], pod('unknown-spec', { sa: 'webapp1-sa', podSpec: 'i-sure-dont-exist' }));
      assert.notEqual(r.code, 0, kv.version);
      assert.ok(r.stderr.includes(`${WRAP}cred spec i-sure-dont-exist does not exist\n`), `${kv.version}: ${r.stderr}`);
    } finally {
      kk.dispose();
    }
  }
});

test('pre-set contents that differ from the named spec, or contents without a name, are refused', () => {
  const mismatch = k.run(['apply', '-f', '-'], pod('mismatch', { sa: 'webapp1-sa', podSpec: 'gmsa-webapp1', podContents: '{"DomainJoinConfig":{"DnsName":"fabrikam.com"}}' }));
  assert.notEqual(mismatch.code, 0);
  assert.ok(mismatch.stderr.includes(`${WRAP}the GMSA cred spec contents for pod "mismatch" does not match the contents of GMSA resource "gmsa-webapp1"\n`), mismatch.stderr);
  const nameless = k.run(['apply', '-f', '-'], pod('nameless', { sa: 'webapp1-sa', podContents: CONTENTS }));
  assert.notEqual(nameless.code, 0);
  assert.ok(nameless.stderr.includes(`${WRAP}pod "nameless" has a GMSA cred spec set, but does not define the name of the corresponding resource\n`), nameless.stderr);
  // Matching contents, key order aside, are admitted.
  const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(CONTENTS) as Record<string, unknown>).reverse()));
  assert.equal(k.run(['apply', '-f', '-'], pod('matching', { sa: 'webapp1-sa', podSpec: 'gmsa-webapp1', podContents: reordered })).code, 0);
});

test('a namespace labelled windows.k8s.io/disabled=true is skipped by the webhooks (the chart\'s opt-out)', () => {
  k.ok(['create', 'namespace', 'no-gmsa']);
  k.ok(['label', 'namespace', 'no-gmsa', 'windows.k8s.io/disabled=true']);
  k.ok(['apply', '-f', '-'], pod('untouched', { ns: 'no-gmsa', podSpec: 'gmsa-webapp1' }));
  assert.equal(k.ok(['get', 'pod', 'untouched', '-n', 'no-gmsa', '-o', 'jsonpath={.spec.securityContext.windowsOptions.gmsaCredentialSpec}']), '');
});
