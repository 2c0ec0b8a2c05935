// Windows PowerShell 5.1 and PowerShell 7 in Windows pods, black-box with kubectl 1.27 and 1.33 against `winkube up`:
// an error record prints in NormalView from powershell.exe and in ConciseView from pwsh.exe (PowerShell's
// DefaultFormatters/PowerShellCore_format_ps1xml.cs), through `kubectl exec` and `kubectl logs`.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
let kubectls: Kubectl[];

before(async () => {
  cluster = await startCluster();
  kubectls = kubectlEnds().map((b) => new Kubectl(b.path, cluster.kubeconfig));
  const k = kubectls[0];
  const node = k.ok(['get', 'nodes', '-l', 'node.kubernetes.io/windows-build=10.0.20348', '-o', 'jsonpath={.items[0].metadata.name}']);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: pwsh}
spec:
  nodeName: ${node}
  tolerations: [{operator: Exists}]
  containers:
  - name: c
    image: mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022
    command: [pwsh, -Command, "Write-Error 'started badly'; Start-Sleep 3600"]
---
apiVersion: v1
kind: Pod
metadata: {name: winps}
spec:
  nodeName: ${node}
  tolerations: [{operator: Exists}]
  containers:
  - name: c
    image: mcr.microsoft.com/windows/servercore:ltsc2022
    command: [powershell, -Command, "Write-Error 'started badly'; Start-Sleep 3600"]
`);
  for (const p of ['pwsh', 'winps']) await eventually(() => k.ok(['get', 'pod', p, '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, `${p} Running`);
});
after(async () => {
  for (const k of kubectls ?? []) k.dispose();
  await cluster?.stop();
});

test('kubectl logs: pwsh writes "<reason>: <message>", powershell.exe the NormalView with CategoryInfo', async () => {
  for (const k of kubectls) {
    assert.equal(await eventually(() => k.ok(['logs', 'pwsh']) || undefined, 20_000, 'pwsh log'), 'Write-Error: started badly\r\n');
    const winps = await eventually(() => k.ok(['logs', 'winps']) || undefined, 20_000, 'winps log');
    assert.equal(winps, 'Write-Error \'started badly\'; Start-Sleep 3600 : started badly\r\n'
      + '    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\r\n'
      + '    + FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException\r\n \r\n');
  }
});

test('kubectl exec: ConciseView in pwsh for cmdlet, throw and function errors; $PSVersionTable says Core', () => {
  for (const k of kubectls) {
    for (const [script, stderr] of [
      ['Get-Content C:\\nope', "Get-Content: Cannot find path 'C:\\nope' because it does not exist.\r\n"],
      ['throw "boom"', 'Exception: boom\r\n'],
      ['function F { Write-Error "bad $args" }\nF 1 2', 'F: \r\nLine |\r\n   2 |  F 1 2\r\n     |  ~~~~~\r\n     | bad 1 2\r\n'],
    ]) {
      const r = k.run(['exec', 'pwsh', '--', 'pwsh', '-NoProfile', '-Command', script]);
      assert.equal(r.code, 1, `${k.bin} ${script}`);
      assert.equal(r.stderr.replace(/command terminated with exit code 1\n$/, ''), stderr, `${k.bin} ${script}`);
    }
    assert.equal(k.ok(['exec', 'pwsh', '--', 'pwsh', '-c', '$PSVersionTable.PSEdition; $PSVersionTable.PSVersion.ToString()']), 'Core\r\n7.4.6\r\n');
    assert.equal(k.ok(['exec', 'winps', '--', 'powershell', '-c', '$PSVersionTable.PSEdition']), 'Desktop\r\n');
  }
});
