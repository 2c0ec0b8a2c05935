// Issue 8 acceptance: the Kubernetes Windows e2e tests that need no network model, reproduced black-box with kubectl
// against `winkube up` (test/e2e/windows: security_context.go, volumes.go, host_process.go, gmsa_kubelet.go;
// windows-facts §7).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  // gmsa_kubelet.go sets gmsaCredentialSpec without a name, which the default cluster's GMSA webhook refuses (as it
  // would on a real cluster running it): the e2e suite assumes no webhook, so this cluster goes without.
  cluster = await startCluster({ args: ['--gmsa-webhook=false'] });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const phase = (pod: string) => k.ok(['get', 'pod', pod, '-o', 'jsonpath={.status.phase}']);
const running = (pod: string) => eventually(() => phase(pod) === 'Running', 30_000, `${pod} Running`);

test('security_context.go: whoami is ContainerUser by default, ContainerAdministrator when asked; container overrides pod', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: sc-users}
spec:
  restartPolicy: Never
  nodeSelector: {kubernetes.io/os: windows}
  securityContext: {windowsOptions: {runAsUserName: ContainerAdministrator}}
  containers:
  - {name: container0, image: registry.k8s.io/e2e-test-images/nonroot:1.4, command: [cmd, /S, /C, echo %username%], securityContext: {windowsOptions: {runAsUserName: ContainerUser}}}
  - {name: container1, image: registry.k8s.io/e2e-test-images/nonroot:1.4, command: [cmd, /S, /C, echo %username%]}
---
apiVersion: v1
kind: Pod
metadata: {name: sc-default}
spec:
  restartPolicy: Never
  nodeSelector: {kubernetes.io/os: windows}
  containers: [{name: c, image: registry.k8s.io/e2e-test-images/nonroot:1.4, command: [cmd, /S, /C, echo %username%]}]
`);
  await eventually(() => phase('sc-users') === 'Succeeded' && phase('sc-default') === 'Succeeded', 30_000, 'both Succeeded');
  assert.equal(k.ok(['logs', 'sc-users', '-c', 'container0']).trim(), 'ContainerUser');
  assert.equal(k.ok(['logs', 'sc-users', '-c', 'container1']).trim(), 'ContainerAdministrator');
  assert.equal(k.ok(['logs', 'sc-default']).trim(), 'ContainerUser');
});

test('volumes.go: a read-only emptyDir or hostPath mount refuses writes with "Access is denied."; the writable one reads back', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: win-volumes}
spec:
  nodeSelector: {node.kubernetes.io/windows-build: "10.0.17763"}
  containers:
  - name: rw
    image: mcr.microsoft.com/windows/servercore:ltsc2019
    command: [ping, -t, localhost]
    volumeMounts: [{name: empty, mountPath: 'C:\\test-volume'}, {name: host, mountPath: 'C:\\tmp-host'}]
  - name: ro
    image: mcr.microsoft.com/windows/servercore:ltsc2019
    command: [ping, -t, localhost]
    volumeMounts: [{name: empty, mountPath: 'C:\\test-volume', readOnly: true}, {name: host, mountPath: 'C:\\tmp-host', readOnly: true}]
  volumes:
  - {name: empty, emptyDir: {}}
  - {name: host, hostPath: {path: 'C:\\tmp', type: DirectoryOrCreate}}
`);
  await running('win-volumes');
  for (const dir of ['C:\\test-volume', 'C:\\tmp-host']) {
    const denied = k.run(['exec', 'win-volumes', '-c', 'ro', '--', 'cmd', '/c', `echo windows-volume-test > ${dir}\\test-file.txt`]);
    assert.equal(denied.stderr.split('\n')[0].trim(), 'Access is denied.', dir);
    k.ok(['exec', 'win-volumes', '-c', 'rw', '--', 'cmd', '/c', `echo windows-volume-test> ${dir}\\test-file.txt`]);
    assert.equal(k.ok(['exec', 'win-volumes', '-c', 'ro', '--', 'cmd', '/c', `type ${dir}\\test-file.txt`]).trim(), 'windows-volume-test', dir);
  }
});

test('ConfigMap and Secret volumes and env reach a Windows container (type, set)', async () => {
  k.ok(['create', 'configmap', 'app-config', '--from-literal=key=value-1']);
  k.ok(['create', 'secret', 'generic', 'mysecret', '--from-literal=username=admin']);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: win-config}
spec:
  nodeSelector: {node.kubernetes.io/windows-build: "10.0.17763"}
  containers:
  - name: c
    image: mcr.microsoft.com/windows/servercore:ltsc2019
    command: [ping, -t, localhost]
    env: [{name: USERNAME, valueFrom: {secretKeyRef: {name: mysecret, key: username}}}, {name: EXAMPLE_PROPERTY_1, value: hello}]
    volumeMounts: [{name: cfg, mountPath: /etc/config}]
  volumes: [{name: cfg, configMap: {name: app-config}}]
`);
  await running('win-config');
  assert.equal(k.ok(['exec', 'win-config', '--', 'cmd', '/c', 'type C:\\etc\\config\\key']), 'value-1');
  const set = k.ok(['exec', 'win-config', '--', 'cmd', '/c', 'set']);
  assert.match(set, /^EXAMPLE_PROPERTY_1=hello\r?$/m);
  // seed-coverage: a pod-set USERNAME hides the Windows built-in
  assert.match(set, /^USERNAME=admin\r?$/m);
  // The kubelet's Service variables (envvars.go): the master Service at least.
  assert.match(set, /^KUBERNETES_SERVICE_HOST=10\.96\.0\.1\r?$/m);
  assert.match(set, /^KUBERNETES_PORT_443_TCP=tcp:\/\/10\.96\.0\.1:443\r?$/m);
});

test('host_process.go: a HostProcess container runs as a host account with the node\'s hostname', async () => {
  const node = k.ok(['get', 'nodes', '-l', 'node.kubernetes.io/windows-build=10.0.20348', '-o', 'jsonpath={.items[0].metadata.name}']);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: hpc}
spec:
  restartPolicy: Never
  hostNetwork: true
  nodeName: ${node}
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM'}}
  containers:
  - name: c
    image: mcr.microsoft.com/windows/nanoserver:ltsc2022
    command: [powershell.exe, -Command, "& {if ('${node}' -ine \\"$(hostname)\\") { exit -1 }; whoami}"]
`);
  await eventually(() => ['Succeeded', 'Failed'].includes(phase('hpc')), 30_000, 'hpc finished');
  assert.equal(phase('hpc'), 'Succeeded', k.ok(['logs', 'hpc']));
  assert.equal(k.ok(['logs', 'hpc']).trim().toLowerCase(), 'nt authority\\system');
});

test('gmsa_kubelet.go: nltest /PARENTDOMAIN names the credential spec\'s domain, container over pod', async () => {
  const spec = (domain: string) => JSON.stringify({ CmsPlugins: ['ActiveDirectory'], DomainJoinConfig: { Sid: 'S-1-5-21-1', MachineAccountName: 'gmsa', Guid: '1', DnsTreeName: domain, DnsName: domain, NetBiosName: domain.split('.')[0].toUpperCase() } });
  k.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'with-correct-gmsa-specs' },
    spec: {
      nodeSelector: { 'node.kubernetes.io/windows-build': '10.0.17763' },
      securityContext: { windowsOptions: { gmsaCredentialSpec: spec('acme.com') } },
      containers: [
        { name: 'container1', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: ['ping', '-t', 'localhost'] },
        { name: 'container2', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: ['ping', '-t', 'localhost'], securityContext: { windowsOptions: { gmsaCredentialSpec: spec('contoso.org') } } },
      ],
    },
  }));
  await running('with-correct-gmsa-specs');
  for (const [c, domain] of [['container1', 'acme.com'], ['container2', 'contoso.org']]) {
    const out = k.ok(['exec', 'with-correct-gmsa-specs', '-c', c, '--', 'nltest', '/PARENTDOMAIN']);
    assert.ok(out.startsWith(domain), `${c}: ${out}`);
    assert.match(out, /The command completed successfully/);
  }
});

test('HugePages are not supported on Windows (seed 001 "Feature Restrictions"): no Windows node has the capacity', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: huge}
spec:
  nodeSelector: {kubernetes.io/os: windows}
  containers: [{name: c, image: mcr.microsoft.com/windows/nanoserver:ltsc2019, resources: {limits: {hugepages-2Mi: 100Mi, memory: 100Mi, cpu: 100m}}}]
`);
  const windowsNodes = k.ok(['get', 'nodes', '-l', 'kubernetes.io/os=windows', '-o', 'name']).trim().split('\n').length;
  const msg = await eventually(() => k.ok(['get', 'events', '--field-selector', 'involvedObject.name=huge,reason=FailedScheduling', '-o', 'jsonpath={.items[0].message}']), 20_000, 'FailedScheduling');
  assert.match(msg, new RegExp(`${windowsNodes} Insufficient hugepages-2Mi`));
  assert.equal(k.ok(['get', 'nodes', '-l', 'kubernetes.io/os=windows', '-o', 'jsonpath={.items[*].status.capacity.hugepages-2Mi}']).trim(), '');
});
