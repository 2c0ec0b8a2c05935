// powershell.exe (Windows PowerShell 5.1) and pwsh.exe (PowerShell 7): -Command / -c strings (the rest of the arguments
// joined), -File scripts, -EncodedCommand, `-Command -` and interactive sessions; the exit code is `exit N`, else 1 when
// the last statement failed (a native program's nonzero exit included), else 0.

import type { Ctx } from '../core/ctx.js';
import type { Cmdlet } from './cmdlet-api.js';
import { CORE_ALIASES, CORE_CMDLETS } from './cmdlets-core.js';
import { NET_ALIASES, NET_CMDLETS } from './cmdlets-net.js';
import { JOB_ALIASES, JOB_CMDLETS } from './cmdlets-jobs.js';
import { SERVICE_ALIASES, SERVICE_CMDLETS } from './cmdlets-services.js';
import { HOST_NET_CMDLETS } from './cmdlets-host-net.js';
import { errorView } from './format.js';
import { FlowSignal, Ps, PsExit, PsTerminating, type Registry } from './interp.js';
import { PsParseError, PsParser } from './parser.js';
import { PsError, type PsValue } from './values.js';
import type { PsEdition } from './error-views.js';
import { PWSH_VERSION } from './runtime.js';
import { bindParams, rawArgsFromText } from './param-binding.js';

function registry(): Registry {
  const cmdlets = new Map<string, Cmdlet>();
  for (const c of [...CORE_CMDLETS, ...NET_CMDLETS, ...JOB_CMDLETS, ...SERVICE_CMDLETS, ...HOST_NET_CMDLETS]) {
    const k = c.name.toLowerCase();
    if (cmdlets.has(k)) throw new Error(`cmdlet ${c.name} registered twice`);
    cmdlets.set(k, c);
  }
  return { cmdlets, aliases: new Map(Object.entries({ ...CORE_ALIASES, ...NET_ALIASES, ...JOB_ALIASES, ...SERVICE_ALIASES })) };
}

/** Functions Windows PowerShell defines in every session (mkdir/md wrap New-Item). */
// mkdir -Force returns an existing directory instead of failing (New-Item -Force).
const MKDIR = '{ $f = $false; $p = $null; foreach ($x in $args) { if ("$x" -eq "-Force") { $f = $true } else { if ($p -eq $null) { $p = $x } } }; if ($f) { New-Item -ItemType Directory -Path $p -Force } else { New-Item -ItemType Directory -Path $p } }';
const PRELUDE = `function mkdir ${MKDIR}; function md ${MKDIR}`;

function parseErrorView(e: PsParseError, src: string, path?: string): string {
  const pe = new PsError(e.message, 'ParserError', e.id, { pos: e.pos, end: e.pos + e.len, exceptionType: 'ParentContainsErrorRecordException' });
  pe.origin = { src, path };
  const v = errorView(pe, src, 120).split('\r\n');
  // Parser errors put the message after the position block.
  const msgLines = v.findIndex((l) => l.startsWith('At '));
  const head = v.slice(0, msgLines);
  const rest = v.slice(msgLines);
  return [...rest.slice(0, 3), ...head, ...rest.slice(3)].join('\r\n');
}

/** Runs a script; `args` (powershell -File s.ps1 a b) bind to its leading param() block. */
export async function runPowerShell(ps: Ps, src: string, script?: { path: string; args: PsValue[] }): Promise<number> {
  ps.src = src;
  let stmts;
  try {
    stmts = PsParser.parse(src, ps.edition);
  } catch (e) {
    if (!(e instanceof PsParseError)) throw e;
    if (ps.edition === 'Core') {
      const pe = new PsError(e.message, 'ParserError', e.id, { pos: e.pos, end: e.pos + e.len, exceptionType: 'ParentContainsErrorRecordException' });
      pe.origin = { src, path: ps.scriptPath };
      ps.ctx.stderr.write(ps.renderError(pe));
    } else {
      ps.ctx.stderr.write(parseErrorView(e, src, ps.scriptPath));
    }
    return 1;
  }
  const out = { emit: (v: Parameters<typeof ps.host.emit>[0]) => ps.host.emit(v), host: ps.host };
  try {
    if (script && stmts[0]?.t === 'param') {
      const [param, ...rest] = stmts;
      stmts = rest;
      await bindParams(ps, param.params, rawArgsFromText(script.args), script.path, undefined);
    }
    await ps.runBlock(stmts, out);
    ps.host.end();
    return ps.lastOk ? 0 : 1;
  } catch (e) {
    ps.host.end();
    if (e instanceof PsExit) return e.code;
    if (e instanceof PsTerminating) {
      ps.ctx.stderr.write(ps.renderError(e.error));
      return 1;
    }
    if (e instanceof FlowSignal) return 0;
    if (e instanceof PsError) {
      // A script's own parameters failed to bind: nothing of it ran.
      ps.ctx.stderr.write(ps.renderError(e));
      return 1;
    }
    throw e;
  }
}

interface PsArgs { command?: string; file?: string; fileArgs: string[]; interactive: boolean; noExit: boolean; fromStdin: boolean; nonInteractive?: boolean; error?: string }

function parseArgs(argv: string[], edition: PsEdition): PsArgs {
  const a: PsArgs = { fileArgs: [], interactive: false, noExit: false, fromStdin: false };
  const match = (x: string, full: string, min = 1) => x.length - 1 >= min && full.startsWith(x.slice(1).toLowerCase());
  for (let i = 1; i < argv.length; i++) {
    const x = argv[i];
    const l = x.toLowerCase();
    // pwsh's first positional argument is -File; powershell.exe's is -Command (about_Pwsh, about_PowerShell_exe).
    if (!x.startsWith('-') && !x.startsWith('/')) {
      if (edition === 'Core') { a.file = x; a.fileArgs = argv.slice(i + 1); } else a.command = argv.slice(i).join(' ');
      break;
    }
    if (l === '-' ) { a.fromStdin = true; break; }
    if (match(l, 'command')) {
      const rest = argv.slice(i + 1);
      if (rest.length === 1 && rest[0] === '-') a.fromStdin = true;
      else a.command = rest.join(' ');
      break;
    }
    if (match(l, 'file', 1) && l !== '-f' || l === '-f' || l === '-file') {
      a.file = argv[i + 1];
      a.fileArgs = argv.slice(i + 2);
      break;
    }
    if (match(l, 'encodedcommand', 1) && l.startsWith('-e') && !match(l, 'executionpolicy', 2)) {
      a.command = Buffer.from(argv[i + 1] ?? '', 'base64').toString('utf16le');
      break;
    }
    if (match(l, 'executionpolicy', 2) || match(l, 'windowstyle', 1) || match(l, 'version', 1) || match(l, 'inputformat', 2) || match(l, 'outputformat', 1) || match(l, 'configurationname', 2)) { i++; continue; }
    if (match(l, 'noexit', 3)) { a.noExit = true; continue; }
    if (match(l, 'noninteractive', 4)) { a.nonInteractive = true; continue; }
    if (match(l, 'noprofile', 3) || match(l, 'nologo', 3) || match(l, 'sta', 1) || match(l, 'mta', 1)) continue;
    a.error = `-${x.replace(/^[-/]/, '')}`;
    break;
  }
  if (a.command === undefined && a.file === undefined && !a.fromStdin) a.interactive = true;
  return a;
}

async function interactive(ps: Ps): Promise<number> {
  const ctx = ps.ctx;
  ctx.stdout.write(ps.edition === 'Core' ? `PowerShell ${PWSH_VERSION}\r\n` : 'Windows PowerShell\r\nCopyright (C) Microsoft Corporation. All rights reserved.\r\n\r\n');
  for (;;) {
    ctx.stdout.write(`PS ${ctx.cwd}> `);
    let src = await ctx.stdin.readLine();
    if (src === null) return ps.lastOk ? 0 : 1;
    for (;;) {
      try { PsParser.parse(src, ps.edition); break; } catch (e) {
        if (!(e instanceof PsParseError) || !/^Missing closing|missing the terminator|incomplete/i.test(e.message)) break;
        ctx.stdout.write('>> ');
        const more = await ctx.stdin.readLine();
        if (more === null) break;
        src += `\n${more}`;
      }
    }
    const code = await runPowerShell(ps, src.replace(/\r$/, ''));
    if (/^\s*exit\b/i.test(src)) return code;
  }
}

export async function powershellMain(argv: string[], ctx: Ctx, edition: PsEdition = 'Desktop'): Promise<number> {
  const a = parseArgs(argv, edition);
  if (a.error) {
    ctx.stderr.write(`${a.error} : The term '${a.error}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n`);
    return 1;
  }
  const ps = new Ps(ctx, '', registry());
  ps.edition = edition;
  ps.nonInteractive = !!a.nonInteractive;
  await runPowerShell(ps, PRELUDE);
  ps.lastOk = true;
  if (a.file !== undefined) {
    const path = ctx.env.fs.resolve(ctx.cwd, a.file);
    if (edition === 'Core' && !ctx.env.fs.stat(path)) {
      // CommandLineParameterParser: ArgumentFileDoesNotExist, exit code 64 (ExitCodeBadCommandLineParameter).
      ctx.stderr.write(`The argument '${a.file}' is not recognized as the name of a script file. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n`);
      return 64;
    }
    if (!/\.ps1$/i.test(a.file) || !ctx.env.fs.stat(path)) {
      ctx.stdout.write(`The argument '${a.file}' to the -File parameter does not exist. Provide the path to an existing '.ps1' file as an argument to the -File parameter.\r\n`);
      return -196608;
    }
    let text = ctx.env.fs.readFile(path, ctx.cred).toString();
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    ps.scopes[0].set('args', a.fileArgs);
    ps.scopes[0].set('psscriptroot', path.replace(/\\[^\\]*$/, ''));
    ps.scopes[0].set('pscommandpath', path);
    ps.scriptPath = path;
    // A -File script is the outermost invocation, called from nowhere in any script text.
    ps.invocations.push({ name: path, idName: path.replace(/^.*\\/, '') });
    return runPowerShell(ps, text, { path, args: a.fileArgs });
  }
  if (a.fromStdin) {
    const text = (await ctx.stdin.readAll()).toString();
    return runPowerShell(ps, text);
  }
  if (a.command !== undefined) {
    const code = await runPowerShell(ps, a.command);
    if (!a.noExit) return code;
  }
  return interactive(ps);
}
