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
---
apiVersion: v1
kind: Pod
metadata: {name: e2ebb}
spec:
  nodeName: ${node}
  tolerations: [{operator: Exists}]
  containers:
  - name: c
    image: registry.k8s.io/e2e-test-images/busybox:1.36.1-1
    args: [ping -t localhost > NUL]
`);
  for (const p of ['pwsh', 'winps', 'e2ebb']) await eventually(() => k.ok(['get', 'pod', p, '-o', 'jsonpath={.status.phase}']) === 'Running', 30_000, `${p} Running`);
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

test('kubectl exec: PowerShell 7 operators run in pwsh and are parse errors in powershell.exe; cmd built-ins take quoted paths', () => {
  const kubectlExit1 = /command terminated with exit code 1\n$/;
  kubectls.forEach((k, n) => {
    const seven = '$k = 2; $n = $null; $n ?? "dflt"; $n ? 1 : 2; $n ??= 5; $n; cmd /c exit 4 || "failed $LASTEXITCODE"; 1..3 | ForEach-Object -Parallel { $_ * $using:k }; $PSVersionTable.PSVersion.Major';
    assert.equal(k.ok(['exec', 'pwsh', '--', 'pwsh', '-NoProfile', '-Command', seven]), 'dflt\r\n2\r\n5\r\nfailed 4\r\n2\r\n4\r\n6\r\n7\r\n', k.bin);
    const r = k.run(['exec', 'winps', '--', 'powershell', '-NoProfile', '-Command', 'echo a && echo b']);
    assert.equal(r.code, 1, k.bin);
    assert.equal(r.stderr.replace(kubectlExit1, ''), 'At line:1 char:8\r\n+ echo a && echo b\r\n+        ~~\r\n'
      + "The token '&&' is not a valid statement separator in this version.\r\n"
      + '    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n'
      + '    + FullyQualifiedErrorId : InvalidEndOfLine\r\n \r\n', k.bin);
    // One argv word per argument: the runtime quotes `C:\lp n\x y` itself (hcsshim escapeArgs), cmd's MD takes it.
    const dir = `C:\\lp ${n}\\x y`;
    assert.equal(k.ok(['exec', 'winps', '--', 'cmd', '/c', 'mkdir', dir]), '', k.bin);
    assert.equal(k.ok(['exec', 'winps', '--', 'cmd', '/c', 'dir', '/b', `C:\\lp ${n}`]), 'x y\r\n', k.bin);
    const again = k.run(['exec', 'winps', '--', 'cmd', '/c', 'mkdir', dir]);
    assert.equal(again.stderr.replace(kubectlExit1, ''), `A subdirectory or file ${dir} already exists.\r\n`, k.bin);
    // The whole line in one argv word reaches cmd as `mkdir \"C:\lp\x\"`: the quote left in the name is refused.
    const oneWord = k.run(['exec', 'winps', '--', 'cmd', '/c', `mkdir "C:\\lq${n}\\x"`]);
    assert.equal(oneWord.code, 1, k.bin);
    assert.equal(oneWord.stderr.replace(kubectlExit1, ''), 'The filename, directory name, or volume label syntax is incorrect.\r\n', k.bin);
  });
});

// kubernetes test/images/busybox/Dockerfile_windows: busybox-w32's applets (sh among them) in C:\bin, first on PATH;
// the image's ENTRYPOINT cmd.exe /s /c runs the pod's args.
test('kubectl exec: the Windows e2e busybox image has sh (busybox-w32) and runs args through cmd.exe /s /c', () => {
  for (const k of kubectls) {
    assert.equal(k.ok(['exec', 'e2ebb', '--', 'sh', '-c', 'echo $((6*7)); ls /bin/sh.exe']), '42\n/bin/sh.exe\n', k.bin);
    assert.equal(k.ok(['exec', 'e2ebb', '--', 'cmd', '/c', 'where', 'sh']), 'C:\\bin\\sh.exe\r\n', k.bin);
  }
});
