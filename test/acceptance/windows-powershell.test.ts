// The emulated Windows PowerShell 5.1 end to end with the real kubectl (oldest and newest) against `winkube up`:
// `kubectl exec` into a Server Core pod running `powershell -Command` with param()/switch functions, splatting,
// try/catch [T]/finally, switch -regex and array comparison; a script copied in with `kubectl cp` run with
// `powershell -File` and arguments bound to its param() block; a ConfigMap-mounted script with a typed trap and an
// unknown command, whose error view and exit code reach kubectl.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, Kubectl, kubectlEnds, startCluster, type RunningCluster } from './harness.js';

const VERSIONS = kubectlEnds();

let cluster: RunningCluster;
let k: Kubectl;
before(async () => {
  cluster = await startCluster();
  k = new Kubectl(VERSIONS[VERSIONS.length - 1].path, cluster.kubeconfig);
  k.ok(['apply', '-f', '-'], `apiVersion: v1
kind: ConfigMap
metadata: { name: ps-scripts }
data:
  check.ps1: |
    trap [System.IO.IOException] { "trapped: $($_.Exception.Message)"; continue }
    $items = 'web-1', 'db-1', 'web-2'
    ($items -like 'web*') -join ','
    ('a,b,,c' -split ',').Count
    [int]'42' + 1
    throw [System.IO.FileNotFoundException]::new('fatal')
    'after the trap'
    Get-Greeting
---
apiVersion: v1
kind: Pod
metadata: { name: winps }
spec:
  nodeSelector: { kubernetes.io/os: windows }
  containers:
  - name: app
    image: mcr.microsoft.com/windows/servercore:ltsc2022
    command: [powershell, -Command, 'Start-Sleep 3600']
    volumeMounts: [{ name: scripts, mountPath: 'C:\\scripts' }]
  volumes:
  - name: scripts
    configMap: { name: ps-scripts }
`);
  await eventually(() => k.run(['get', 'pod', 'winps', '-o', 'jsonpath={.status.phase}']).stdout === 'Running' || undefined, 60_000, 'winps Running');
});
after(async () => {
  k?.dispose();
  await cluster?.stop();
});

const COMMAND = [
  "$ErrorActionPreference = 'Stop'",
  "function Get-Greeting { param([Parameter(Mandatory=$true)][string]$Name, [switch]$Loud, [int]$Times = 1) $g = ('hello {0} ' -f $Name) * $Times; if ($Loud) { $g.ToUpper().Trim() } else { $g.Trim() } }",
  "if (-not (Test-Path C:\\nope)) { 'no C:\\nope' }",
  'Get-Greeting -Name web -Loud',
  "$p = @{ Name = 'db'; Times = 2 }; Get-Greeting @p",
  'try { Get-Content C:\\nope } catch [System.Management.Automation.ItemNotFoundException] { "caught: $($_.Exception.Message)" } finally { \'finally\' }',
  "switch -regex ('node-12') { '^node-(\\d+)$' { \"node $($Matches[1])\" } }",
  "(@(1,2,3,4) -gt 2) -join ','",
  "'x' -cin 'X','y'; 3 -in 1,2,3",
].join('; ');

const DEPLOY = [
  '[CmdletBinding()]',
  'param(',
  '  [Parameter(Mandatory = $true)][string]$Name,',
  "  [ValidateSet('dev', 'prod')][string]$Env = 'dev',",
  '  [int]$Replicas = 1,',
  '  [switch]$Force',
  ')',
  '$report = [PSCustomObject]@{ Name = $Name; Env = $Env; Replicas = $Replicas }',
  "$pods = foreach ($i in 1..$Replicas) { '{0}-{1}' -f $Name, $i }",
  '"deploying $($report.Name) to $($report.Env) x$($report.Replicas) force=$Force"',
  "$pods -join ' '",
  "switch ($Replicas) { 1 { 'single' } { $_ -gt 1 } { 'scaled' } }",
  '$n = 0',
  'do { $n++ } until ($n -ge $Replicas)',
  '"looped $n"',
  '$summary = @"',
  'name: $Name',
  'bound: $($PSBoundParameters.Keys -join \',\')',
  '"@',
  '$summary',
].join('\r\n');

for (const v of VERSIONS) {
  test(`kubectl ${v.version}: PowerShell language constructs through exec, kubectl cp + -File, and a ConfigMap script`, () => {
    const kk = new Kubectl(v.path, cluster.kubeconfig);
    try {
      const cmd = kk.run(['exec', 'winps', '--', 'powershell', '-NoProfile', '-Command', COMMAND]);
      assert.equal(cmd.stderr, '');
      assert.equal(cmd.code, 0);
      assert.equal(cmd.stdout, [
        'no C:\\nope', 'HELLO WEB', 'hello db hello db', "caught: Cannot find path 'C:\\nope' because it does not exist.", 'finally', 'node 12', '3,4', 'False', 'True', '',
      ].join('\r\n'));

      const dir = mkdtempSync(join(tmpdir(), 'winkube-ps-'));
      const local = join(dir, 'deploy.ps1');
      writeFileSync(local, DEPLOY);
      kk.ok(['cp', local, `winps:/deploy-${v.version}.ps1`]);
      const file = kk.run(['exec', 'winps', '--', 'powershell', '-File', `C:\\deploy-${v.version}.ps1`, '-Name', 'web', '-Replicas', '3', '-Force']);
      assert.equal(file.stderr, '');
      assert.equal(file.code, 0);
      assert.equal(file.stdout, ['deploying web to dev x3 force=True', 'web-1 web-2 web-3', 'scaled', 'looped 3', 'name: web', 'bound: Name,Replicas,Force', ''].join('\r\n'));

      // The trap takes the IOException and goes on; the unknown command at the end is not its type: it is
      // reported and fails the script.
      const check = kk.run(['exec', 'winps', '--', 'powershell', '-File', 'C:\\scripts\\check.ps1']);
      assert.equal(check.stdout, ['web-1,web-2', '4', '43', 'trapped: fatal', 'after the trap', ''].join('\r\n'));
      assert.match(check.stderr, /^Get-Greeting : The term 'Get-Greeting' is not recognized as the name of a cmdlet, function, script file, or operable \r?\nprogram\. Check the spelling of the name, or if a path was included, verify that the path is correct and try again\.\r?\nAt C:\\scripts\\check\.ps1:8 char:1\r?\n\+ Get-Greeting\r?\n\+ ~~~~~~~~~~~~\r?\n    \+ CategoryInfo          : ObjectNotFound: \(Get-Greeting:String\) \[\], CommandNotFoundException\r?\n    \+ FullyQualifiedErrorId : CommandNotFoundException\r?\n/);
      assert.equal(check.code, 1);
      assert.match(check.stderr, /command terminated with exit code 1/);
    } finally {
      kk.dispose();
    }
  });
}
