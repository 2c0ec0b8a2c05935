// A PowerShell session: its scopes and variables ($env:, $_, $?, $LASTEXITCODE, $Error), functions, error
// reporting under $ErrorActionPreference, and the entry points the statement, pipeline, command and function
// modules implement.

import type { Expr, Pipeline, Stmt } from './ast.js';
import type { Cmdlet, RawArg, Sink } from './cmdlet-api.js';
import { HostFormatter } from './format.js';
import { renderError, type PsEdition } from './error-views.js';
import { PsError, PsObject, ScriptBlock, toStr, type PsValue } from './values.js';
import { evaluate } from './eval.js';
import { psVersionTable, PWSH_VERSION } from './runtime.js';
import { errorRecord } from './exceptions.js';
import { runStatements, runStmt } from './statements.js';
import { pipelineValue, runPipeline, writeFile, type FileEncoding } from './pipeline.js';
import { assign, store } from './assign.js';
import { invokeCommand } from './commands.js';
import { callBlock, callFunction, type PsFunction } from './functions.js';
import { PsTerminating } from './signals.js';
import type { PipeElem } from './ast.js';
import type { Ctx } from '../core/ctx.js';
import type { Output } from '../core/streams.js';

export { FlowSignal, PsExit, PsTerminating } from './signals.js';

/** One function or script call: its name, the name error ids carry, and where it was called from (none for -File). */
export interface Invocation {
  name: string;
  idName: string;
  site?: { pos: number; end: number; origin: { src: string; path?: string } };
}

export interface Registry {
  cmdlets: Map<string, Cmdlet>;
  aliases: Map<string, string>;
}

export class Ps {
  scopes: Map<string, PsValue>[] = [new Map()];
  functions = new Map<string, PsFunction>();
  lastOk = true;
  lastExitCode: number | null = null;
  errorStream: Output;
  readonly host: HostFormatter;
  readonly width = 120;
  matches: PsValue = null;
  /** The .ps1 file running (for error positions); undefined for -Command text. */
  scriptPath?: string;
  /** Windows PowerShell 5.1 (powershell.exe) or PowerShell 7 (pwsh.exe): $PSVersionTable and the error view follow it. */
  edition: PsEdition = 'Desktop';
  /** powershell.exe -NonInteractive: nothing prompts (missing mandatory parameters fail instead). */
  nonInteractive = false;
  /** How many try/catch blocks and traps are active: errors then travel to them instead of being reported. */
  handlers = 0;
  /** $Error: the session's error records, newest first. */
  readonly errors: PsValue[] = [];
  /** The session a `ForEach-Object -Parallel` runspace was started from: `$using:name` reads its variables. */
  usingFrom?: Ps;
  /** The functions and scripts running, innermost last ($MyInvocation of each): Write-Error reports its caller. */
  readonly invocations: Invocation[] = [];

  constructor(readonly ctx: Ctx, public src: string, readonly registry: Registry) {
    this.errorStream = ctx.stderr;
    this.host = new HostFormatter((s) => ctx.stdout.write(s));
    const g = this.scopes[0];
    g.set('true', true);
    g.set('false', false);
    g.set('null', null);
    g.set('erroractionpreference', 'Continue');
    g.set('ofs', ' ');
    g.set('pid', 4000 + (ctx.env.hostname.length * 7) % 1000);
    g.set('home', ctx.vars.USERPROFILE ?? 'C:\\Users\\ContainerAdministrator');
  }

  // ---- variables

  private varKey(name: string): { scope?: string; key: string } {
    const m = /^(global|script|local|private|env|variable|using):(.*)$/i.exec(name);
    if (m) return { scope: m[1].toLowerCase(), key: m[2].toLowerCase() };
    return { key: name.toLowerCase() };
  }

  getVar(name: string): PsValue {
    const { scope, key } = this.varKey(name);
    if (scope === 'env') {
      const k = Object.keys(this.ctx.vars).find((x) => x.toLowerCase() === key);
      return k === undefined ? null : this.ctx.vars[k];
    }
    if (scope === 'using') {
      if (this.usingFrom) return this.usingFrom.getVar(key);
      throw new PsError('A Using variable cannot be retrieved. A Using variable can be used only with Invoke-Command, Start-Job, or InlineScript in the script workflow. When it is used with Invoke-Command, the Using variable is valid only if the script block is invoked on a remote computer.', 'InvalidOperation', 'UsingWithoutInvokeCommand');
    }
    switch (key) {
      case '?': return this.lastOk;
      case 'lastexitcode': return this.lastExitCode;
      case 'pwd': return this.ctx.cwd;
      case 'matches': return this.matches;
      case 'error': return this.errors;
      case 'psversiontable': return psVersionTable(this.ctx, this.edition);
      case 'host': return new PsObject(['System.Management.Automation.Internal.Host.InternalHost'], { Name: 'ConsoleHost', Version: this.edition === 'Core' ? PWSH_VERSION : '5.1.17763.1' });
    }
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i];
      if (s.has(key)) return s.get(key) ?? null;
    }
    return null;
  }

  hasVar(name: string): boolean {
    const { key } = this.varKey(name);
    return this.scopes.some((s) => s.has(key));
  }

  setVar(name: string, value: PsValue): void {
    const { scope, key } = this.varKey(name);
    if (scope === 'env') {
      const k = Object.keys(this.ctx.vars).find((x) => x.toLowerCase() === key);
      if (k !== undefined) delete this.ctx.vars[k];
      if (value !== null && value !== '') this.ctx.vars[k ?? name.slice(4)] = toStr(value);
      return;
    }
    if (key === 'true' || key === 'false' || key === 'null') throw new PsError(`Cannot overwrite variable ${key} because it is read-only or constant.`, 'WriteError', 'VariableNotWritable', { target: key });
    if (scope === 'global' || scope === 'script') { this.scopes[0].set(key, value); return; }
    // Assignment creates the variable in the current scope (a child scope's copy hides the parent's).
    this.scopes[this.scopes.length - 1].set(key, value);
  }

  // ---- errors

  /** Reports a non-terminating error (or throws it under -ErrorAction Stop / $ErrorActionPreference = 'Stop'). */
  writeError(e: PsError, action?: string): void {
    this.lastOk = false;
    this.locate(e);
    const pref = (action ?? toStr(this.getVar('ErrorActionPreference'))).toLowerCase();
    if (pref === 'stop') throw new PsTerminating(e);
    if (pref === 'ignore') return;
    this.recordError(e);
    if (pref === 'silentlycontinue') return;
    this.host.end();
    this.errorStream.write(this.renderError(e));
  }

  /** An error record as the console shows it, in the session's $ErrorView. */
  renderError(e: PsError, src = this.src): string {
    const v = this.getVar('ErrorView');
    return renderError(e, src, this.width, this.edition, v === null || v === undefined ? undefined : toStr(v));
  }

  /** Ties an error's position to the script text running now (before another script's text replaces it). */
  locate(e: PsError): void {
    if (e.pos !== undefined && !e.origin) e.origin = { src: this.src, path: this.scriptPath };
  }

  /** Adds an error to $Error (newest first; PowerShell keeps 256). */
  recordError(e: PsError): PsObject {
    const rec = errorRecord(e);
    this.errors.unshift(rec);
    if (this.errors.length > 256) this.errors.length = 256;
    return rec;
  }

  writeHost(text: string): void {
    this.host.end();
    this.ctx.stdout.write(text);
  }

  // ---- the language, implemented by its modules

  /** Runs a statement list; trap statements in it handle its terminating errors. */
  runBlock(stmts: Stmt[], out: Sink): Promise<void> { return runStatements(this, stmts, out); }
  /** Runs one statement; statement-terminating errors are reported here (or go to an enclosing try/trap). */
  runStmt(s: Stmt, out: Sink): Promise<void> { return runStmt(this, s, out); }
  /** A pipeline's output as one value ($null, an item or an array). */
  pipelineValue(p: Pipeline): Promise<PsValue> { return pipelineValue(this, p); }
  runPipeline(p: Pipeline, out: Sink): Promise<void> { return runPipeline(this, p, out); }
  /** Writes text the way Out-File / `>` does in Windows PowerShell 5.1: UTF-16LE with a byte-order mark. */
  writeFile(path: string, text: string, append: boolean, command: string, encoding: FileEncoding = 'unicode'): void { writeFile(this, path, text, append, command, encoding); }
  assign(s: Extract<Stmt, { t: 'assign' }>): Promise<PsValue> { return assign(this, s); }
  store(target: Expr, value: PsValue): Promise<void> { return store(this, target, value); }
  invokeCommand(el: Extract<PipeElem, { t: 'command' }>, input: PsValue[] | undefined, out: Sink): Promise<void> { return invokeCommand(this, el, input, out); }
  callFunction(fn: PsFunction, raw: RawArg[], input: PsValue[] | undefined, out: Sink): Promise<void> { return callFunction(this, fn, raw, input, out); }
  callBlock(block: ScriptBlock, args: PsValue[], input: PsValue[] | undefined, out: Sink, dotSource = false, underscore?: PsValue): Promise<void> {
    return callBlock(this, block, args.map((value) => ({ value, hasValue: true, pos: -1 })), input, out, dotSource, underscore);
  }
  eval(e: Expr): Promise<PsValue> { return evaluate(this, e); }
}
