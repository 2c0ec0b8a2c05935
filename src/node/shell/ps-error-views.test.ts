// The console's view of an error record in each PowerShell edition: Windows PowerShell 5.1 (powershell.exe) shows
// NormalView, PowerShell 7 (pwsh.exe) ConciseView; $ErrorView picks another. Rules: PowerShell's
// DefaultFormatters/PowerShellCore_format_ps1xml.cs (ErrorInstance), commands/utility/Write.cs (WriteErrorCommand).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run } from './testing/fake-env.js';

const PWSH = 'C:\\Program Files\\PowerShell\\pwsh.exe';

async function ps(exe: 'powershell' | 'pwsh', argv: string[], file?: string) {
  const env = fakeEnv({ os: 'windows' });
  env.fs.mkdir('C:\\Program Files\\PowerShell', { parents: true });
  env.fs.writeFile(PWSH, 'MZ').program = 'win:pwsh';
  if (file !== undefined) env.fs.writeFile('C:\\t.ps1', file);
  return run(env, [exe === 'pwsh' ? PWSH : 'powershell', ...argv]);
}

const NORMAL_TAIL = '    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\r\n    + FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException';

test('Write-Error and other errors: NormalView in 5.1, ConciseView in 7', async () => {
  for (const c of [
    // 5.1: the -Command text heads it (its ScriptInfo is a Script), the CategoryInfo lines indented, a final ' ' line.
    { exe: 'powershell', argv: ['-Command', 'Write-Error "x"'], stderr: `Write-Error "x" : x\r\n${NORMAL_TAIL}\r\n \r\n` },
    // 7: the reason is CategoryInfo.Activity (the -Command ScriptInfo has no name Get-Command finds).
    { exe: 'pwsh', argv: ['-Command', 'Write-Error "x"'], stderr: 'Write-Error: x\r\n' },
    // A function is a command Get-Command finds: its name is the reason; one line of command text shows no Line block.
    { exe: 'pwsh', argv: ['-c', 'function F { Write-Error "bad $args" }; F 1 2'], stderr: 'F: bad 1 2\r\n' },
    // Past the first line of the command text the caller's line is shown under "Line |".
    { exe: 'pwsh', argv: ['-c', 'function F { Write-Error "bad $args" }\nF 1 2'], stderr: 'F: \r\nLine |\r\n   2 |  F 1 2\r\n     |  ~~~~~\r\n     | bad 1 2\r\n' },
    // `throw` is "Exception"; a cmdlet's error names the cmdlet; 1/0's category NotSpecified gives way to its Reason.
    { exe: 'pwsh', argv: ['-c', 'throw "boom"'], stderr: 'Exception: boom\r\n' },
    { exe: 'pwsh', argv: ['-c', 'Get-Content C:\\nope'], stderr: "Get-Content: Cannot find path 'C:\\nope' because it does not exist.\r\n" },
    { exe: 'pwsh', argv: ['-c', '$x = 0; 1 / $x'], stderr: 'RuntimeException: Attempted to divide by zero.\r\n' },
    // $ErrorView picks another view: CategoryView in either edition, NormalView in 7 (no indent, no ' ' line).
    { exe: 'powershell', argv: ['-c', '$ErrorView = "CategoryView"; Write-Error x'], stderr: 'NotSpecified: (:) [Write-Error], WriteErrorException\r\n' },
    { exe: 'pwsh', argv: ['-c', '$ErrorView = "NormalView"; Write-Error x'], stderr: '$ErrorView = "NormalView"; Write-Error x : x\r\n+ CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\r\n+ FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException\r\n' },
    // 5.1 knows no ConciseView: it keeps NormalView.
    { exe: 'powershell', argv: ['-c', '$ErrorView = "ConciseView"; Write-Error x'], stderr: `$ErrorView = "ConciseView"; Write-Error x : x\r\n${NORMAL_TAIL}\r\n \r\n` },
  ] as const) {
    const r = await ps(c.exe, [...c.argv]);
    assert.equal(r.stderr, c.stderr, `${c.exe} ${c.argv.join(' ')}`);
  }
});

test('pwsh: a script file\'s function error shows the file and line; its message wraps at the window width', async () => {
  const long = 'word '.repeat(30).trim();
  const r = await ps('pwsh', ['-File', 'C:\\t.ps1'], `"a"\r\nfunction G { Write-Error "${long}" }\r\nG\r\n"b"\r\n`);
  assert.equal(r.stdout, 'a\r\nb\r\n');
  const lines = r.stderr.split('\r\n');
  assert.deepEqual(lines.slice(0, 4), ['G: C:\\t.ps1:3', 'Line |', '   3 |  G', '     |  ~']);
  // "     | " then words up to 120 columns, the rest on the next line under the same bar.
  assert.ok(lines[4].startsWith('     | word ') && lines[4].length <= 120 && lines[5].startsWith('     | word'), r.stderr);
  assert.equal(`${lines[4].slice(7)} ${lines[5].slice(7)}`, long);
});

test('pwsh: its first positional argument is a script file; a missing one exits 64', async () => {
  const ok = await ps('pwsh', ['C:\\t.ps1', 'A'], '"arg=$($args[0]) $($PSVersionTable.PSEdition)"');
  assert.equal(ok.stdout, 'arg=A Core\r\n');
  const missing = await ps('pwsh', ['C:\\nope.ps1']);
  assert.equal(missing.code, 64);
  assert.equal(missing.stderr, "The argument 'C:\\nope.ps1' is not recognized as the name of a script file. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n");
  assert.equal((await ps('powershell', ['-c', '$PSVersionTable.PSEdition'])).stdout, 'Desktop\r\n');
});
