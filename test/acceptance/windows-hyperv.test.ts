// hyperv.go reproduced black-box with kubectl (windows-facts §7): with RuntimeClass runhcs-wcow-hypervisor a pod of two
// containers runs, and a HostProcess pod on the node finds its utility VM with Get-ComputeProcess (a VirtualMachine
// owned by containerd-shim-runhcs-v1.exe; one UVM per pod).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlBinaries, startCluster, type RunningCluster } from './harness.js';

const FLEET = new URL('../../../test/fixtures/hyperv-fleet.yaml', import.meta.url).pathname;
const NEWEST = kubectlBinaries().at(-1)!;
let cluster: RunningCluster;
let k: Kubectl;

before(async () => {
  cluster = await startCluster({ fleet: FLEET });
  k = new Kubectl(NEWEST.path, cluster.kubeconfig);
});

after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const phase = (name: string) => k.ok(['get', 'pod', name, '-o', 'jsonpath={.status.phase}']);

test('hyperv.go: a Hyper-V isolated pod runs, and Get-ComputeProcess on the host shows its utility VM', async () => {
  k.ok(['apply', '-f', '-'], `
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: runhcs-wcow-hypervisor}
handler: runhcs-wcow-hypervisor
---
apiVersion: v1
kind: Pod
metadata: {name: hv}
spec:
  runtimeClassName: runhcs-wcow-hypervisor
  nodeName: win-hv
  containers:
  - {name: one, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: [cmd, /c, ping, -t, localhost]}
  - {name: two, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: [cmd, /c, ping, -t, localhost]}
`);
  await eventually(() => phase('hv') === 'Running' || undefined, 30_000, 'hv Running');
  const query = "Get-ComputeProcess | ? { $_.Type -EQ 'VirtualMachine' -and $_.Owner -EQ 'containerd-shim-runhcs-v1.exe' } | Measure-Object | % Count";
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: hpc}
spec:
  restartPolicy: Never
  hostNetwork: true
  nodeName: win-hv
  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM'}}
  containers:
  - name: c
    image: mcr.microsoft.com/windows/nanoserver:ltsc2022
    command: [powershell.exe, -Command, "${query}"]
`);
  await eventually(() => ['Succeeded', 'Failed'].includes(phase('hpc')) || undefined, 30_000, 'hpc finished');
  assert.equal(phase('hpc'), 'Succeeded', k.ok(['logs', 'hpc']));
  assert.equal(k.ok(['logs', 'hpc']).trim(), '1', 'one utility VM for the one Hyper-V pod');
  // The pod's two containers are compute systems of their own beside the UVM.
  const all = k.ok(['exec', 'hv', '-c', 'one', '--', 'cmd', '/c', 'echo', 'alive']);
  assert.match(all, /alive/);
});
