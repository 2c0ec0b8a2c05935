// Windows PowerShell 5.1's labelled loops, its .NET regular expressions (-replace substitutions, -split options,
// -match numbering), Write-Error's error view and the console's prompt for missing mandatory parameters. Each case
// is what powershell.exe 5.1 prints; the rule is the Microsoft topic named beside it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, Keyboard, run } from './testing/fake-env.js';

interface Case { name: string; script: string; stdout: string; stderr?: string; file?: boolean }

const WE = (head: string, at: string, fqid: string) =>
  `${head}\r\n${at}    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\r\n    + FullyQualifiedErrorId : ${fqid}\r\n \r\n`;

const cases: Case[] = [
  // about_Break, about_Continue: a label names the loop a break/continue is for; inner loops end on the way.
  { name: 'continue outer skips the rest of the inner foreach', script: ':outer foreach ($i in 1..3) { foreach ($j in 1..3) { if ($j -eq 2) { continue outer }; "$i$j" } }', stdout: '11\r\n21\r\n31\r\n' },
  { name: 'break label leaves for and while at once', script: ':o for ($i = 0; $i -lt 3; $i++) { while ($true) { break o } }; "done $i"', stdout: 'done 0\r\n' },
  { name: 'break label from a switch ends the labelled while (labels ignore case)', script: ':OUT while ($true) { switch (1,2,3) { 2 { break out } default { "s$_" } } }; "after"', stdout: 's1\r\nafter\r\n' },
  { name: 'continue label in do-while goes to its condition', script: '$n = 0; :a do { $n++; foreach ($x in 1..5) { if ($x -eq 3) { continue a }; "$n-$x" } } while ($n -lt 2)', stdout: '1-1\r\n1-2\r\n2-1\r\n2-2\r\n' },
  { name: 'a labelled switch takes continue for its own label', script: ':sw switch (1,2,3) { 2 { continue sw } default { "v$_" } }', stdout: 'v1\r\nv3\r\n' },
  { name: 'unlabelled break still ends the innermost loop', script: 'foreach ($x in 1..2) { foreach ($y in 1..3) { if ($y -eq 2) { break }; "$x$y" } }', stdout: '11\r\n21\r\n' },
  // Regex.Replace substitutions (.NET "Substitutions in Regular Expressions"), about_Comparison_Operators -replace.
  { name: '${name} and $n substitute groups; $10 without a tenth group stays literal', script: "'abc' -replace '(?<x>b)', '[${x}]'; 'abc' -replace '(b)', '$10|$1|$0|$$'", stdout: 'a[b]c\r\na$10|b|b|$c\r\n' },
  { name: "$& $` $' $+ $_ and an unknown ${name}", script: "'abc' -replace 'b', '<$&|$`|$''>'; 'a1b2' -replace '(\\d)', '$+$+'; 'xy' -replace 'y', '$_'; 'ab' -replace 'b', '${nope}'", stdout: "a<b|a|c>c\r\na11b22\r\nxxy\r\na${nope}\r\n" },
  { name: '.NET numbers unnamed groups before named ones in $n', script: "'John Smith' -replace '(?<first>\\w+) (\\w+)', '$1, $2'; 'John Smith' -replace '(?<first>\\w+) (\\w+)', '${first}!'", stdout: 'Smith, John\r\nJohn!\r\n' },
  { name: '-replace on an array replaces in each item; -creplace keeps case', script: "('a-1','b-2' -replace '-(\\d)', ':$1') -join ','; 'Aa' -creplace 'a', 'x'", stdout: 'a:1,b:2\r\nAx\r\n' },
  // about_Split: max-substrings, the options string, captured delimiters, the empty pattern.
  { name: '-split options: SimpleMatch, IgnoreCase over -csplit, Multiline', script: "('a.b.c' -split '.', 0, 'SimpleMatch') -join '|'; ('aXbxc' -csplit 'x', 0, 'IgnoreCase') -join '|'; ('a1b' -csplit 'X') -join '|'; (\"x`ny\" -split '^', 0, 'Multiline').Count", stdout: 'a|b|c\r\na|b|c\r\na1b\r\n3\r\n' },
  { name: '-split keeps captured delimiters; the empty pattern splits every character', script: "('a1b2c' -split '(\\d)') -join '|'; ('abc' -split '') -join '|'; ('a,b,c,d' -split ',', 2) -join '|'", stdout: 'a|1|b|2|c\r\n|a|b|c|\r\na|b,c,d\r\n' },
  // about_Regular_Expressions: .NET's $ also matches before a final newline; -match on an array filters, no $Matches.
  { name: '$ before a final newline, \\A and \\z', script: "\"line`n\" -match 'line$'; \"line`n\" -match 'line\\z'; 'ab' -match '\\Ab'", stdout: 'True\r\nFalse\r\nFalse\r\n' },
  { name: '-match on an array returns the matching items and leaves $Matches alone', script: "'x1' -match '(\\d)' | Out-Null; ('web-1','db-1','web-2' -match '^web') -join ','; $Matches[1]", stdout: 'web-1,web-2\r\n1\r\n' },
  // Write-Error: the record carries its caller's invocation (the function or script), activity Write-Error.
  { name: 'Write-Error at the top level: the command text heads it, no position', script: 'Write-Error "x"', stdout: '',
    stderr: WE('Write-Error "x" : x', '', 'Microsoft.PowerShell.Commands.WriteErrorException') },
  { name: 'Write-Error in a function: its name, the call site underlined, id ends with the name', script: 'function F { Write-Error "bad $args" }; F 1 2', stdout: '',
    stderr: WE('F : bad 1 2', 'At line:1 char:41\r\n+ function F { Write-Error "bad $args" }; F 1 2\r\n+                                         ~~~~~\r\n', 'Microsoft.PowerShell.Commands.WriteErrorException,F') },
  { name: 'Write-Error in a -File script: the script path, no position; -ErrorId keeps the caller', file: true, script: '"a"\r\nWrite-Error "x"\r\nfunction G { Write-Error -Message y -ErrorId MyId }\r\nG\r\n"b"\r\n', stdout: 'a\r\nb\r\n',
    stderr: WE('C:\\t.ps1 : x', '', 'Microsoft.PowerShell.Commands.WriteErrorException,t.ps1') + WE('G : y', 'At C:\\t.ps1:4 char:1\r\n+ G\r\n+ ~\r\n', 'MyId,G') },
];

for (const c of cases) {
  test(`ps regex/flow: ${c.name}`, async () => {
    const env = fakeEnv({ os: 'windows' });
    let r;
    if (c.file) {
      env.fs.writeFile('C:\\t.ps1', c.script);
      r = await run(env, ['powershell', '-File', 'C:\\t.ps1']);
    } else r = await run(env, ['powershell', '-NoProfile', '-Command', c.script]);
    assert.equal(r.stdout, c.stdout);
    assert.equal(r.stderr, c.stderr ?? '');
  });
}

test('ps regex/flow: an invalid pattern is InvalidRegularExpression', async () => {
  const r = await run(fakeEnv({ os: 'windows' }), ['powershell', '-Command', "'x' -match '('"]);
  assert.match(r.stderr, /^The regular expression pattern \( is not valid\.\r\n[^]*FullyQualifiedErrorId : InvalidRegularExpression\r\n/);
});

test('ps regex/flow: a script called by path reports Write-Error at the call', async () => {
  const env = fakeEnv({ os: 'windows' });
  env.fs.writeFile('C:\\t.ps1', 'Write-Error "x"\r\n');
  const r = await run(env, ['powershell', '-Command', '& C:\\t.ps1']);
  assert.equal(r.stderr, WE('C:\\t.ps1 : x', 'At line:1 char:1\r\n+ & C:\\t.ps1\r\n+ ~~~~~~~~~~\r\n', 'Microsoft.PowerShell.Commands.WriteErrorException,t.ps1'));
});

/** Types lines into a console session once the shell has read what came before. */
async function session(lines: string[], argv = ['powershell']): Promise<string> {
  const kb = new Keyboard();
  for (const l of lines) kb.type(`${l}\r`);
  kb.close();
  return (await run(fakeEnv({ os: 'windows' }), argv, { stdin: kb, tty: true })).stdout;
}

// about_Functions_Advanced_Parameters (Mandatory argument): the console asks for what is missing.
test('ps console: a missing mandatory parameter is prompted for on a terminal and read as a line', async () => {
  const out = await session(['function Req { param([Parameter(Mandatory=$true)][string]$Path, [Parameter(Mandatory=$true)]$N) "got $Path $N" }', 'Req', 'C:\\x', '5', 'exit']);
  assert.match(out, /PS C:\\> Req\r\ncmdlet Req at command pipeline position 1\r\nSupply values for the following parameters:\r\nPath: C:\\x\r\nN: 5\r\ngot C:\\x 5\r\n/);
});

test('ps console: an empty answer is refused as an empty string', async () => {
  const out = await session(['function Req { param([Parameter(Mandatory=$true)][string]$Path) $Path }', 'Req', '', 'exit']);
  assert.match(out, /Path: \r\nReq : Cannot bind argument to parameter 'Path' because it is an empty string\.\r\n[^]*ParameterBindingValidationException\r\n    \+ FullyQualifiedErrorId : ParameterArgumentValidationErrorEmptyStringNotAllowed,Req\r\n/);
});

test('ps console: -NonInteractive or no terminal fails the binding instead of prompting', async () => {
  const ni = await session(['function Req { param([Parameter(Mandatory=$true)]$Path) $Path }', 'Req', 'exit'], ['powershell', '-NonInteractive']);
  assert.doesNotMatch(ni, /Supply values/);
  const env = fakeEnv({ os: 'windows' });
  const piped = await run(env, ['powershell', '-Command', 'function Req { param([Parameter(Mandatory=$true)]$Path) $Path }; Req'], { stdin: 'C:\\x\r\n' });
  assert.equal(piped.stdout, '');
  assert.match(piped.stderr, /^Req : Cannot process command because of one or more missing mandatory parameters: Path\./);
});
