// The PowerShell language as Windows PowerShell 5.1 runs it in a Server Core container: operators, param() binding,
// script blocks, try/catch/finally and trap, switch, loops, strings, casts, hashtables and splatting. Each case is
// the output powershell.exe 5.1 gives; the rules are Microsoft's about_* topics named in each group.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run } from './testing/fake-env.js';

interface Case { name: string; script: string; stdout?: string | RegExp; stderr?: string | RegExp; code?: number; flags?: string[] }

/** The console's error view: message, position, CategoryInfo and FullyQualifiedErrorId (5.1 NormalView). */
const errorView = (head: string, line: string, col: number, len: number, category: string, fqid: string) =>
  `${head}\r\nAt line:1 char:${col}\r\n+ ${line}\r\n+ ${' '.repeat(col - 1)}${'~'.repeat(len)}\r\n    + CategoryInfo          : ${category}\r\n    + FullyQualifiedErrorId : ${fqid}\r\n \r\n`;

const cases: Case[] = [
  // about_Logical_Operators: -not and ! in unary position.
  { name: '-not (Test-Path) starts an if condition', script: 'if (-not (Test-Path C:\\nope)) { "missing" }', stdout: 'missing\r\n' },
  { name: '! on $null, -not as a statement', script: '$x = $null; if (!$x) { "empty" }; -not 1; !0', stdout: 'empty\r\nFalse\r\nTrue\r\n' },
  // about_Comparison_Operators: containment, case-sensitive variants, left operand decides, arrays filter.
  { name: '-contains/-notcontains/-in/-notin, -cin', script: '1,2,3 -contains 2; 1,2,3 -notcontains 5; 2 -in 1,2,3; 4 -notin 1,2,3; "A" -in "a","b"; "A" -cin "a","b"', stdout: 'True\r\nTrue\r\nTrue\r\nTrue\r\nTrue\r\nFalse\r\n' },
  { name: '-like/-clike/-notlike, -cmatch, -ceq/-ieq', script: '"abc" -like "A*"; "abc" -clike "A*"; "abc" -notlike "x*"; "abc" -cmatch "B"; "x" -ceq "X"; "x" -ieq "X"', stdout: 'True\r\nFalse\r\nTrue\r\nFalse\r\nFalse\r\nTrue\r\n' },
  { name: '-match fills $Matches; .NET numbers unnamed groups before named ones', script: '"k8s-node-12" -match \'(?<name>\\w+)-node-(\\d+)\'; $Matches.name; $Matches[1]; $Matches[0]; "x" -notmatch "y"', stdout: 'True\r\nk8s\r\n12\r\nk8s-node-12\r\nTrue\r\n' },
  { name: 'the left operand decides the comparison type', script: '"10" -gt 9; 10 -gt "9"; "5" -eq 5.0; $null -lt 0', stdout: 'False\r\nTrue\r\nTrue\r\nTrue\r\n' },
  { name: 'comparison on an array filters it', script: '@(1,2,3) -gt 1; @(1,2,3,2) -eq 2; @("a","b") -ne "a"; (@(1,2,3) -gt 5).Count; @("web-1","db-1","web-2") -like "web*"', stdout: '2\r\n3\r\n2\r\n2\r\nb\r\n0\r\nweb-1\r\nweb-2\r\n' },
  // about_Comparison_Operators (-replace), about_Split, about_Join.
  { name: '-replace with groups, -creplace, removal', script: '"a.b.c" -replace \'\\.\', \'-\'; "Hello" -replace \'l\'; "abc" -creplace \'B\',\'x\'; "John Smith" -replace \'(\\w+) (\\w+)\', \'$2, $1\'', stdout: 'a-b-c\r\nHeo\r\nabc\r\nSmith, John\r\n' },
  { name: '-split (binary with max count, unary on whitespace) and -join', script: '"a,b,,c" -split ","; -split " a  b "; "a1b2c" -split "\\d", 2; -join ("x","y"); (1,2,3) -join "+"', stdout: 'a\r\nb\r\n\r\nc\r\na\r\nb\r\na\r\nb2c\r\nxy\r\n1+2+3\r\n' },
  // about_Type_Operators.
  { name: '-is/-isnot/-as ($null when the conversion fails)', script: '5 -is [int]; "s" -is [string]; "5" -as [int]; ("5" -as [int]).GetType().Name; $null -eq ("x" -as [int]); 1 -isnot [string]', stdout: 'True\r\nTrue\r\n5\r\nInt32\r\nTrue\r\nTrue\r\n' },
  // about_Functions_Advanced_Parameters, about_Functions: param() blocks, switches, defaults, positions.
  { name: 'param() with [switch], typed defaults and positions', script: 'function Test-It { param([switch]$Force, [string]$Name = "def", [int]$Count = 2) "force=$Force name=$Name count=$Count" }; Test-It; Test-It -Force -Name x; Test-It -Count 5 bob', stdout: 'force=False name=def count=2\r\nforce=True name=x count=2\r\nforce=False name=bob count=5\r\n' },
  { name: '[Parameter(Mandatory=$true)] given, [int] converts', script: 'function F { param([Parameter(Mandatory=$true)][string]$Path, [Parameter()][int]$N = 1) "$Path $($N + 1)" }; F -Path C:\\x -N "4"', stdout: 'C:\\x 5\r\n' },
  { name: 'switch parameter in a function head, -Force:$false, .IsPresent', script: 'function Sw([switch]$Force) { if ($Force) { "yes" } else { "no" }; $Force.IsPresent }; Sw; Sw -Force; Sw -Force:$false', stdout: 'no\r\nFalse\r\nyes\r\nTrue\r\nno\r\nFalse\r\n' },
  { name: '$PSBoundParameters and $args', script: 'function G { param($a, $b) $PSBoundParameters.Count; $PSBoundParameters.ContainsKey("b"); $args -join "," }; G -a 1 2 3 4', stdout: '2\r\nTrue\r\n3,4\r\n' },
  { name: 'unbound typed parameters: [string] is empty, [int] 0', script: 'function U([string]$s, [int]$n, $o) { $s -eq ""; $n; $null -eq $o }; U', stdout: 'True\r\n0\r\nTrue\r\n' },
  { name: 'script blocks with & (own scope) and . (caller scope)', script: '$sb = { param($x) $x * 2 }; & $sb 4; & $sb -x 5; $y = 1; . { $y = 5 }; $y; & { $y = 9 }; $y', stdout: '8\r\n10\r\n5\r\n5\r\n' },
  { name: 'process block over pipeline input, ValueFromPipeline', script: 'function Q { param([Parameter(ValueFromPipeline=$true)][int]$X) begin { "b" } process { $X * 10 } end { "e" } }; 1,2 | Q; function P { process { "item $_" } }; "a" | P', stdout: 'b\r\n10\r\n20\r\ne\r\nitem a\r\n' },
  { name: 'missing mandatory parameter (-NonInteractive)', flags: ['-NonInteractive'], script: 'function Req { param([Parameter(Mandatory=$true)][string]$Path) $Path }; Req', code: 1,
    stderr: errorView('Req : Cannot process command because of one or more missing mandatory parameters: Path.', 'function Req { param([Parameter(Mandatory=$true)][string]$Path) $Path }; Req', 74, 3, 'InvalidArgument: (:) [Req], ParameterBindingException', 'MissingMandatoryParameter,Req') },
  { name: 'advanced function: unknown parameter name', script: 'function Adv { [CmdletBinding()] param([string]$Name) $Name }; Adv -Nme x', code: 1,
    stderr: errorView("Adv : A parameter cannot be found that matches parameter name 'Nme'.", 'function Adv { [CmdletBinding()] param([string]$Name) $Name }; Adv -Nme x', 68, 4, 'InvalidArgument: (:) [Adv], ParameterBindingException', 'NamedParameterNotFound,Adv') },
  { name: 'advanced function: extra positional argument', script: 'function Adv { [CmdletBinding()] param([string]$Name) $Name }; Adv a b', code: 1, stderr: /^Adv : A positional parameter cannot be found that accepts argument 'b'\.\r\n(.*\r\n){3}    \+ CategoryInfo          : InvalidArgument: \(:\) \[Adv\], ParameterBindingException\r\n    \+ FullyQualifiedErrorId : PositionalParameterNotFound,Adv\r\n/ },
  { name: 'argument transformation error', script: 'function T([int]$n) { $n }; T abc', code: 1,
    stderr: errorView('T : Cannot process argument transformation on parameter \'n\'. Cannot convert value "abc" to type "System.Int32". Error: \r\n"Input string was not in a correct format."', 'function T([int]$n) { $n }; T abc', 31, 3, 'InvalidData: (:) [T], ParameterBindingArgumentTransformationException', 'ParameterArgumentTransformationError,T') },
  { name: '[ValidateSet()]', script: 'function V { param([ValidateSet("a","b")][string]$Mode) $Mode }; V -Mode B; V -Mode z', stdout: 'B\r\n', code: 1, stderr: /^V : Cannot validate argument on parameter 'Mode'\. The argument "z" does not belong to the set "a,b" specified by the \r\nValidateSet attribute\. Supply an argument that is in the set and then try the command again\.\r\n(.*\r\n){3}    \+ CategoryInfo          : InvalidData: \(:\) \[V\], ParameterBindingValidationException\r\n    \+ FullyQualifiedErrorId : ParameterArgumentValidationError,V\r\n/ },
  { name: 'ambiguous parameter prefix', script: 'function M { param($Name, $Number) }; M -N 1', code: 1, stderr: /^M : Parameter cannot be processed because the parameter name 'N' is ambiguous\. Possible matches include: -Name -Number\.\r\n/ },
  // about_Try_Catch_Finally, about_Throw, about_Preference_Variables, about_CommonParameters.
  { name: 'throw / catch $_.Exception.Message / finally', script: 'try { throw "bad thing" } catch { $_.Exception.Message } finally { "fin" }', stdout: 'bad thing\r\nfin\r\n' },
  { name: '-ErrorAction Stop makes a cmdlet error catchable, with its ErrorRecord', script: 'try { Get-Content C:\\nope -ErrorAction Stop } catch { $_.Exception.Message; $_.Exception.GetType().FullName; $_.CategoryInfo.Category; $_.FullyQualifiedErrorId }', stdout: "Cannot find path 'C:\\nope' because it does not exist.\r\nSystem.Management.Automation.ItemNotFoundException\r\nObjectNotFound\r\nPathNotFound,Microsoft.PowerShell.Commands.GetContentCommand\r\n" },
  { name: 'catch [type] picks the clause; 1/0 wraps a DivideByZeroException', script: 'try { Get-Content C:\\nope -ErrorAction Stop } catch [System.Management.Automation.ItemNotFoundException] { "inf" } catch { "other" }; try { 1/0 } catch [System.DivideByZeroException] { "dz" }; try { throw [System.IO.FileNotFoundException]::new("nf") } catch [System.IO.IOException] { "io: $($_.Exception.Message)" }', stdout: 'inf\r\ndz\r\nio: nf\r\n' },
  { name: '$ErrorActionPreference = Stop inside try', script: '$ErrorActionPreference = "Stop"; try { Get-Content C:\\nope } catch { "caught: $_" }; "after"', stdout: "caught: Cannot find path 'C:\\nope' because it does not exist.\r\nafter\r\n" },
  { name: '$ErrorActionPreference = Stop ends the script at the first error', script: '$ErrorActionPreference = "Stop"; Get-Content C:\\nope; "not reached"', stdout: '', code: 1,
    stderr: errorView("Get-Content : Cannot find path 'C:\\nope' because it does not exist.", '$ErrorActionPreference = "Stop"; Get-Content C:\\nope; "not reached"', 34, 19, 'ObjectNotFound: (C:\\nope:String) [Get-Content], ItemNotFoundException', 'PathNotFound,Microsoft.PowerShell.Commands.GetContentCommand') },
  { name: '-ErrorAction SilentlyContinue: no output, $Error keeps it', script: 'Get-Content C:\\nope -ErrorAction SilentlyContinue; "ok"; $Error.Count; $Error[0].Exception.Message', stdout: "ok\r\n1\r\nCannot find path 'C:\\nope' because it does not exist.\r\n" },
  { name: 'a catch block assigns to the enclosing scope; rethrow with throw $_', script: '$e = $null; try { throw "m" } catch { $e = $_ }; "$e"; $e.FullyQualifiedErrorId; try { try { throw "inner" } catch { throw $_ } } catch { "outer: $_" }', stdout: 'm\r\nm\r\nouter: inner\r\n' },
  { name: 'an unknown command inside try is caught', script: 'try { nosuchcmd } catch { $_.Exception.GetType().Name; $_.CategoryInfo.Reason }', stdout: 'CommandNotFoundException\r\nCommandNotFoundException\r\n' },
  { name: 'an unknown command: the 5.1 error view, the script goes on', script: 'function Go { Foo }; Go; "next"', stdout: 'next\r\n',
    stderr: "Foo : The term 'Foo' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the \r\nspelling of the name, or if a path was included, verify that the path is correct and try again.\r\nAt line:1 char:15\r\n+ function Go { Foo }; Go; \"next\"\r\n+               ~~~\r\n    + CategoryInfo          : ObjectNotFound: (Foo:String) [], CommandNotFoundException\r\n    + FullyQualifiedErrorId : CommandNotFoundException\r\n \r\n" },
  // about_Trap.
  { name: 'trap with continue goes on silently', script: 'trap { "trapped: $_"; continue }; throw "x"; "next"', stdout: 'trapped: x\r\nnext\r\n' },
  { name: 'trap with break ends the script with the error', script: 'trap { "T: $_"; break }; "one"; throw "boom"; "never"', stdout: 'one\r\nT: boom\r\n', code: 1,
    stderr: errorView('boom', 'trap { "T: $_"; break }; "one"; throw "boom"; "never"', 33, 12, 'OperationStopped: (boom:String) [], RuntimeException', 'boom') },
  // about_Switch.
  { name: 'switch: values, default, bareword and script-block conditions', script: 'switch (3) { 1 { "one" } 3 { "three" } default { "other" } }; switch ("b") { a { "A" } default { "D" } }; switch (5) { { $_ -gt 3 } { "big" } }', stdout: 'three\r\nD\r\nbig\r\n' },
  { name: 'switch -regex sets $Matches; -wildcard over an array; break', script: 'switch -regex ("node-12") { \'^node-(\\d+)$\' { "n=$($Matches[1])" } }; switch -wildcard ("web-1", "db-2", "web-3") { "web*" { "W:$_" } "db*" { "D:$_"; break } }', stdout: 'n=12\r\nW:web-1\r\nD:db-2\r\n' },
  { name: 'switch: continue takes the next item; every matching clause runs; -casesensitive', script: 'switch (1,2,3) { 2 { "two"; continue } { $_ -ge 2 } { "ge2:$_" } default { "d$_" } }; switch -casesensitive ("A") { "a" { "cs" } default { "none" } }', stdout: 'd1\r\ntwo\r\nge2:3\r\nnone\r\n' },
  // about_For, about_Do, about_Foreach, about_Break, about_Continue.
  { name: 'for with continue, do-until and do-while, foreach with break, loop output assigned', script: 'for ($i = 0; $i -lt 3; $i++) { if ($i -eq 1) { continue }; $i }; $j = 0; do { $j++ } until ($j -ge 3); $j; do { $j-- } while ($j -gt 0); $j; foreach ($x in 1..5) { if ($x -eq 4) { break }; $x }; $l = foreach ($k in 1..3) { $k * 2 }; $l -join " "', stdout: '0\r\n2\r\n3\r\n0\r\n1\r\n2\r\n3\r\n2 4 6\r\n' },
  // about_Quoting_Rules: here-strings and sub-expressions.
  { name: 'here-strings @" "@ (expanding) and @\' \'@ (literal)', script: '$n = 2\r\n$s = @"\r\nHello $($n + 1) "q"\r\n  user: $env:USERNAME\r\n"@\r\n$s\r\n@\'\r\nraw $n\r\n\'@', stdout: 'Hello 3 "q"\r\n  user: ContainerAdministrator\r\nraw $n\r\n' },
  { name: 'sub-expressions in strings', script: '"Sub: $($h = 1; $h + 1) and $(Get-Date -Format yyyy) and $(@(1,2).Count)"', stdout: 'Sub: 2 and 2024 and 2\r\n' },
  // about_Operators (-f), String.Format, about_Type_Conversion.
  { name: '-f and [string]::Format', script: '"{0:N2} and {1,5}|{2,-4}|" -f 3.14159, 7, "ab"; [string]::Format("{0}-{1}", "a", 2); "{0:D3} {1:X}" -f 7, 255', stdout: '3.14 and     7|ab  |\r\na-2\r\n007 FF\r\n' },
  { name: 'casts: [int] rounds to even, [string], [bool], [int[]]', script: '[int]"42" + 1; [string]42 + 1; [int]3.7; [int]2.5; [bool]"false"; [int[]]("1","2") | % { $_ + 1 }', stdout: '43\r\n421\r\n4\r\n2\r\nTrue\r\n2\r\n3\r\n' },
  { name: 'a failed cast', script: '[int]"abc"', code: 1, stderr: errorView('Cannot convert value "abc" to type "System.Int32". Error: "Input string was not in a correct format."', '[int]"abc"', 1, 10, 'InvalidArgument: (:) [], RuntimeException', 'InvalidCastFromStringToInteger') },
  // about_Hash_Tables, about_PSCustomObject, about_Splatting.
  { name: 'hashtables, [ordered], [PSCustomObject]', script: '$h = @{ Name = "x"; Count = 2 }; $h.Name; $h["Count"]; $h.ContainsKey("name"); ([ordered]@{ z = 1; a = 2 }).Keys -join ","; $o = [PSCustomObject]@{ Name = "web"; Port = 80 }; "$($o.Name):$($o.Port)"', stdout: 'x\r\n2\r\nTrue\r\nz,a\r\nweb:80\r\n' },
  { name: 'splatting a hashtable into a cmdlet and an array or hashtable into a function', script: '$p = @{ Path = "C:\\f.txt"; Value = "hi" }; Set-Content @p; Get-Content C:\\f.txt; $q = @{ Path = "C:\\nope"; ErrorAction = "SilentlyContinue" }; Get-Content @q; function S($a, $b) { "$a/$b" }; $arr = "x","y"; S @arr; $hp = @{ b = 2; a = 1 }; S @hp; function W { param([switch]$All) $All }; $sw = @{ All = $true }; W @sw', stdout: 'hi\r\nx/y\r\n1/2\r\nTrue\r\n' },
];

for (const c of cases) {
  test(`ps language: ${c.name}`, async () => {
    const env = fakeEnv({ os: 'windows' });
    const r = await run(env, ['powershell.exe', '-NoProfile', ...(c.flags ?? []), '-Command', c.script]);
    if (c.stdout !== undefined) (typeof c.stdout === 'string' ? assert.equal : assert.match)(r.stdout, c.stdout as never);
    if (c.stderr !== undefined) (typeof c.stderr === 'string' ? assert.equal : assert.match)(r.stderr, c.stderr as never);
    else assert.equal(r.stderr, '');
    assert.equal(r.code, c.code ?? 0);
  });
}

test('ps language: a script file binds -File arguments to its param() block (named, switch, positional, default)', async () => {
  const env = fakeEnv({ os: 'windows' });
  env.fs.writeFile('C:\\s.ps1', '[CmdletBinding()]\r\nparam(\r\n  [Parameter(Mandatory=$true)][string]$Name,\r\n  [int]$Port = 80,\r\n  [switch]$Verbose2\r\n)\r\n"$Name/$Port/$Verbose2"\r\n$PSBoundParameters.Keys -join ","\r\n');
  const a = await run(env, ['powershell', '-File', 'C:\\s.ps1', '-Name', 'web', '-Verbose2']);
  assert.equal(a.stdout, 'web/80/True\r\nName,Verbose2\r\n');
  const b = await run(env, ['powershell', '-File', 'C:\\s.ps1', 'db', '-Port:5432']);
  // Named arguments bind before positional ones, so -Port comes first in $PSBoundParameters.
  assert.equal(b.stdout, 'db/5432/False\r\nPort,Name\r\n');
  // A script called by path from another script binds the same way.
  const c = await run(env, ['powershell', '-Command', '& C:\\s.ps1 -Port 1 -Name x']);
  assert.equal(c.stdout, 'x/1/False\r\nPort,Name\r\n');
});

test('ps language: errors in a -File script point into the file (At C:\\s.ps1:line char:col)', async () => {
  const env = fakeEnv({ os: 'windows' });
  env.fs.writeFile('C:\\s.ps1', '"one"\r\nNope-Cmd\r\nthrow "stop"\r\n');
  const r = await run(env, ['powershell', '-File', 'C:\\s.ps1']);
  assert.equal(r.stdout, 'one\r\n');
  assert.match(r.stderr, /^Nope-Cmd : The term 'Nope-Cmd' is not recognized [^]*\r\nAt C:\\s\.ps1:2 char:1\r\n\+ Nope-Cmd\r\n\+ ~~~~~~~~\r\n/);
  assert.match(r.stderr, /\r\nstop\r\nAt C:\\s\.ps1:3 char:1\r\n\+ throw "stop"\r\n\+ ~~~~~~~~~~~~\r\n    \+ CategoryInfo          : OperationStopped: \(stop:String\) \[\], RuntimeException\r\n/);
  assert.equal(r.code, 1);
  env.fs.writeFile('C:\\bad.ps1', '"x"\r\nif ($true) {\r\n');
  const p = await run(env, ['powershell', '-File', 'C:\\bad.ps1']);
  assert.match(p.stderr, /^At C:\\bad\.ps1:\d+ char:\d+\r\n[^]*Missing closing '\}' in statement block or type definition\./);
});
