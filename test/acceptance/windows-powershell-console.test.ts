// Windows PowerShell through `kubectl exec`, as a user at a terminal meets it: `kubectl exec -it … powershell` is a
// console that prompts for a missing mandatory parameter (about_Functions_Advanced_Parameters), while a command
// without a terminal fails the binding; Write-Error and the .NET regex operators print what powershell.exe 5.1 prints.
// The terminal is util-linux `script`, which gives kubectl a pty so that `-t` is honoured.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

let cluster: RunningCluster;
before(async () => {
  cluster = await startCluster();
  const k = new Kubectl(kubectlEnds().at(-1)!.path, cluster.kubeconfig);
  k.ok(['apply', '-f', '-'], `
apiVersion: v1
kind: Pod
metadata: {name: ps}
spec:
  nodeSelector: {node.kubernetes.io/windows-build: '10.0.17763'}
  containers: [{name: ps, image: mcr.microsoft.com/windows/servercore:ltsc2019, command: [ping, -t, localhost]}]
`);
  await eventually(() => k.ok(['get', 'pod', 'ps', '-o', 'jsonpath={.status.phase}']) === 'Running' || undefined, 60_000, 'ps Running');
  k.dispose();
});
after(async () => {
  await cluster?.stop();
});

const REQ = 'function Req { param([Parameter(Mandatory=$true)][string]$Path) "got $Path" }';

/** Types the lines into `kubectl exec -it` on a pseudo-terminal and returns what the terminal showed. */
function terminal(kubectl: string, lines: string[]): string {
  const cmd = `${kubectl} --kubeconfig ${cluster.kubeconfig} exec -it ps -- powershell`;
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { input: lines.map((l) => `${l}\r`).join(''), encoding: 'utf8', timeout: 30_000 });
  return r.stdout;
}

for (const { version, path } of kubectlEnds()) {
  test(`kubectl ${version}: exec -it powershell prompts for a missing mandatory parameter; without -t it fails`, () => {
    const screen = terminal(path, [REQ, 'Req', 'C:\\x', 'exit']);
    assert.match(screen, /PS C:\\> Req\r\ncmdlet Req at command pipeline position 1\r\nSupply values for the following parameters:\r\nPath: C:\\x\r\ngot C:\\x\r\n/);
    const k = new Kubectl(path, cluster.kubeconfig);
    try {
      const piped = k.run(['exec', '-i', 'ps', '--', 'powershell', '-Command', `${REQ}; Req`], 'C:\\x\r\n');
      assert.doesNotMatch(piped.stdout, /Supply values/);
      assert.match(piped.stderr, /^Req : Cannot process command because of one or more missing mandatory parameters: Path\./m);
    } finally {
      k.dispose();
    }
  });
}

test('exec powershell: labelled loops, .NET -replace substitutions and Write-Error in a function', () => {
  const k = new Kubectl(kubectlEnds().at(-1)!.path, cluster.kubeconfig);
  try {
    const ps = (script: string) => k.run(['exec', 'ps', '--', 'powershell', '-NoProfile', '-Command', script]);
    assert.equal(ps(':outer foreach ($i in 1..3) { foreach ($j in 1..3) { if ($j -eq 2) { continue outer }; "$i$j" } }').stdout, '11\r\n21\r\n31\r\n');
    assert.equal(ps("'John Smith' -replace '(?<first>\\w+) (\\w+)', '$1, ${first} $10'").stdout, 'Smith, John $10\r\n');
    const we = ps('function F { Write-Error "disk full" }; F');
    // The last command failed, so powershell -Command exits 1 and kubectl says so after the error view.
    assert.equal(we.stderr, 'F : disk full\r\nAt line:1 char:41\r\n+ function F { Write-Error "disk full" }; F\r\n+                                         ~\r\n'
      + '    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\r\n    + FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException,F\r\n \r\n'
      + 'command terminated with exit code 1\n');
  } finally {
    k.dispose();
  }
});
