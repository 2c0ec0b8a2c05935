import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run, type FakeEnvOptions } from './testing/fake-env.js';
import { joinWindowsArgs, splitWindowsArgs } from './win/cmdline.js';

interface Case { name: string; env?: FakeEnvOptions; argv: string[]; stdin?: string; stdout?: string | RegExp; stderr?: string | RegExp; code?: number }

const NET: FakeEnvOptions['net'] = {
  a: { 'kubernetes.default.svc.cluster.local': '10.96.0.1', 'web.default.svc.cluster.local': '10.96.5.5' },
  ptr: { '10.0.96.10.in-addr.arpa': 'kube-dns.kube-system.svc.cluster.local' },
  http: { '10.96.5.5:80': () => ({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('hello') }) },
  ping: { '10.96.5.5': 1.4, '10.9.9.9': 'timeout' },
};

const cmd = (line: string) => ['cmd', '/c', line];

const cases: Case[] = [
  { name: 'echo', argv: cmd('echo hello   world'), stdout: 'hello   world\r\n', code: 0 },
  { name: 'echo. and ECHO is on', argv: cmd('echo.& echo'), stdout: '\r\nECHO is on.\r\n' },
  { name: 'cmd /S /C quoted (e2e security_context.go)', argv: ['cmd', '/S', '/C', 'echo %username%'], stdout: 'ContainerAdministrator\r\n' },
  { name: 'ContainerUser', env: { user: 'ContainerUser', toolset: 'nanoserver' }, argv: ['cmd', '/S', '/C', 'echo %USERNAME%'], stdout: 'ContainerUser\r\n' },
  { name: 'undefined %VAR% stays on the command line', argv: cmd('echo %NOPE%'), stdout: '%NOPE%\r\n' },
  { name: 'COMPUTERNAME is the upper-cased hostname', env: { hostname: 'win-webserver-5d8f7c6b4-x2lkq' }, argv: cmd('echo %COMPUTERNAME%'), stdout: 'WIN-WEBSERVER-5\r\n' },
  { name: 'ver', argv: cmd('ver'), stdout: '\r\nMicrosoft Windows [Version 10.0.17763.6893]\r\n' },
  { name: 'ver on WS2022', env: { build: '10.0.20348' }, argv: cmd('ver'), stdout: '\r\nMicrosoft Windows [Version 10.0.20348.6893]\r\n' },
  { name: 'unknown command', argv: cmd('foo'), stderr: "'foo' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n", code: 9009 },
  { name: 'missing path', argv: cmd('C:\\nope\\tool.exe'), stderr: 'The system cannot find the path specified.\r\n', code: 3 },
  { name: '&& || and %ERRORLEVEL% expanded before the line runs', argv: cmd('foo 2>nul || echo failed %ERRORLEVEL% & ver >nul && echo ok'), stdout: 'failed 0 \r\nok\r\n' },
  { name: 'exit /b N', argv: cmd('exit /b 5'), code: 5 },
  { name: 'set lists sorted, by prefix', argv: cmd('set USERN'), stdout: 'USERNAME=ContainerAdministrator\r\n' },
  { name: 'set of an undefined prefix', argv: cmd('set ZZZ'), stderr: 'Environment variable ZZZ not defined\r\n', code: 1 },
  { name: 'set /a', argv: cmd('set /a 6*7'), stdout: '42' },
  { name: 'type missing', argv: cmd('type C:\\nope.txt'), stderr: 'The system cannot find the file specified.\r\n', code: 1 },
  { name: 'redirect and type', argv: cmd('echo x>C:\\t.txt& type C:\\t.txt'), stdout: 'x\r\n' },
  { name: 'mkdir twice', argv: cmd('mkdir C:\\a\\b & mkdir C:\\a\\b'), stderr: 'A subdirectory or file C:\\a\\b already exists.\r\n', code: 1 },
  { name: 'cd prints and changes', argv: cmd('cd C:\\Windows & cd'), stdout: 'C:\\Windows\r\n' },
  { name: 'cd to a missing dir', argv: cmd('cd C:\\nope'), stderr: 'The system cannot find the path specified.\r\n', code: 1 },
  { name: 'del missing says Could Not Find', argv: cmd('del C:\\nope.txt'), stderr: 'Could Not Find C:\\nope.txt\r\n', code: 0 },
  { name: 'if exist / else', argv: cmd('if exist C:\\License.txt (echo yes) else (echo no)'), stdout: 'yes\r\n' },
  { name: 'if not errorlevel', argv: cmd('ver >nul & if not errorlevel 1 echo fine'), stdout: 'fine\r\n' },
  { name: 'for /L', argv: cmd('for /L %i in (1,1,3) do @echo n%i'), stdout: 'n1\r\nn2\r\nn3\r\n' },
  { name: 'pipe to findstr', argv: cmd('ipconfig | findstr IPv4'), stdout: '   IPv4 Address. . . . . . . . . . . : 10.244.1.5\r\n' },
  { name: 'dir of C:\\', argv: cmd('dir C:\\'), stdout: /^ Volume in drive C has no label\.\r\n Volume Serial Number is [0-9A-F]{4}-[0-9A-F]{4}\r\n\r\n Directory of C:\\\r\n\r\n06\/01\/2024  12:00 PM                88 License\.txt\r\n06\/01\/2024  12:00 PM    <DIR>          Program Files\r\n(.*\r\n)*               1 File\(s\)             88 bytes\r\n               4 Dir\(s\)  21,302,571,008 bytes free\r\n$/ },
  { name: 'dir /b', argv: cmd('mkdir C:\\d & echo 1>C:\\d\\f.txt & dir /b C:\\d'), stdout: 'f.txt\r\n' },
  { name: 'dir not found', argv: cmd('dir C:\\Users\\*.xyz'), stderr: 'File Not Found\r\n', code: 1 },
  { name: 'whoami', argv: ['whoami'], stdout: 'user manager\\containeradministrator\r\n' },
  { name: 'whoami as SYSTEM (HostProcess)', env: { user: 'NT AUTHORITY\\SYSTEM', toolset: 'hostprocess' }, argv: ['whoami'], stdout: 'nt authority\\system\r\n' },
  { name: 'hostname', argv: ['hostname'], stdout: 'web-0\r\n' },
  { name: 'no whoami on nanoserver', env: { toolset: 'nanoserver', user: 'ContainerUser' }, argv: cmd('whoami'), stderr: "'whoami' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n", code: 9009 },
  { name: 'no powershell on nanoserver', env: { toolset: 'nanoserver', user: 'ContainerUser' }, argv: cmd('powershell -c hostname'), code: 9009 },
  { name: 'ping -n 2', argv: ['ping', '-n', '2', 'web'], stdout: '\r\nPinging web [10.96.5.5] with 32 bytes of data:\r\nReply from 10.96.5.5: bytes=32 time=1ms TTL=128\r\nReply from 10.96.5.5: bytes=32 time=1ms TTL=128\r\n\r\nPing statistics for 10.96.5.5:\r\n    Packets: Sent = 2, Received = 2, Lost = 0 (0% loss),\r\nApproximate round trip times in milli-seconds:\r\n    Minimum = 1ms, Maximum = 1ms, Average = 1ms\r\n', code: 0 },
  { name: 'ping timeout', argv: ['ping', '-n', '1', '10.9.9.9'], stdout: '\r\nPinging 10.9.9.9 with 32 bytes of data:\r\nRequest timed out.\r\n\r\nPing statistics for 10.9.9.9:\r\n    Packets: Sent = 1, Received = 0, Lost = 1 (100% loss),\r\n', code: 1 },
  { name: 'ping unknown host', argv: ['ping', 'nope.example'], stdout: 'Ping request could not find host nope.example. Please check the name and try again.\r\n', code: 1 },
  { name: 'nslookup', argv: ['nslookup', 'kubernetes'], stdout: 'Server:  kube-dns.kube-system.svc.cluster.local\r\nAddress:  10.96.0.10\r\n\r\nName:    kubernetes.default.svc.cluster.local\r\nAddress:  10.96.0.1\r\n\r\n', code: 0 },
  { name: 'nslookup NXDOMAIN', argv: ['nslookup', 'nope'], stdout: 'Server:  kube-dns.kube-system.svc.cluster.local\r\nAddress:  10.96.0.10\r\n\r\n', stderr: "*** kube-dns.kube-system.svc.cluster.local can't find nope: Non-existent domain\r\n", code: 1 },
  { name: 'ipconfig', argv: ['ipconfig'], stdout: '\r\nWindows IP Configuration\r\n\r\n\r\nEthernet adapter vEthernet (cbr0_ep):\r\n\r\n   Connection-specific DNS Suffix  . : default.svc.cluster.local\r\n   Link-local IPv6 Address . . . . . : fe80::215:5dff:fee3:a12b%17\r\n   IPv4 Address. . . . . . . . . . . : 10.244.1.5\r\n   Subnet Mask . . . . . . . . . . . : 255.255.255.0\r\n   Default Gateway . . . . . . . . . : 10.244.1.1\r\n' },
  { name: 'ipconfig /all shows DNS servers (e2e dns.go)', argv: ['ipconfig', '/all'], stdout: /   DNS Servers \. \. \. \. \. \. \. \. \. \. \. : 10\.96\.0\.10\r\n   NetBIOS over Tcpip\. \. \. \. \. \. \. \. : Disabled\r\n   Connection-specific DNS Suffix Search List :\r\n                                       default\.svc\.cluster\.local\r\n/ },
  { name: 'curl.exe (7.55.1 on WS2019)', argv: ['curl.exe', '-s', 'http://web'], stdout: 'hello', code: 0 },
  { name: 'curl.exe refused', argv: ['curl.exe', 'http://web:81', '--connect-timeout', '10', '--fail'], stderr: /curl: \(7\) Failed to connect to web port 81: Connection refused\n$/, code: 7 },
  { name: 'curl.exe unresolvable (e2e dns.go)', argv: ['cmd', '/c', 'curl.exe -k https://kubernetezzzzzzzz:443'], stderr: /curl: \(6\) Could not resolve host: kubernetezzzzzzzz\n$/, code: 6 },
  { name: 'systeminfo', argv: ['systeminfo'], stdout: /\r\nHost Name:                 WEB-0\r\nOS Name:                   Microsoft Windows Server 2019 Datacenter\r\nOS Version:                10\.0\.17763 N\/A Build 17763\r\n/ },
  { name: 'tasklist', argv: ['tasklist'], stdout: /^\r\nImage Name                     PID Session Name        Session#    Mem Usage\r\n========================= ======== ================ =========== ============\r\nSystem                           4                            0        140 K\r\n/ },
  { name: 'nltest /PARENTDOMAIN with GMSA (e2e gmsa_kubelet.go)', env: { gmsa: { domain: 'contoso.org' } }, argv: ['nltest', '/PARENTDOMAIN'], stdout: 'contoso.org. (1)\r\nThe command completed successfully\r\n', code: 0 },
  { name: 'nltest /PARENTDOMAIN without GMSA', argv: ['nltest', '/PARENTDOMAIN'], stdout: 'Getting parent domain failed: Status = 1722 0x6ba RPC_S_SERVER_UNAVAILABLE\r\n', code: 1 },
  { name: 'timeout without a console', argv: ['timeout', '/t', '5'], stderr: 'ERROR: Input redirection is not supported, exiting the process immediately.\r\n', code: 1 },
  { name: 'ping -n as a sleep', argv: cmd('ping -n 3 127.0.0.1 >nul & echo done'), stdout: 'done\r\n' },
  { name: 'cmd reading commands from stdin echoes them', argv: ['cmd'], stdin: 'echo hi\r\n', stdout: 'Microsoft Windows [Version 10.0.17763.6893]\r\n(c) 2018 Microsoft Corporation. All rights reserved.\r\n\r\nC:\\>echo hi\r\nhi\r\n\r\nC:\\>' },
];

for (const c of cases) {
  test(`cmd: ${c.name}`, async () => {
    const env = fakeEnv({ os: 'windows', net: NET, ...c.env });
    const r = await run(env, c.argv, { stdin: c.stdin });
    if (c.stdout !== undefined) (typeof c.stdout === 'string' ? assert.equal : assert.match)(r.stdout, c.stdout as never);
    if (c.stderr !== undefined) (typeof c.stderr === 'string' ? assert.equal : assert.match)(r.stderr, c.stderr as never);
    if (c.code !== undefined) assert.equal(r.code, c.code);
  });
}

test('cmd: batch files: @echo off, %1, and command echo when it is on', async () => {
  const env = fakeEnv({ os: 'windows' });
  env.fs.writeFile('C:\\quiet.cmd', '@echo off\r\necho in batch %1\r\n');
  env.fs.writeFile('C:\\loud.bat', 'echo hi\r\n');
  assert.equal((await run(env, cmd('C:\\quiet.cmd one'))).stdout, 'in batch one\r\n');
  assert.equal((await run(env, cmd('loud.bat'))).stdout, '\r\nC:\\>echo hi\r\nhi\r\n\r\nC:\\>');
});

test('cmd: read-only volume refuses writes with Access is denied. (e2e volumes.go)', async () => {
  const env = fakeEnv({ os: 'windows' });
  env.fs.mount('C:\\test-volume', new Map([['test-file.txt', 'windows-volume-test']]), { readOnly: true });
  const w = await run(env, cmd('echo windows-volume-test > C:\\test-volume\\test-file.txt'));
  assert.equal(w.stderr, 'Access is denied.\r\n');
  assert.equal(w.code, 1);
  const r = await run(env, ['cmd', '/c', 'type', 'C:\\test-volume\\test-file.txt']);
  assert.equal(r.stdout, 'windows-volume-test');
});

test('cmd: the runtime reports a missing Windows executable (hcsshim wording)', async () => {
  const env = fakeEnv({ os: 'windows' });
  const r = await run(env, ['bash']);
  assert.deepEqual(r.result, {
    kind: 'not-found',
    message: 'hcs::System::CreateProcess web-0: The system cannot find the file specified.: unknown',
    startMessage: 'failed to create containerd task: failed to create shim task: hcs::System::CreateProcess web-0: The system cannot find the file specified.: unknown',
  });
});

test('cmd: command lines are joined and split the Windows way', () => {
  assert.equal(joinWindowsArgs(['cmd', '/S', '/C', 'echo %username%']), 'cmd /S /C "echo %username%"');
  assert.equal(joinWindowsArgs(['a b', 'c"d', 'e\\']), '"a b" c\\"d e\\');
  assert.deepEqual(splitWindowsArgs('"a b" c\\"d "e f\\\\" g'), ['a b', 'c"d', 'e f\\', 'g']);
});

test('cmd: a stopped Windows container exits with STATUS_CONTROL_C_EXIT', async () => {
  const env = fakeEnv({ os: 'windows' });
  const ctl = new AbortController();
  const p = run(env, ['ping', '-t', '10.96.5.5'], { signal: ctl.signal });
  await new Promise((r) => setTimeout(r, 10));
  ctl.abort('SIGTERM');
  const r = await p;
  assert.equal(r.code, -1073741510);
  assert.match(r.stdout, /Control-C\r\n\^C$/);
});
