// PowerShell 7 language additions (about_Operators: ternary, null-coalescing ?? and ??=, pipeline chain && ||;
// ForEach-Object -Parallel; $PSVersionTable) run in pwsh only; Windows PowerShell 5.1 refuses them with its parser's
// messages (PowerShell src/System.Management.Automation/resources/ParserStrings.resx: UnexpectedToken,
// InvalidEndOfLine; pwsh's own: MissingColonInTernaryExpression, EmptyPipelineChainElement, ExpectedValueExpression).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run } from './testing/fake-env.js';

type Shell = 'pwsh' | 'powershell';
interface Case { name: string; shell: Shell; script: string; stdout?: string; stderr?: string | RegExp; code?: number }

/** 5.1's NormalView of a parse error at column `col` spanning `len` characters. */
const parse51 = (line: string, col: number, len: number, message: string, id: string) =>
  `At line:1 char:${col}\r\n+ ${line}\r\n+ ${' '.repeat(col - 1)}${'~'.repeat(len)}\r\n${message}\r\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : ${id}\r\n \r\n`;
/** pwsh's ConciseView of a parse error at column `col`. */
const parse7 = (line: string, col: number, message: string) => `ParserError: \r\nLine |\r\n   1 |  ${line}\r\n     |  ${' '.repeat(col - 1)}~\r\n     | ${message}\r\n`;

const cases: Case[] = [
  // Ternary: truthiness of the condition, right-associative, lazily evaluated branches.
  { name: 'ternary picks by truthiness', shell: 'pwsh', script: '$x = $null; $x ? "yes" : "no"; (1 -eq 1) ? "a" : "b"; @() ? 1 : 2', stdout: 'no\r\na\r\n2\r\n' },
  { name: 'ternary nests and only runs the branch taken', shell: 'pwsh', script: '$n = 0; $true ? ($false ? 1 : 2) : ($n = 9); $n', stdout: '2\r\n0\r\n' },
  { name: 'ternary as an assignment value and inside a method call', shell: 'pwsh', script: '$v = 3 -gt 2 ? "big" : "small"; $v; [math]::Max($false ? 10 : 1, 2)', stdout: 'big\r\n2\r\n' },
  { name: 'ternary without ":"', shell: 'pwsh', script: '$x ? 1', stderr: parse7('$x ? 1', 7, "Missing ':' in the ternary expression."), code: 1 },
  { name: 'ternary without an else value', shell: 'pwsh', script: '$x ? 1 :', stderr: parse7('$x ? 1 :', 9, "You must provide a value expression following the ':' operator."), code: 1 },
  { name: '5.1 has no ternary', shell: 'powershell', script: '$x ? 1 : 2', stderr: parse51('$x ? 1 : 2', 4, 1, "Unexpected token '?' in expression or statement.", 'UnexpectedToken'), code: 1 },
  // Null-coalescing: only $null is replaced (0, '' and @() are values); the right side runs only when needed.
  { name: '?? replaces only $null', shell: 'pwsh', script: '$null ?? "d"; 0 ?? 5; "" ?? "e"; $u ?? $v ?? "last"', stdout: 'd\r\n0\r\n\r\nlast\r\n' },
  { name: '?? binds tighter than comparison, looser than +', shell: 'pwsh', script: '$null ?? 1 + 2; 3 -eq $null ?? 3', stdout: '3\r\nTrue\r\n' },
  { name: '??= assigns only a $null variable and skips its right side otherwise', shell: 'pwsh', script: '$y ??= 7; $y; $y ??= (Write-Output 9); $y', stdout: '7\r\n7\r\n' },
  { name: '5.1 has no ??', shell: 'powershell', script: '$a = $b ?? 3', stderr: parse51('$a = $b ?? 3', 9, 2, "Unexpected token '??' in expression or statement.", 'UnexpectedToken'), code: 1 },
  { name: '5.1 has no ??=', shell: 'powershell', script: '$y ??= 5', stderr: parse51('$y ??= 5', 4, 3, "Unexpected token '??=' in expression or statement.", 'UnexpectedToken'), code: 1 },
  // Pipeline chains: && runs on success ($? true, a native exit code 0), || on failure; left to right.
  { name: '&& and || after cmdlets', shell: 'pwsh', script: 'Write-Output one && Write-Output two || Write-Output three', stdout: 'one\r\ntwo\r\n' },
  { name: '|| after a failing native command sees its exit code', shell: 'pwsh', script: 'cmd /c exit 3 || Write-Output "failed $LASTEXITCODE"; cmd /c exit 0 && "ok"', stdout: 'failed 3\r\nok\r\n' },
  { name: 'a failed cmdlet skips && and runs ||', shell: 'pwsh', script: 'Write-Error gone -ErrorAction SilentlyContinue && "found" || "missing"', stdout: 'missing\r\n' },
  { name: 'a chain as an if condition and an assignment value', shell: 'pwsh', script: 'if (cmd /c exit 1 || $true) { "cond" }; $r = Write-Output a && Write-Output b; $r.Count', stdout: 'cond\r\n2\r\n' },
  { name: 'a chain operator with nothing after it', shell: 'pwsh', script: 'echo a &&', stderr: parse7('echo a &&', 10, 'A pipeline chain operator must be followed by a pipeline.'), code: 1 },
  { name: '5.1 refuses &&', shell: 'powershell', script: 'echo a && echo b', stderr: parse51('echo a && echo b', 8, 2, "The token '&&' is not a valid statement separator in this version.", 'InvalidEndOfLine'), code: 1 },
  { name: '5.1 refuses ||', shell: 'powershell', script: 'cmd /c exit 1 || echo b', stderr: parse51('cmd /c exit 1 || echo b', 15, 2, "The token '||' is not a valid statement separator in this version.", 'InvalidEndOfLine'), code: 1 },
  // ForEach-Object -Parallel: a runspace per input; caller state only through $using:; run one after another here,
  // so output keeps input order (real pwsh gives no order guarantee).
  { name: '-Parallel sees $_ and $using:, not the caller\'s variables', shell: 'pwsh', script: '$k = 10; 1..3 | ForEach-Object -Parallel { "$_ $($_ * $using:k) [$k]" } -ThrottleLimit 2', stdout: '1 10 []\r\n2 20 []\r\n3 30 []\r\n' },
  { name: '-Parallel runspaces do not share assignments', shell: 'pwsh', script: '$n = 1; 1..2 | ForEach-Object -Parallel { $n = $_; $n }; $n', stdout: '1\r\n2\r\n1\r\n' },
  { name: 'a throw in one runspace is reported and the others run', shell: 'pwsh', script: '1..3 | ForEach-Object -Parallel { if ($_ -eq 2) { throw "bad $_" }; $_ }', stdout: '1\r\n3\r\n', stderr: /bad 2/, code: 1 },
  { name: '5.1 ForEach-Object has no -Parallel', shell: 'powershell', script: '1,2 | ForEach-Object -Parallel { $_ }', stderr: /^ForEach-Object : A parameter cannot be found that matches parameter name 'Parallel'\.\r\n/, code: 1 },
  { name: '$using: outside a runspace', shell: 'pwsh', script: '$using:x', stderr: /A Using variable cannot be retrieved\./, code: 1 },
  // $PSVersionTable (PSVersionInfo.cs): a SemanticVersion in 7, a System.Version in 5.1.
  { name: 'pwsh PSVersion is 7.x with Major/Minor/Patch', shell: 'pwsh', script: '$v = $PSVersionTable.PSVersion; "$v"; $v.Major; $v.Minor -ge 0; $PSVersionTable.PSVersion.Major -ge 7 ? "7+" : "old"', stdout: '7.4.6\r\n7\r\nTrue\r\n7+\r\n' },
  { name: 'pwsh PSVersion prints as a SemanticVersion table', shell: 'pwsh', script: '$PSVersionTable.PSVersion', stdout: '\r\nMajor  Minor  Patch  PreReleaseLabel BuildLabel\r\n-----  -----  -----  --------------- ----------\r\n7      4      6\r\n\r\n' },
  { name: 'pwsh table: edition, platform, compatible versions', shell: 'pwsh', script: '$PSVersionTable.PSEdition; $PSVersionTable.Platform; $PSVersionTable.OS; $PSVersionTable.PSCompatibleVersions -join ","; $host.Version', stdout: 'Core\r\nWin32NT\r\nMicrosoft Windows 10.0.20348\r\n1.0,2.0,3.0,4.0,5.0,5.1,6.0,7.0\r\n7.4.6\r\n' },
  { name: '5.1 PSVersion is a System.Version of the host build', shell: 'powershell', script: '$PSVersionTable.PSVersion.Major; $PSVersionTable.PSVersion.Build; "$($PSVersionTable.BuildVersion)"', stdout: '5\r\n20348\r\n10.0.20348.6893\r\n' },
];

for (const c of cases) {
  test(`ps7 language: ${c.name} (${c.shell})`, async () => {
    const env = c.shell === 'pwsh' ? fakeEnv({ os: 'windows', toolset: 'nanoserver', extras: ['pwsh'], build: '10.0.20348' }) : fakeEnv({ os: 'windows', build: '10.0.20348' });
    const exe = c.shell === 'pwsh' ? 'C:\\Program Files\\PowerShell\\pwsh.exe' : 'powershell';
    const r = await run(env, [exe, '-NoProfile', '-Command', c.script]);
    if (c.stdout !== undefined) assert.equal(r.stdout, c.stdout);
    if (typeof c.stderr === 'string') assert.equal(r.stderr, c.stderr);
    else if (c.stderr) assert.match(r.stderr, c.stderr);
    else assert.equal(r.stderr, '');
    assert.equal(r.code, c.code ?? 0);
  });
}
