import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { fakeEnv, request, run, until, type FakeEnvOptions } from './testing/fake-env.js';

interface Case { name: string; env?: FakeEnvOptions; script: string; stdout?: string | RegExp; stderr?: string | RegExp; code?: number }

const NET: FakeEnvOptions['net'] = {
  a: { 'kubernetes.default.svc.cluster.local': '10.96.0.1', 'web.default.svc.cluster.local': '10.96.5.5' },
  http: {
    '10.96.5.5:80': () => ({ status: 200, headers: { 'Content-Type': 'text/html' }, body: Buffer.from('<html>hi</html>') }),
    '10.96.5.5:8080': () => ({ status: 404, headers: {}, body: Buffer.alloc(0) }),
    '10.96.5.5:9000': () => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{"name":"web","replicas":2}') }),
  },
};

const notRecognized = (name: string, col = 1) => `${name} : The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the \r\nspelling of the name, or if a path was included, verify that the path is correct and try again.\r\nAt line:1 char:${col}\r\n`;

const cases: Case[] = [
  { name: 'Write-Host and Write-Output', script: 'Write-Host hello; Write-Output "x=$(1+2)"; echo $env:USERNAME', stdout: 'hello\r\nx=3\r\nContainerAdministrator\r\n', code: 0 },
  { name: 'unknown cmdlet (5.1 error view, exit 1)', script: 'foo', stderr: `${notRecognized('foo')}+ foo\r\n+ ~~~\r\n    + CategoryInfo          : ObjectNotFound: (foo:String) [], CommandNotFoundException\r\n    + FullyQualifiedErrorId : CommandNotFoundException\r\n \r\n`, code: 1 },
  { name: 'the script goes on after an error; exit code follows the last statement', script: 'nope; Write-Output after', stdout: 'after\r\n', stderr: /^nope : The term 'nope' is not recognized/, code: 0 },
  { name: 'exit N', script: 'Write-Output a; exit 7; Write-Output b', stdout: 'a\r\n', code: 7 },
  { name: 'pipeline with ForEach-Object', script: '$a = 1,2,3; $a | % { $_ * 2 }; $a.Count', stdout: '2\r\n4\r\n6\r\n3\r\n' },
  { name: 'Where-Object and Select-Object', script: '1..10 | Where-Object { $_ % 3 -eq 0 } | Select-Object -First 2', stdout: '3\r\n6\r\n' },
  { name: 'while loop with break', script: '$i = 0; while ($true) { $i++; if ($i -ge 3) { break } }; $i', stdout: '3\r\n' },
  { name: 'foreach and -f', script: 'foreach ($n in "a","b") { "{0}-{1}" -f $n, $n.ToUpper() }', stdout: 'a-A\r\nb-B\r\n' },
  { name: 'hashtable', script: '$h = @{}; $h["k"] = 1; $h.k += 2; $h.k; $h.Count', stdout: '3\r\n1\r\n' },
  { name: 'string operators', script: '"Web-0" -like "web-*"; "abc" -match "b(c)"; $Matches[1]; "a,b" -split ","; "x" * 3', stdout: 'True\r\nTrue\r\nc\r\na\r\nb\r\nxxx\r\n' },
  { name: 'try/catch', script: 'try { throw "bad" } catch { "caught: $($_.Exception.Message)" }', stdout: 'caught: bad\r\n' },
  { name: 'throw ends the script with 1', script: 'throw "boom"; "never"', stderr: /^boom\r\nAt line:1 char:1\r\n\+ throw "boom"; "never"\r\n\+ ~~~~~~~~~~~~\r\n    \+ CategoryInfo          : OperationStopped: \(boom:String\) \[\], RuntimeException\r\n/, stdout: '', code: 1 },
  { name: 'method on $null', script: '$x.Foo()', stderr: /^You cannot call a method on a null-valued expression\.\r\nAt line:1 char:1\r\n\+ \$x\.Foo\(\)\r\n\+ ~~~~~~~~\r\n    \+ CategoryInfo          : InvalidOperation: \(:\) \[\], RuntimeException\r\n    \+ FullyQualifiedErrorId : InvokeMethodOnNull\r\n/, code: 1 },
  { name: 'parse error', script: 'if ($true) {', stderr: "At line:1 char:13\r\n+ if ($true) {\r\n+             ~\r\nMissing closing '}' in statement block or type definition.\r\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : MissingEndCurlyBrace\r\n \r\n", code: 1 },
  { name: 'native commands: hostname, whoami, $LASTEXITCODE', script: 'hostname; whoami; cmd /c exit 3; $LASTEXITCODE', stdout: 'web-0\r\nuser manager\\containeradministrator\r\n3\r\n' },
  { name: 'native exit code makes powershell exit 1', script: 'cmd /c exit 3', code: 1 },
  { name: 'exit $LASTEXITCODE', script: 'cmd /c exit 3; exit $LASTEXITCODE', code: 3 },
  { name: 'Get-ChildItem table', script: 'Get-ChildItem C:\\', stdout: '\r\n\r\n    Directory: C:\\\r\n\r\n\r\nMode                LastWriteTime         Length Name\r\n----                -------------         ------ ----\r\nd-----         6/1/2024  12:00 PM                Program Files\r\nd-----         6/1/2024  12:00 PM                Program Files (x86)\r\nd-----         6/1/2024  12:00 PM                ro\r\nd-----         6/1/2024  12:00 PM                Users\r\nd-----         6/1/2024  12:00 PM                Windows\r\n-a----         6/1/2024  12:00 PM             88 License.txt\r\n\r\n\r\n' },
  { name: 'Get-Content missing', script: 'Get-Content C:\\nope.txt', stderr: "Get-Content : Cannot find path 'C:\\nope.txt' because it does not exist.\r\nAt line:1 char:1\r\n+ Get-Content C:\\nope.txt\r\n+ ~~~~~~~~~~~~~~~~~~~~~~~\r\n    + CategoryInfo          : ObjectNotFound: (C:\\nope.txt:String) [Get-Content], ItemNotFoundException\r\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.GetContentCommand\r\n \r\n", code: 1 },
  { name: 'Set-Content then Get-Content', script: 'Set-Content C:\\f.txt "one","two"; Get-Content C:\\f.txt; (Get-Content C:\\f.txt -Raw).Length', stdout: 'one\r\ntwo\r\n10\r\n' },
  { name: '> writes UTF-16 that Get-Content reads back', script: '"x" > C:\\u.txt; Get-Content C:\\u.txt', stdout: 'x\r\n' },
  { name: 'Test-Path', script: 'Test-Path C:\\Windows; Test-Path C:\\nope', stdout: 'True\r\nFalse\r\n' },
  { name: 'Get-Location', script: 'Get-Location', stdout: '\r\nPath\r\n----\r\nC:\\\r\n\r\n' },
  { name: 'Get-Date uses the container clock', script: 'Get-Date; (Get-Date).Year; Get-Date -Format "yyyy-MM-dd HH:mm"', stdout: '\r\nSaturday, June 1, 2024 12:00:00 PM\r\n\r\n2024\r\n2024-06-01 12:00\r\n' },
  { name: 'Start-Sleep on the container clock', script: 'Start-Sleep -Seconds 2; Start-Sleep 1; "done"', stdout: 'done\r\n' },
  { name: 'pscustomobject table', script: '[pscustomobject]@{Name="a"; Value=1}', stdout: '\r\nName Value\r\n---- -----\r\na        1\r\n\r\n' },
  { name: 'hashtable output', script: '@{a=1}', stdout: '\r\nName                           Value\r\n----                           -----\r\na                              1\r\n\r\n' },
  { name: '$PSVersionTable', script: '$PSVersionTable.PSVersion', stdout: '\r\nMajor  Minor  Build  Revision\r\n-----  -----  -----  --------\r\n5      1      17763  6893\r\n\r\n' },
  { name: 'static .NET members', script: '[Environment]::MachineName; [System.Text.Encoding]::UTF8.GetBytes("abc").Length; [Math]::Round(2.567, 1)', stdout: 'WEB-0\r\n3\r\n2.6\r\n' },
  { name: 'Resolve-DnsName table', script: 'Resolve-DnsName kubernetes', stdout: '\r\nName                                           Type   TTL   Section    IPAddress\r\n----                                           ----   ---   -------    ---------\r\nkubernetes.default.svc.cluster.local           A      5     Answer     10.96.0.1\r\n\r\n' },
  { name: 'Resolve-DnsName: a dotted partial name is not searched (seed 002 DNS)', script: 'Resolve-DnsName kubernetes.default', stderr: /^Resolve-DnsName : kubernetes\.default : DNS name does not exist\r\n/, code: 1 },
  { name: 'Resolve-DnsName NXDOMAIN', script: 'Resolve-DnsName nope', stderr: "Resolve-DnsName : nope : DNS name does not exist\r\nAt line:1 char:1\r\n+ Resolve-DnsName nope\r\n+ ~~~~~~~~~~~~~~~~~~~~\r\n    + CategoryInfo          : ResourceUnavailable: (nope:String) [Resolve-DnsName], Win32Exception\r\n    + FullyQualifiedErrorId : DNS_ERROR_RCODE_NAME_ERROR,Microsoft.DnsClient.Commands.ResolveDnsName\r\n \r\n", code: 1 },
  { name: 'Test-NetConnection -Port open', script: 'Test-NetConnection web -Port 80', stdout: '\r\n\r\nComputerName     : web\r\nRemoteAddress    : 10.96.5.5\r\nRemotePort       : 80\r\nInterfaceAlias   : vEthernet (cbr0_ep)\r\nSourceAddress    : 10.244.1.5\r\nTcpTestSucceeded : True\r\n\r\n\r\n' },
  { name: 'Test-NetConnection -Port refused', script: 'Test-NetConnection web -Port 81', stdout: /^WARNING: TCP connect to \(10\.96\.5\.5 : 81\) failed\r\n\r\n\r\nComputerName           : web\r\n(.*\r\n){4}PingSucceeded          : True\r\nPingReplyDetails \(RTT\) : 0 ms\r\nTcpTestSucceeded       : False\r\n/ },
  { name: 'Test-NetConnection -InformationLevel Quiet', script: 'Test-NetConnection web -Port 80 -InformationLevel Quiet', stdout: 'True\r\n' },
  { name: 'Invoke-WebRequest -UseBasicParsing', script: '$r = Invoke-WebRequest http://web -UseBasicParsing; $r.StatusCode; $r.Content', stdout: '200\r\n<html>hi</html>\r\n' },
  { name: 'Invoke-WebRequest without -UseBasicParsing on Server Core', script: 'Invoke-WebRequest http://web', stderr: /^Invoke-WebRequest : The response content cannot be parsed because the Internet Explorer engine is not available, or \r\nInternet Explorer's first-launch configuration is not complete\. Specify the UseBasicParsing parameter and try again\.\r\n/, code: 1 },
  { name: 'curl is Invoke-WebRequest in 5.1', script: '(curl http://web -UseBasicParsing).StatusCode', stdout: '200\r\n' },
  { name: 'Invoke-WebRequest 404', script: 'iwr http://web:8080 -UseBasicParsing', stderr: /^Invoke-WebRequest : The remote server returned an error: \(404\) Not Found\.\r\n/, code: 1 },
  { name: 'Invoke-WebRequest refused', script: 'iwr http://web:81 -UseBasicParsing', stderr: /^Invoke-WebRequest : Unable to connect to the remote server\r\n.*\r\n.*\r\n.*\r\n    \+ CategoryInfo          : InvalidOperation: \(System\.Net\.HttpWebRequest:HttpWebRequest\) \[Invoke-WebRequest\], WebException\r\n/, code: 1 },
  { name: 'Invoke-RestMethod parses JSON', script: '$o = Invoke-RestMethod http://web:9000; $o.replicas; $o.name', stdout: '2\r\nweb\r\n' },
  { name: 'Get-NetIPAddress from the adapter: IPv6 then IPv4', script: '$ip = Get-NetAdapter | Get-NetIPAddress; $ip[1].IPAddress; $ip.Count', stdout: '10.244.1.5\r\n2\r\n' },
  { name: 'ConvertTo-Json 5.1 spacing', script: '@{a=1} | ConvertTo-Json', stdout: '{\r\n    "a":  1\r\n}\r\n' },
  { name: 'New-Object unknown type', script: 'New-Object Foo.Bar', stderr: /^New-Object : Cannot find type \[Foo\.Bar\]: verify that the assembly containing this type is loaded\.\r\n/, code: 1 },
  { name: 'TcpClient refused', script: 'New-Object System.Net.Sockets.TcpClient("web", 81)', stderr: /^New-Object : Exception calling "\.ctor" with "2" argument\(s\): "No connection could be made because the target machine \r\nactively refused it 10\.96\.5\.5:81"\r\n/, code: 1 },
  { name: 'functions with params', script: 'function Add($a, $b) { return $a + $b }; Add 2 3', stdout: '5\r\n' },
  { name: 'ArrayList Add returns the index', script: '$l = New-Object System.Collections.ArrayList; $l.Add("x"); [void]$l.Add("y"); $l.Count', stdout: '0\r\n2\r\n' },
  { name: 'write to a read-only volume', script: 'Set-Content C:\\ro\\f.txt x', stderr: /^Set-Content : Access to the path 'C:\\ro\\f\.txt' is denied\.\r\n/, code: 1 },
  { name: 'no PowerShell on nanoserver', env: { toolset: 'nanoserver', user: 'ContainerUser' }, script: 'hostname', code: -1 },
];

for (const c of cases) {
  test(`ps: ${c.name}`, async () => {
    const env = fakeEnv({ os: 'windows', net: NET, ...c.env });
    env.fs.mount('C:\\ro', new Map([['f.txt', 'ro']]), { readOnly: true });
    const r = await run(env, ['powershell.exe', '-NoProfile', '-Command', c.script]);
    if (c.stdout !== undefined) (typeof c.stdout === 'string' ? assert.equal : assert.match)(r.stdout, c.stdout as never);
    if (c.stderr !== undefined) (typeof c.stderr === 'string' ? assert.equal : assert.match)(r.stderr, c.stderr as never);
    else if (c.code === undefined || c.code === 0) assert.equal(r.stderr, '');
    if (c.code !== undefined) assert.equal(r.code, c.code);
  });
}

test('ps: `powershell -c` with the rest of argv as the script; -File; not found on nanoserver', async () => {
  const env = fakeEnv({ os: 'windows' });
  assert.equal((await run(env, ['powershell', '-c', 'Write-Output', 'a', 'b'])).stdout, 'a\r\nb\r\n');
  env.fs.writeFile('C:\\s.ps1', 'param($n) "hello $n"; exit 4');
  const f = await run(env, ['powershell', '-File', 'C:\\s.ps1', 'bob']);
  assert.equal(f.stdout, 'hello bob\r\n');
  assert.equal(f.code, 4);
  const nano = fakeEnv({ os: 'windows', toolset: 'nanoserver', user: 'ContainerUser' });
  const r = await run(nano, ['powershell', '-c', 'hostname']);
  assert.equal(r.result.kind, 'not-found');
});

test('ps: HostProcess container (e2e host_process.go) sees the node name as hostname', async () => {
  const env = fakeEnv({ os: 'windows', toolset: 'hostprocess', user: 'NT AUTHORITY\\SYSTEM', hostname: 'node-1' });
  const r = await run(env, ['powershell', '-c', "& {if ('NODE-1' -ine \"$(hostname)\") { exit -1 }}"]);
  assert.equal(r.code, 0);
});

test('ps: while ($true) with Start-Sleep streams output until stopped', async () => {
  const env = fakeEnv({ os: 'windows' });
  const ctl = new AbortController();
  let n = 0;
  const r = await run(env, ['powershell', '-Command', 'while ($true) { Write-Output "tick"; Start-Sleep -Seconds 10 }'], {
    signal: ctl.signal,
    onStdout: (s) => { n += (s.match(/tick/g) ?? []).length; if (n === 2) ctl.abort('SIGTERM'); },
  });
  assert.equal(r.stdout, 'tick\r\ntick\r\n');
  assert.equal(r.code, -1073741510);
  assert.deepEqual(env.clock.slept, [10000]);
});

test('ps: the win-webserver seed script serves its page and logs each request', async () => {
  const docs = parseAllDocuments(readFileSync(new URL('../../../../test/fixtures/win-webserver.yaml', import.meta.url), 'utf8')).map((d) => d.toJS());
  const container = docs.find((d) => d.kind === 'Deployment').spec.template.spec.containers[0];
  // The kubelet expands $(VAR) in command; `$$` escapes a dollar (expansion.go).
  const argv: string[] = container.command.map((s: string) => s.replace(/\$\$/g, '$'));
  const env = fakeEnv({ os: 'windows', hostname: 'win-webserver-5d8f7c6b4-x2lkq' });
  const ctl = new AbortController();
  let out = '';
  const done = run(env, argv, { signal: ctl.signal, onStdout: (s) => { out += s; } });
  await until(() => env.listening.some((l) => l.port === 80));
  assert.equal(env.listening[0].program, 'powershell.exe');
  const first = await request(env, 80, '/', '10.244.0.7');
  assert.equal(first.status, 200);
  assert.equal(first.body, '<html><body><H1>Windows Container Web Server</H1><p>IP 10.244.1.5 callerCount 1 </body></html>');
  assert.equal(first.headers.Server, 'Microsoft-HTTPAPI/2.0');
  const again = await request(env, 80, '/', '10.244.0.7');
  assert.equal(again.body, '<html><body><H1>Windows Container Web Server</H1><p>IP 10.244.1.5 callerCount 2 </body></html>');
  const other = await request(env, 80, '/path', '10.244.2.9');
  assert.equal(other.body, '<html><body><H1>Windows Container Web Server</H1><p>IP 10.244.1.5 callerCount 2 <p>IP 10.244.1.5 callerCount 1 </body></html>');
  await until(() => (out.match(/< 200/g) ?? []).length === 3);
  ctl.abort('SIGTERM');
  const r = await done;
  assert.equal(r.stderr, '');
  assert.equal(out, [
    'Listening at http://*:80/', '',
    '> http://10.244.1.5/', first.body, '< 200', '',
    '> http://10.244.1.5/', again.body, '< 200', '',
    '> http://10.244.1.5/path', other.body, '< 200', '',
  ].join('\r\n'));
  assert.equal(env.listening.length, 0);
});
