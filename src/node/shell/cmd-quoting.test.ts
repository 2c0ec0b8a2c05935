import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEnv, run } from './testing/fake-env.js';
import { cmdWords, invalidPath } from './win/cmd-args.js';

// cmd.exe's internal commands with quoted paths and spaces. Quotes group and are dropped from paths (`cmd /?`,
// "MD /?"); a quote that reaches a name fails with ERROR_INVALID_NAME, which is what happens when one argv element
// holds the quoted line: hcsshim internal/cmd/cmd.go escapeArgs joins argv with EscapeArg, so cmd sees \" .

interface Case { name: string; argv: string[]; batch?: string[]; setup?: string[]; stdout?: string; stderr?: string; code: number; dirs?: string[]; files?: Record<string, string>; absent?: string[] }

const INVALID = 'The filename, directory name, or volume label syntax is incorrect.\r\n';
const c = (line: string) => ['cmd', '/c', line];
/** Lines typed into a batch file reach cmd as written, quotes and all. */
const BATCH = ['cmd', '/c', 'C:\\t.cmd'];

const cases: Case[] = [
  { name: 'mkdir of a quoted path (one argv word per argument)', argv: ['cmd', '/c', 'mkdir', 'C:\\lp\\x'], code: 0, dirs: ['C:\\lp\\x'] },
  { name: 'md of a quoted path with spaces', argv: ['cmd', '/c', 'md', 'C:\\a b\\c d'], code: 0, dirs: ['C:\\a b\\c d'] },
  { name: 'md with a quote opened mid-word and two operands', argv: BATCH, batch: ['md C:\\"a b"\\c C:\\e'], code: 0, dirs: ['C:\\a b\\c', 'C:\\e'] },
  { name: 'mkdir of an existing quoted path names it without quotes', argv: ['cmd', '/c', 'mkdir', 'C:\\lp\\x'], setup: ['C:\\lp\\x'], stderr: 'A subdirectory or file C:\\lp\\x already exists.\r\n', code: 1 },
  { name: 'quoted line in one argv word: cmd sees \\" and rejects the name', argv: c('mkdir "C:\\lp\\x"'), stderr: INVALID, code: 1, absent: ['C:\\lp', 'C:\\"C:'] },
  { name: 'md with a wildcard', argv: c('md C:\\a*'), stderr: INVALID, code: 1 },
  { name: 'md without an operand', argv: c('md'), stderr: 'The syntax of the command is incorrect.\r\n', code: 1 },
  { name: 'rd of a quoted empty directory', argv: ['cmd', '/c', 'rd', 'C:\\a b'], setup: ['C:\\a b'], code: 0, absent: ['C:\\a b'] },
  { name: 'rd of a non-empty directory', argv: ['cmd', '/c', 'rmdir', 'C:\\a b'], setup: ['C:\\a b\\c'], stderr: 'The directory is not empty.\r\n', code: 1, dirs: ['C:\\a b\\c'] },
  { name: 'rd /s /q of a quoted tree', argv: ['cmd', '/c', 'rd', '/s', '/q', 'C:\\a b'], setup: ['C:\\a b\\c'], code: 0, absent: ['C:\\a b'] },
  { name: 'rd of a missing directory', argv: ['cmd', '/c', 'rd', 'C:\\no such'], stderr: 'The system cannot find the file specified.\r\n', code: 1 },
  { name: 'cd into a quoted path, then cd prints it', argv: ['cmd', '/c', 'cd', '/d', 'C:\\a b', '&', 'cd'], setup: ['C:\\a b'], stdout: 'C:\\a b\r\n', code: 0 },
  { name: 'cd takes unquoted spaces as one path', argv: c('cd C:\\a b& cd'), setup: ['C:\\a b'], stdout: 'C:\\a b\r\n', code: 0 },
  { name: 'cd to a quoted missing path', argv: ['cmd', '/c', 'cd', 'C:\\x y'], stderr: 'The system cannot find the path specified.\r\n', code: 1 },
  { name: 'echo into a quoted target with spaces, then type it', argv: BATCH, batch: ['echo hi>"C:\\a b\\f g.txt"', 'type "C:\\a b\\f g.txt"'], setup: ['C:\\a b'], stdout: 'hi\r\n', code: 0, files: { 'C:\\a b\\f g.txt': 'hi\r\n' } },
  { name: 'append to a target quoted mid-word', argv: BATCH, batch: ['echo one>C:\\"a b"\\f.txt', 'echo two>>"C:\\a b"\\f.txt'], setup: ['C:\\a b'], code: 0, files: { 'C:\\a b\\f.txt': 'one\r\ntwo\r\n' } },
  { name: 'redirect to a name with a quote left in it', argv: c('echo x > \\"C:\\t.txt\\"'), stderr: INVALID, code: 1 },
  { name: 'redirect into a missing quoted directory', argv: BATCH, batch: ['echo x > "C:\\no dir\\t.txt"'], stderr: 'The system cannot find the path specified.\r\n', code: 1 },
  { name: 'type of a quoted directory', argv: ['cmd', '/c', 'type', 'C:\\a b'], setup: ['C:\\a b'], stderr: 'Access is denied.\r\n', code: 1 },
  { name: 'copy between quoted paths', argv: BATCH, batch: ['echo x>"C:\\s t.txt"', 'copy "C:\\s t.txt" "C:\\u v.txt"'], stdout: '        1 file(s) copied.\r\n', code: 0, files: { 'C:\\u v.txt': 'x\r\n' } },
  { name: 'copy into a quoted directory keeps the name', argv: BATCH, batch: ['echo x>C:\\s.txt', 'copy C:\\s.txt "C:\\a b"'], setup: ['C:\\a b'], stdout: '        1 file(s) copied.\r\n', code: 0, files: { 'C:\\a b\\s.txt': 'x\r\n' } },
  { name: 'del of a quoted file', argv: BATCH, batch: ['echo x>"C:\\s t.txt"', 'del "C:\\s t.txt"'], code: 0, absent: ['C:\\s t.txt'] },
  { name: 'del of a quoted missing file names the full path', argv: ['cmd', '/c', 'del', 'C:\\s t.txt'], stderr: 'Could Not Find C:\\s t.txt\r\n', code: 0 },
  { name: 'dir /b of a quoted directory', argv: ['cmd', '/c', 'dir', '/b', 'C:\\a b'], setup: ['C:\\a b\\c d'], stdout: 'c d\r\n', code: 0 },
  { name: 'dir of a name with a quote left in it', argv: c('dir /b \\"C:\\\\"'), stderr: INVALID, code: 1 },
];

for (const k of cases) {
  test(`cmd quoting: ${k.name}`, async () => {
    const env = fakeEnv({ os: 'windows' });
    for (const d of k.setup ?? []) env.fs.mkdir(d, { parents: true });
    if (k.batch) env.fs.writeFile('C:\\t.cmd', ['@echo off', ...k.batch, ''].join('\r\n'));
    const r = await run(env, k.argv);
    assert.equal(r.stdout, k.stdout ?? '');
    assert.equal(r.stderr, k.stderr ?? '');
    assert.equal(r.code, k.code);
    for (const d of k.dirs ?? []) assert.equal(env.fs.stat(d)?.kind, 'dir', d);
    for (const [f, text] of Object.entries(k.files ?? {})) assert.equal(env.fs.readFile(f).toString(), text, f);
    for (const p of k.absent ?? []) assert.equal(env.fs.stat(p), undefined, p);
  });
}

const splits: [string, string[]][] = [
  [' "C:\\a b"  c ', ['"C:\\a b"', 'c']],
  ['C:\\"a b"\\c /q', ['C:\\"a b"\\c', '/q']],
  ['"unterminated x', ['"unterminated x']],
  ['', []],
];
for (const [line, want] of splits) test(`cmd quoting: words of ${JSON.stringify(line)}`, () => assert.deepEqual(cmdWords(line), want));

const names: [string, boolean, boolean][] = [
  ['C:\\lp\\x', false, false], ['\\C:\\lp\\x\\', false, true], ['C:\\a"b', false, true], ['C:\\*.txt', true, false], ['C:\\*.txt', false, true], ['a|b', true, true],
];
for (const [p, wild, bad] of names) test(`cmd quoting: ${p} is ${bad ? 'invalid' : 'valid'}${wild ? ' as a pattern' : ''}`, () => assert.equal(invalidPath(p, wild), bad));
