// Runs PowerShell statements: scopes and variables ($env:, $_, $?, $LASTEXITCODE), pipelines of cmdlets, functions
// and native programs, flow control, and error handling (statement-terminating errors are reported and the script
// goes on; `throw` ends it unless caught).

import type { CmdArg, Expr, PipeElem, Pipeline, Stmt } from './ast.js';
import { bind, type Cmdlet, type RawArg, type Sink } from './cmdlet-api.js';
import { errorView, formatToString, HostFormatter } from './format.js';
import { setMember } from './members.js';
import { binary, enumerate, Hashtable, PsError, PsObject, ScriptBlock, toBool, toNum, toStr, unwrap, type PsValue } from './values.js';
import { castTo } from './dotnet.js';
import { staticSet } from './dotnet-static.js';
import { evaluate } from './eval.js';
import { errorRecord, psVersionTable } from './runtime.js';
import { UNAVAILABLE_CMDLETS } from './cmdlets-jobs.js';
import { checkAbort, yieldNow, type Ctx } from '../core/ctx.js';
import { findWindows, runFound } from '../core/exec.js';
import { BufferInput, Capture, type Output } from '../core/streams.js';
import { joinWindowsArgs } from '../win/cmdline.js';
import { FsError } from '../fs/vfs.js';
import { runScriptFile } from './script-file.js';

export class FlowSignal extends Error {
  constructor(readonly kind: 'break' | 'continue' | 'return', readonly value: PsValue[] = []) { super(kind); }
}
export class PsExit extends Error { constructor(readonly code: number) { super('exit'); } }
/** A `throw` (or an error with -ErrorAction Stop): terminates the script unless caught. */
export class PsTerminating extends Error { constructor(readonly error: PsError) { super(error.message); } }

export interface Registry {
  cmdlets: Map<string, Cmdlet>;
  aliases: Map<string, string>;
}

type Fn = { params: string[]; body: Stmt[] };

export class Ps {
  scopes: Map<string, PsValue>[] = [new Map()];
  functions = new Map<string, Fn>();
  lastOk = true;
  lastExitCode: number | null = null;
  errorStream: Output;
  readonly host: HostFormatter;
  readonly width = 120;
  matches: PsValue = null;

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
    const m = /^(global|script|local|private|env|variable):(.*)$/i.exec(name);
    if (m) return { scope: m[1].toLowerCase(), key: m[2].toLowerCase() };
    return { key: name.toLowerCase() };
  }

  getVar(name: string): PsValue {
    const { scope, key } = this.varKey(name);
    if (scope === 'env') {
      const k = Object.keys(this.ctx.vars).find((x) => x.toLowerCase() === key);
      return k === undefined ? null : this.ctx.vars[k];
    }
    switch (key) {
      case '?': return this.lastOk;
      case 'lastexitcode': return this.lastExitCode;
      case 'pwd': return this.ctx.cwd;
      case 'matches': return this.matches;
      case 'psversiontable': return psVersionTable(this.ctx);
      case 'host': return new PsObject(['System.Management.Automation.Internal.Host.InternalHost'], { Name: 'ConsoleHost', Version: '5.1.17763.1' });
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
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      if (this.scopes[i].has(key) && i === this.scopes.length - 1) { this.scopes[i].set(key, value); return; }
    }
    this.scopes[this.scopes.length - 1].set(key, value);
  }

  // ---- errors

  /** Reports a non-terminating error (or throws it under -ErrorAction Stop / $ErrorActionPreference = 'Stop'). */
  writeError(e: PsError, action?: string): void {
    this.lastOk = false;
    const pref = (action ?? toStr(this.getVar('ErrorActionPreference'))).toLowerCase();
    if (pref === 'stop') throw new PsTerminating(e);
    if (pref === 'silentlycontinue' || pref === 'ignore') return;
    this.host.end();
    this.errorStream.write(errorView(e, this.src, this.width));
  }

  writeHost(text: string): void {
    this.host.end();
    this.ctx.stdout.write(text);
  }

  // ---- statements

  async runBlock(stmts: Stmt[], out: Sink): Promise<void> {
    for (const s of stmts) await this.runStmt(s, out);
  }

  /** Runs one statement; statement-terminating errors are reported here. */
  async runStmt(s: Stmt, out: Sink): Promise<void> {
    await yieldNow(this.ctx.signal);
    checkAbort(this.ctx);
    try {
      await this.exec(s, out);
    } catch (e) {
      if (e instanceof PsError) {
        if (e.pos === undefined) { e.pos = s.pos; e.end = s.end; }
        this.writeError(e, 'Continue');
        return;
      }
      throw e;
    }
  }

  private async exec(s: Stmt, out: Sink): Promise<void> {
    switch (s.t) {
      case 'empty': return;
      case 'param': {
        // A script's param() block binds its arguments by position.
        const args = enumerate(this.getVar('args'));
        s.names.forEach((n, i) => { if (!this.hasVar(n)) this.setVar(n, args[i] ?? null); });
        this.setVar('args', args.slice(s.names.length));
        return;
      }
      case 'pipeline': await this.runPipeline(s.p, out); return;
      case 'assign': await this.assign(s); this.lastOk = true; return;
      case 'if': {
        for (const c of s.clauses) {
          if (toBool(await this.pipelineValue(c.cond))) { await this.runBlock(c.body, out); return; }
        }
        if (s.else) await this.runBlock(s.else, out);
        return;
      }
      case 'while':
        for (;;) {
          await yieldNow(this.ctx.signal);
          checkAbort(this.ctx);
          if (!toBool(await this.pipelineValue(s.cond))) return;
          if (await this.loopBody(s.body, out)) return;
        }
      case 'do':
        for (;;) {
          await yieldNow(this.ctx.signal);
          if (await this.loopBody(s.body, out)) return;
          const v = toBool(await this.pipelineValue(s.cond));
          if (v === s.until) return;
        }
      case 'for':
        if (s.init) await this.exec(s.init, { emit: () => undefined });
        for (;;) {
          await yieldNow(this.ctx.signal);
          checkAbort(this.ctx);
          if (s.cond && !toBool(await this.pipelineValue(s.cond))) return;
          if (await this.loopBody(s.body, out)) return;
          if (s.step) await this.exec(s.step, { emit: () => undefined });
        }
      case 'foreach': {
        const only = s.iter.elems.length === 1 && !s.iter.assign ? s.iter.elems[0] : undefined;
        if (only?.t === 'expr' && only.expr.t === 'binary' && only.expr.op === '..') {
          // foreach over a range counts without building the array (1..2147483647 in the e2e CPU tests).
          const from = Math.trunc(toNum(await this.eval(only.expr.left)));
          const to = Math.trunc(toNum(await this.eval(only.expr.right)));
          const step = from <= to ? 1 : -1;
          for (let i = from; step > 0 ? i <= to : i >= to; i += step) {
            await yieldNow(this.ctx.signal);
            checkAbort(this.ctx);
            this.setVar(s.variable, i);
            if (await this.loopBody(s.body, out)) return;
          }
          return;
        }
        const items = enumerate(await this.pipelineValue(s.iter));
        for (const it of items) {
          await yieldNow(this.ctx.signal);
          this.setVar(s.variable, it);
          if (await this.loopBody(s.body, out)) return;
        }
        return;
      }
      case 'function':
        this.functions.set(s.name.toLowerCase(), { params: s.params, body: s.body });
        return;
      case 'flow': {
        if (s.kind === 'break' || s.kind === 'continue') throw new FlowSignal(s.kind);
        if (s.kind === 'return') {
          const vals: PsValue[] = [];
          if (s.value) await this.runPipeline(s.value, { emit: (v) => vals.push(v) });
          throw new FlowSignal('return', vals);
        }
        if (s.kind === 'exit') {
          const v = s.value ? await this.pipelineValue(s.value) : null;
          throw new PsExit(v === null ? (this.lastOk ? 0 : 1) : Math.trunc(toNum(v, false)) || 0);
        }
        const v = s.value ? await this.pipelineValue(s.value) : null;
        const msg = v === null ? 'ScriptHalted' : toStr(v);
        throw new PsTerminating(new PsError(msg, 'OperationStopped', msg, { target: msg, pos: s.pos, end: s.end }));
      }
      case 'try': {
        try {
          await this.runBlock(s.body, out);
        } catch (e) {
          const err = e instanceof PsTerminating ? e.error : e instanceof PsError ? e : undefined;
          if (!err || !s.catchBody) throw e;
          const rec = errorRecord(err);
          this.scopes.push(new Map([['_', rec], ['psitem', rec]]));
          try { await this.runBlock(s.catchBody, out); } finally { this.scopes.pop(); }
        } finally {
          if (s.finallyBody) await this.runBlock(s.finallyBody, out);
        }
      }
    }
  }

  /** Runs a loop body; true when the loop should end (break). */
  private async loopBody(body: Stmt[], out: Sink): Promise<boolean> {
    try {
      await this.runBlock(body, out);
    } catch (e) {
      if (e instanceof FlowSignal && e.kind === 'break') return true;
      if (e instanceof FlowSignal && e.kind === 'continue') return false;
      throw e;
    }
    return false;
  }

  async assign(s: Extract<Stmt, { t: 'assign' }>): Promise<PsValue> {
    const vals: PsValue[] = [];
    if (s.value.t === 'pipeline') {
      const p = s.value.p;
      // `$x = expr` keeps an array as one value; `$x = cmd` collects the output.
      if (p.elems.length === 1 && p.elems[0].t === 'expr' && !p.assign) vals.push(await this.eval(p.elems[0].expr));
      else await this.runPipeline(p, { emit: (v) => vals.push(v) });
    } else if (s.value.t === 'assign') vals.push(await this.assign(s.value));
    else await this.exec(s.value, { emit: (v) => vals.push(v) });
    let value: PsValue = s.value.t === 'pipeline' && s.value.p.elems.length === 1 && s.value.p.elems[0].t === 'expr' ? vals[0] ?? null : unwrap(vals);
    if (s.op !== '=') {
      const cur = await this.eval(s.target);
      value = binary(s.op[0], cur, value);
    }
    await this.store(s.target, value);
    return value;
  }

  async store(target: Expr, value: PsValue): Promise<void> {
    switch (target.t) {
      case 'var': this.setVar(target.name, value); return;
      case 'cast': await this.store(target.expr, castTo(target.type, value)); return;
      case 'member': {
        const name = typeof target.name === 'string' ? target.name : toStr(await this.eval(target.name));
        if (target.static && target.obj.t === 'type') { staticSet(target.obj.name, name, value); return; }
        setMember(await this.eval(target.obj), name, value);
        return;
      }
      case 'index': {
        const obj = await this.eval(target.obj);
        const idx = await this.eval(target.index);
        if (obj instanceof Hashtable) { obj.set(idx, value); return; }
        if (Array.isArray(obj)) { let i = toNum(idx); if (i < 0) i += obj.length; obj[i] = value; return; }
        if (obj instanceof PsObject) { obj.setProp(toStr(idx), value); return; }
        throw new PsError('Unable to index into an object of type ' + String(obj) + '.', 'InvalidOperation', 'CannotIndex');
      }
      default: throw new PsError('The assignment expression is not valid. The input to an assignment operator must be an object that is able to accept assignments, such as a variable or a property.', 'ParserError', 'InvalidLeftHandSide');
    }
  }

  // ---- pipelines

  /** A pipeline's output as one value ($null, an item or an array). */
  async pipelineValue(p: Pipeline): Promise<PsValue> {
    const vals: PsValue[] = [];
    await this.runPipeline(p, { emit: (v) => vals.push(v) });
    return unwrap(vals);
  }

  async runPipeline(p: Pipeline, out: Sink): Promise<void> {
    if (p.assign) { out.emit(await this.assign(p.assign)); this.lastOk = true; return; }
    let sink = out;
    const savedErr = this.errorStream;
    const finishers: (() => void)[] = [];
    const discard: Output = { write: () => undefined, isTTY: false };
    for (const r of p.redirs) {
      if (r.op === '>&1') {
        this.errorStream = out.host ? this.ctx.stdout : { write: (c) => { for (const l of c.toString().replace(/\r\n$/, '').split(/\r?\n/)) out.emit(l); }, isTTY: false };
        continue;
      }
      const toNull = r.target?.t === 'var' && r.target.name.toLowerCase() === 'null';
      if (toNull) {
        if (r.fd === 2 || r.fd === '*') this.errorStream = discard;
        if (r.fd !== 2) sink = { emit: () => undefined };
        continue;
      }
      const target = r.target ? toStr(await this.eval(r.target)) : '';
      const append = r.op === '>>';
      if (r.fd === 2) {
        const cap = new Capture();
        this.errorStream = cap;
        finishers.push(() => this.writeFile(target, cap.text(), append, 'Out-File'));
        continue;
      }
      const vals: PsValue[] = [];
      sink = { emit: (v) => vals.push(v) };
      if (r.fd === '*') this.errorStream = discard;
      finishers.push(() => this.writeFile(target, formatToString(vals), append, 'Out-File'));
    }
    try {
      await this.runElements(p.elems, sink);
    } finally {
      this.errorStream = savedErr;
    }
    for (const f of finishers) f();
  }

  /** Writes text the way Out-File / `>` does in Windows PowerShell 5.1: UTF-16LE with a byte-order mark. */
  writeFile(path: string, text: string, append: boolean, command: string, encoding: 'unicode' | 'utf8' | 'ascii' = 'unicode'): void {
    const fs = this.ctx.env.fs;
    const abs = fs.resolve(this.ctx.cwd, path);
    const existing = append ? fs.stat(abs) : undefined;
    let buf: Buffer;
    if (encoding === 'unicode') buf = Buffer.concat([existing ? Buffer.alloc(0) : Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    else buf = Buffer.from(text, encoding === 'ascii' ? 'latin1' : 'utf8');
    try {
      fs.writeFile(abs, buf, { append, cred: this.ctx.cred });
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      const denied = e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'EISDIR';
      this.writeError(new PsError(denied ? `Access to the path '${abs}' is denied.` : `Could not find a part of the path '${abs}'.`, denied ? 'OpenError' : 'OpenError', denied ? `FileOpenFailure,${command === 'Out-File' ? 'Microsoft.PowerShell.Commands.OutFileCommand' : 'Microsoft.PowerShell.Commands.SetContentCommand'}` : 'FileOpenFailure', { command: command.toLowerCase() === 'out-file' ? 'out-file' : command, target: '', exceptionType: denied ? 'UnauthorizedAccessException' : 'DirectoryNotFoundException' }));
    }
  }

  private async runElements(elems: PipeElem[], out: Sink): Promise<void> {
    let input: PsValue[] | undefined;
    for (let i = 0; i < elems.length; i++) {
      const el = elems[i];
      const last = i === elems.length - 1;
      const collected: PsValue[] = [];
      const sink: Sink = last ? out : { emit: (v) => collected.push(v) };
      if (el.t === 'expr') {
        const v = await this.eval(el.expr);
        this.lastOk = true;
        // `$i++` as a statement outputs nothing; `($i++)` does.
        if (el.expr.t === 'incdec') continue;
        if (el.expr.t === 'paren' || el.expr.t === 'sub' || el.expr.t === 'arrayexpr' || Array.isArray(v)) for (const x of enumerate(v)) sink.emit(x);
        else if (v !== null || el.expr.t === 'var' || el.expr.t === 'invoke') { if (v !== null) sink.emit(v); }
      } else {
        await this.invokeCommand(el, input, sink);
      }
      input = collected;
    }
  }

  private async argValues(args: CmdArg[]): Promise<RawArg[]> {
    const out: RawArg[] = [];
    for (const a of args) {
      if (a.t === 'param') out.push({ name: a.name, value: a.value ? await this.eval(a.value) : undefined, hasValue: !!a.value, pos: a.pos });
      else out.push({ value: await this.eval(a.value), hasValue: true, pos: a.pos });
    }
    return out;
  }

  async invokeCommand(el: Extract<PipeElem, { t: 'command' }>, input: PsValue[] | undefined, out: Sink): Promise<void> {
    const nameVal = await this.eval(el.name);
    if (nameVal instanceof ScriptBlock) {
      const args = (await this.argValues(el.args)).map((a) => a.value ?? null);
      await this.callBlock(nameVal, args, input, out, el.call === '.');
      return;
    }
    const name = toStr(nameVal);
    const lower = name.toLowerCase();
    const resolved = this.registry.aliases.get(lower) ?? lower;
    const fn = this.functions.get(resolved);
    if (fn) {
      const raw = await this.argValues(el.args);
      await this.callFunction(fn, raw, input, out);
      return;
    }
    const cmdlet = this.registry.cmdlets.get(resolved);
    if (cmdlet) {
      const raw = await this.argValues(el.args);
      const bound = bind(cmdlet, raw, input);
      const action = bound.get('ErrorAction');
      const savedPref = this.getVar('ErrorActionPreference');
      if (action !== undefined) this.scopes[this.scopes.length - 1].set('erroractionpreference', action);
      this.lastOk = true;
      try {
        await cmdlet.run({ name: cmdlet.name, bound, ps: this, out, pos: el.pos, end: el.end });
      } catch (e) {
        if (e instanceof PsError && !e.command) e.command = cmdlet.name;
        if (e instanceof PsError && e.pos === undefined) { e.pos = el.pos; e.end = el.end; }
        throw e;
      } finally {
        if (action !== undefined) this.scopes[this.scopes.length - 1].set('erroractionpreference', savedPref);
      }
      return;
    }
    if (UNAVAILABLE_CMDLETS.has(resolved)) {
      this.host.end();
      this.errorStream.write(`winkube: "${name}" is not available in this emulated container\r\n`);
      this.lastOk = false;
      return;
    }
    if (/\.ps1$/i.test(name)) {
      await runScriptFile(this, name, await this.argValues(el.args), out, el);
      return;
    }
    await this.native(name, el, input, out);
  }

  async callFunction(fn: Fn, raw: RawArg[], input: PsValue[] | undefined, out: Sink): Promise<void> {
    const scope = new Map<string, PsValue>();
    const rest: PsValue[] = [];
    const params = fn.params.map((p) => p.toLowerCase());
    // `-Name value` binds the value to a declared parameter (types are not kept, so a bare `-Name` last is a switch).
    const taken = new Set<RawArg>();
    for (const [i, a] of raw.entries()) if (a.name !== undefined) {
      const p = params.find((x) => x.startsWith(a.name!.toLowerCase()));
      if (!p) continue;
      taken.add(a);
      const next = raw[i + 1];
      if (!a.hasValue && next && next.name === undefined) taken.add(next);
      scope.set(p, a.hasValue ? a.value ?? null : next && next.name === undefined ? next.value ?? null : true);
    }
    // What no parameter takes stays in $args in order, an unbound `-Name` as its text (PowerShell's simple functions).
    const pos = raw.filter((a) => !taken.has(a)).flatMap((a) => (a.name === undefined ? [a.value ?? null] : [`-${a.name}`, ...(a.hasValue ? [a.value ?? null] : [])]));
    for (const p of params) if (!scope.has(p) && pos.length) scope.set(p, pos.shift()!);
    rest.push(...pos);
    scope.set('args', rest);
    scope.set('input', input ?? []);
    if (input && input.length) scope.set('_', input[input.length - 1]);
    this.scopes.push(scope);
    try {
      await this.runBlock(fn.body, out);
    } catch (e) {
      if (e instanceof FlowSignal && e.kind === 'return') { for (const v of e.value) out.emit(v); return; }
      throw e;
    } finally {
      this.scopes.pop();
    }
  }

  async callBlock(block: ScriptBlock, args: PsValue[], input: PsValue[] | undefined, out: Sink, dotSource = false, underscore?: PsValue): Promise<void> {
    const scope = new Map<string, PsValue>();
    block.params.forEach((p, i) => scope.set(p.toLowerCase(), args[i] ?? null));
    scope.set('args', args.slice(block.params.length));
    if (underscore !== undefined) { scope.set('_', underscore); scope.set('psitem', underscore); }
    if (input) scope.set('input', input);
    if (!dotSource) this.scopes.push(scope);
    else for (const [k, v] of scope) this.scopes[this.scopes.length - 1].set(k, v);
    try {
      await this.runBlock(block.body, out);
    } catch (e) {
      if (e instanceof FlowSignal && e.kind === 'return') { for (const v of e.value) out.emit(v); return; }
      throw e;
    } finally {
      if (!dotSource) this.scopes.pop();
    }
  }

  /** Runs a native program: PATH and PATHEXT (not the current directory), output as lines of text. */
  private async native(name: string, el: Extract<PipeElem, { t: 'command' }>, input: PsValue[] | undefined, out: Sink): Promise<void> {
    const found = findWindows(this.ctx.env, name, this.ctx.vars, this.ctx.cwd, /[\\/]/.test(name) ? 'cmd' : 'powershell');
    if ('error' in found) {
      throw new PsError(`The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.`, 'ObjectNotFound', 'CommandNotFoundException', { target: name, exceptionType: 'CommandNotFoundException', pos: el.name.pos, end: el.name.end });
    }
    const argv = [name];
    for (const a of await this.argValues(el.args)) {
      if (a.name !== undefined) argv.push(a.hasValue ? `-${a.name}:${toStr(a.value ?? null)}` : `-${a.name}`);
      else argv.push(...(Array.isArray(a.value) ? a.value.map(toStr) : [toStr(a.value ?? null)]));
    }
    const toHost = !!out.host;
    const cap = new Capture();
    if (toHost) out.host!.end();
    const stdinText = input && input.length ? `${input.map(toStr).join('\r\n')}\r\n` : undefined;
    const r = await runFound(this.ctx, found, argv, {
      stdin: stdinText !== undefined ? new BufferInput(stdinText) : this.ctx.stdin,
      stdout: toHost ? this.ctx.stdout : cap,
      stderr: this.errorStream,
      vars: this.ctx.vars,
      cwd: this.ctx.cwd,
      cmdline: joinWindowsArgs(argv),
    });
    const code = typeof r === 'number' ? r : 1;
    this.lastExitCode = code;
    if (!toHost) {
      const text = cap.text().replace(/\r?\n$/, '');
      if (text !== '' || cap.buffer().length) for (const line of text.split(/\r?\n/)) out.emit(line);
    }
    this.lastOk = code === 0;
  }

  // ---- expressions

  eval(e: Expr): Promise<PsValue> {
    return evaluate(this, e);
  }
}

