// Executes parsed shell programs: lists, and-or chains, pipelines (concurrent stages joined by pipes), compound
// commands, functions, redirections and command lookup (function, builtin, then PATH), with each dialect's error
// wording (BusyBox ash, dash, bash).

import type { Command, List, Pipeline, Redir, Word } from './ast.js';
import { ParseError, Parser } from './parser.js';
import { expandPattern, expandString, expandWord, ExpansionError, type ExpandHost } from './expand.js';
import { ArithError, evalArith } from './arith.js';
import { matchPattern } from './glob.js';
import type { Stdio } from './redirect.js';
import { applyRedirs } from './apply-redirs.js';
import { BUILTINS, SPECIAL_BUILTINS } from './builtins.js';
import { testExpr } from '../applets/test-expr.js';
import { Aborted, anySignal, checkAbort, yieldNow, type Ctx, type ExecFailure } from '../core/ctx.js';
import { BrokenPipe, BufferInput, Capture, Pipe, type Input, type Output } from '../core/streams.js';
import { passwd } from '../core/users.js';

export type Dialect = 'ash' | 'dash' | 'bash';

import { FunctionReturn, LoopControl, ShellExit } from './control.js';

export { FunctionReturn, LoopControl, ShellExit };

export interface ShIo extends Stdio { fds?: Map<number, Input | Output> }

interface Var { value: string; exported: boolean; readonly?: boolean }

interface Job { id: number; pid: number; done: Promise<number>; abort: AbortController; status?: number }

let nextPid = 100;

export class Shell implements ExpandHost {
  vars = new Map<string, Var>();
  /** $1, $2, ... */
  params: string[] = [];
  functions = new Map<string, Command>();
  status = 0;
  lastSubstStatus = 0;
  options = { errexit: false, nounset: false, xtrace: false, noglob: false, pipefail: false };
  traps = new Map<string, string>();
  jobs: Job[] = [];
  lastBgPid?: number;
  lineNo = 0;
  /** How errors are prefixed: `-c` strings, script files, interactive sessions. */
  mode: 'c' | 'script' | 'interactive' | 'stdin' = 'c';
  condDepth = 0;
  loopDepth = 0;
  funcDepth = 0;
  localsStack: Map<string, Var | undefined>[] = [];
  readonly pid = nextPid++;
  signal: AbortSignal;

  constructor(readonly ctx: Ctx, readonly dialect: Dialect, public name: string) {
    this.signal = ctx.signal;
    for (const [k, v] of Object.entries(ctx.vars)) this.vars.set(k, { value: v, exported: true });
    if (!this.vars.has('IFS')) this.vars.set('IFS', { value: ' \t\n', exported: false });
    this.vars.set('PWD', { value: ctx.cwd, exported: true });
    if (!this.vars.has('PS1')) this.vars.set('PS1', { value: ctx.cred.uid === 0 ? '# ' : '$ ', exported: false });
    this.vars.set('PPID', { value: '1', exported: false });
    this.vars.set('OPTIND', { value: '1', exported: false });
  }

  // ---- ExpandHost

  get fs() { return this.ctx.env.fs; }
  get cwd() { return this.ctx.cwd; }
  get nounset() { return this.options.nounset; }
  get noglob() { return this.options.noglob; }
  getVar(name: string): string | undefined { return this.vars.get(name)?.value; }
  setVar(name: string, value: string): void {
    const v = this.vars.get(name);
    if (v?.readonly) throw new ExpansionError(`${name}: is read only`, 2);
    if (v) v.value = value;
    else this.vars.set(name, { value, exported: this.allExport });
  }
  allExport = false;
  positional(): string[] { return this.params; }
  special(name: string): string | undefined {
    switch (name) {
      case '?': return String(this.status);
      case '$': return String(this.pid);
      case '!': return this.lastBgPid === undefined ? '' : String(this.lastBgPid);
      case '#': return String(this.params.length);
      case '-': return (this.options.errexit ? 'e' : '') + (this.options.nounset ? 'u' : '') + (this.options.xtrace ? 'x' : '') + (this.mode === 'interactive' ? 'i' : '');
      case '0': return this.name;
    }
    return undefined;
  }
  home(user?: string): string | undefined {
    if (!user) return this.getVar('HOME') ?? '/';
    return passwd(this.fs).find((p) => p.name === user)?.home;
  }
  async commandSubst(body: List): Promise<string> {
    const sub = this.subshell();
    const cap = new Capture();
    const status = await sub.runSubshellList(body, { stdin: this.ctx.stdin, stdout: cap, stderr: this.ctx.stderr });
    this.lastSubstStatus = status;
    this.status = status;
    return cap.text();
  }

  /** The environment children get: exported variables. */
  exportedEnv(extra?: Record<string, string>): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of this.vars) if (v.exported) env[k] = v.value;
    return { ...env, ...extra };
  }

  subshell(): Shell {
    const s = new Shell({ ...this.ctx, vars: {}, cwd: this.ctx.cwd }, this.dialect, this.name);
    s.vars = new Map([...this.vars].map(([k, v]) => [k, { ...v }]));
    s.params = [...this.params];
    s.functions = new Map(this.functions);
    s.options = { ...this.options };
    s.status = this.status;
    s.mode = this.mode;
    s.lineNo = this.lineNo;
    s.signal = this.signal;
    s.allExport = this.allExport;
    s.traps = new Map([...this.traps].filter(([, v]) => v === ''));
    return s;
  }

  // ---- messages

  /** The dialect's prefix for error messages: `sh: `, `sh: 1: `, `bash: line 1: `. */
  prefix(): string {
    if (this.dialect === 'dash') return `${this.name}: ${this.lineNo}: `;
    if (this.dialect === 'bash') return this.mode === 'interactive' ? `${this.name}: ` : `${this.name}: line ${this.lineNo}: `;
    return this.mode === 'script' ? `${this.name}: line ${this.lineNo}: ` : `${this.name}: `;
  }

  error(io: Stdio, msg: string): void {
    io.stderr.write(`${this.prefix()}${msg}\n`);
  }

  libc(): 'musl' | 'glibc' {
    return this.ctx.env.toolset === 'alpine' ? 'musl' : 'glibc';
  }

  syntaxError(io: Stdio, e: ParseError): number {
    this.lineNo = e.line;
    if (this.dialect === 'bash') {
      if (e.kind === 'token') this.error(io, `syntax error near unexpected token \`${e.token}'`);
      else if (e.kind === 'quote') this.error(io, `unexpected EOF while looking for matching \`${e.token}'`);
      else this.error(io, 'syntax error: unexpected end of file');
      return 2;
    }
    if (this.dialect === 'dash') {
      if (e.kind === 'token') this.error(io, `Syntax error: "${e.token}" unexpected${e.expecting ? ` (expecting ${e.expecting})` : ''}`);
      else if (e.kind === 'quote') this.error(io, 'Syntax error: Unterminated quoted string');
      else this.error(io, `Syntax error: end of file unexpected${e.expecting ? ` (expecting ${e.expecting})` : ''}`);
      return 2;
    }
    if (e.kind === 'token') this.error(io, `syntax error: unexpected "${e.token}"${e.expecting ? ` (expecting ${e.expecting})` : ''}`);
    else if (e.kind === 'quote') this.error(io, 'syntax error: unterminated quoted string');
    else this.error(io, `syntax error: unexpected end of file${e.expecting ? ` (expecting ${e.expecting})` : ''}`);
    return 2;
  }

  // ---- running

  /** Parses and runs source text; syntax errors end it with status 2. */
  async runSource(src: string, io: ShIo): Promise<number> {
    let list: List;
    try {
      list = Parser.parse(src, this.dialect === 'bash');
    } catch (e) {
      if (e instanceof ParseError) return (this.status = this.syntaxError(io, e));
      throw e;
    }
    return this.runList(list, io);
  }

  /** Runs a list in this (already cloned) shell, turning `exit` into a status. */
  async runSubshellList(list: List, io: ShIo): Promise<number> {
    try {
      return await this.runList(list, io);
    } catch (e) {
      if (e instanceof ShellExit) return e.status;
      if (e instanceof BrokenPipe) return 141;
      throw e;
    }
  }

  async runList(list: List, io: ShIo): Promise<number> {
    for (const item of list) {
      if (item.bg) {
        this.startJob(item.ao, io);
        this.status = 0;
        continue;
      }
      await this.runAndOr(item.ao, io);
    }
    return this.status;
  }

  private startJob(ao: List[number]['ao'], io: ShIo): void {
    const sub = this.subshell();
    const abort = new AbortController();
    sub.signal = anySignal(this.ctx.env.lifetime ?? this.signal, abort.signal);
    const pid = sub.pid;
    const job: Job = { id: this.jobs.length + 1, pid, abort, done: Promise.resolve(0) };
    job.done = (async () => {
      try {
        return await sub.runAndOr(ao, { ...io, stdin: new BufferInput('') });
      } catch (e) {
        if (e instanceof ShellExit) return e.status;
        if (e instanceof Aborted) return e.reason === 'SIGKILL' ? 137 : 143;
        if (e instanceof BrokenPipe) return 141;
        throw e;
      }
    })().then((s) => (job.status = s));
    this.jobs.push(job);
    this.lastBgPid = pid;
    if (this.mode === 'interactive') io.stderr.write(`[${job.id}] ${pid}\n`);
  }

  async runAndOr(ao: List[number]['ao'], io: ShIo): Promise<number> {
    const chained = ao.rest.length > 0;
    if (chained) this.condDepth++;
    let status: number;
    try {
      status = await this.runPipeline(ao.first, io);
      for (let i = 0; i < ao.rest.length; i++) {
        const { op, p } = ao.rest[i];
        if ((op === '&&') !== (status === 0)) continue;
        if (i === ao.rest.length - 1 && chained) this.condDepth--;
        try {
          status = await this.runPipeline(p, io);
        } finally {
          if (i === ao.rest.length - 1 && chained) this.condDepth++;
        }
      }
    } finally {
      if (chained) this.condDepth--;
    }
    this.status = status;
    return status;
  }

  async runPipeline(p: Pipeline, io: ShIo): Promise<number> {
    await yieldNow(this.signal);
    checkAbort({ signal: this.signal });
    if (p.bang) this.condDepth++;
    let status: number;
    try {
      if (p.cmds.length === 1) {
        status = await this.runCommand(p.cmds[0], io);
      } else {
        const pipes = p.cmds.slice(1).map(() => new Pipe());
        const stages = p.cmds.map(async (c, i) => {
          const sub = this.subshell();
          const stageIo: ShIo = { ...io, stdin: i === 0 ? io.stdin : pipes[i - 1], stdout: i === p.cmds.length - 1 ? io.stdout : pipes[i] };
          let s: number;
          try {
            s = await sub.runCommand(c, stageIo);
          } catch (e) {
            if (e instanceof ShellExit) s = e.status;
            else if (e instanceof BrokenPipe) s = 141;
            else throw e;
          } finally {
            if (i < pipes.length) pipes[i].end();
            if (i > 0) pipes[i - 1].close();
          }
          return s;
        });
        const statuses = await Promise.all(stages);
        status = this.options.pipefail ? [...statuses].reverse().find((s) => s !== 0) ?? 0 : statuses[statuses.length - 1];
      }
    } finally {
      if (p.bang) this.condDepth--;
    }
    if (p.bang) status = status === 0 ? 1 : 0;
    this.status = status;
    if (status !== 0 && this.options.errexit && this.condDepth === 0 && !p.bang) throw new ShellExit(status);
    return status;
  }

  private async withRedirs(redirs: Redir[], io: ShIo, fn: (io: ShIo) => Promise<number>): Promise<number> {
    if (redirs.length === 0) return fn(io);
    const r = await this.applyRedirs(redirs, io);
    if (typeof r === 'number') return (this.status = r);
    return fn(r);
  }

  async runCommand(c: Command, io: ShIo): Promise<number> {
    this.lineNo = c.line + (this.lineBase ?? 0);
    switch (c.t) {
      case 'simple': return this.runSimple(c, io);
      case 'group': return this.withRedirs(c.redirs, io, (x) => this.runList(c.body, x));
      case 'subshell': return this.withRedirs(c.redirs, io, (x) => this.subshell().runSubshellList(c.body, x));
      case 'func':
        this.functions.set(c.name, c.body);
        return (this.status = 0);
      case 'if': return this.withRedirs(c.redirs, io, async (x) => {
        for (const cl of c.clauses) {
          this.condDepth++;
          let ok: number;
          try { ok = await this.runList(cl.cond, x); } finally { this.condDepth--; }
          if (ok === 0) return this.runList(cl.body, x);
        }
        if (c.else) return this.runList(c.else, x);
        return (this.status = 0);
      });
      case 'while': return this.withRedirs(c.redirs, io, (x) => this.runWhile(c, x));
      case 'for': return this.withRedirs(c.redirs, io, (x) => this.runFor(c, x));
      case 'case': return this.withRedirs(c.redirs, io, async (x) => {
        const subject = await expandString(this, c.word);
        for (const item of c.items) {
          for (const pw of item.patterns) {
            if (matchPattern(await expandPattern(this, pw), subject)) return this.runList(item.body, x);
          }
        }
        return (this.status = 0);
      });
      case 'dbracket': return this.withRedirs(c.redirs, io, async (x) => (this.status = await this.runDoubleBracket(c.words, x)));
      case 'arithcmd': return this.withRedirs(c.redirs, io, async (x) => {
        try {
          const v = evalArith(await expandString(this, c.expr), { get: (n) => this.getVar(n), set: (n, s) => this.setVar(n, s) });
          return (this.status = v !== 0 ? 0 : 1);
        } catch (e) {
          if (e instanceof ArithError) { this.error(x, `((: ${e.message}`); return (this.status = 1); }
          throw e;
        }
      });
    }
  }
  /** Added to parsed line numbers (eval, sourced files keep their own). */
  lineBase?: number;

  private async runWhile(c: Extract<Command, { t: 'while' }>, io: ShIo): Promise<number> {
    let status = 0;
    this.loopDepth++;
    try {
      for (;;) {
        await yieldNow(this.signal);
        checkAbort({ signal: this.signal });
        this.condDepth++;
        let cond: number;
        try { cond = await this.runList(c.cond, io); } finally { this.condDepth--; }
        if ((cond === 0) === c.until) break;
        try {
          status = await this.runList(c.body, io);
        } catch (e) {
          if (!(e instanceof LoopControl)) throw e;
          if (e.levels > 1) throw new LoopControl(e.kind, e.levels - 1);
          if (e.kind === 'break') break;
        }
      }
    } finally {
      this.loopDepth--;
    }
    return (this.status = status);
  }

  private async runFor(c: Extract<Command, { t: 'for' }>, io: ShIo): Promise<number> {
    const items: string[] = [];
    if (c.items) for (const w of c.items) items.push(...await expandWord(this, w));
    else items.push(...this.params);
    let status = 0;
    this.loopDepth++;
    try {
      for (const it of items) {
        await yieldNow(this.signal);
        checkAbort({ signal: this.signal });
        this.setVar(c.name, it);
        try {
          status = await this.runList(c.body, io);
        } catch (e) {
          if (!(e instanceof LoopControl)) throw e;
          if (e.levels > 1) throw new LoopControl(e.kind, e.levels - 1);
          if (e.kind === 'break') break;
        }
      }
    } finally {
      this.loopDepth--;
    }
    return (this.status = status);
  }

  private async runDoubleBracket(words: Word[], io: ShIo): Promise<number> {
    const args: string[] = [];
    for (const w of words) {
      const op = args[args.length - 1];
      if (args.length >= 2 && (op === '==' || op === '=' || op === '!=' || op === '=~')) {
        const left = args[args.length - 2];
        let m: boolean;
        if (op === '=~') {
          try { m = new RegExp(await expandString(this, w)).test(left); } catch { m = false; }
        } else {
          m = matchPattern(await expandPattern(this, w), left);
        }
        args.splice(args.length - 2, 2, (op === '!=') !== m ? '1' : '');
        continue;
      }
      const lit = !w.quoted && w.parts.length === 1 && w.parts[0].t === 'lit' ? w.parts[0].s : undefined;
      args.push(lit ?? await expandString(this, w));
    }
    const norm = args.map((a) => (a === '&&' ? '-a' : a === '||' ? '-o' : a));
    return testExpr(norm, this.ctx, io.stderr, `${this.prefix()}[[: `);
  }

  async expandArgs(words: Word[]): Promise<string[]> {
    const out: string[] = [];
    for (const w of words) out.push(...await expandWord(this, w));
    return out;
  }

  applyRedirs(redirs: Redir[], io: ShIo): Promise<ShIo | number> {
    return applyRedirs(this, redirs, io);
  }

  private async runSimple(c: Extract<Command, { t: 'simple' }>, io: ShIo): Promise<number> {
    this.lastSubstStatus = 0;
    let argv: string[];
    const assigns: [string, string][] = [];
    try {
      argv = await this.expandArgs(c.words);
      for (const a of c.assigns) {
        const v = await expandString(this, a.value);
        assigns.push([a.name, a.append ? (this.getVar(a.name) ?? '') + v : v]);
      }
    } catch (e) {
      if (e instanceof ExpansionError) {
        this.error(io, e.message);
        if (this.mode !== 'interactive') throw new ShellExit(this.dialect === 'bash' ? 1 : 2);
        return (this.status = 1);
      }
      if (e instanceof ArithError) {
        this.error(io, this.dialect === 'bash' ? e.message : `arithmetic syntax error`);
        if (this.mode !== 'interactive') throw new ShellExit(this.dialect === 'bash' ? 1 : 2);
        return (this.status = 1);
      }
      throw e;
    }
    if (argv.length === 0) {
      for (const [k, v] of assigns) {
        try { this.setVar(k, v); } catch (e) {
          if (e instanceof ExpansionError) { this.error(io, e.message); return (this.status = 1); }
          throw e;
        }
      }
      const r = c.redirs.length ? await this.applyRedirs(c.redirs, io) : io;
      if (typeof r === 'number') return (this.status = r);
      return (this.status = this.lastSubstStatus);
    }
    if (this.options.xtrace) io.stderr.write(`+ ${[...assigns.map(([k, v]) => `${k}=${v}`), ...argv].join(' ')}\n`);
    const r = c.redirs.length ? await this.applyRedirs(c.redirs, io) : io;
    if (typeof r === 'number') return (this.status = r);
    return (this.status = await this.invoke(argv, assigns, r));
  }

  /** Runs a command by name: function, builtin, or program on PATH. */
  async invoke(argv: string[], assigns: [string, string][], io: ShIo): Promise<number> {
    const name = argv[0];
    const fn = this.functions.get(name);
    if (fn) return this.callFunction(fn, argv, assigns, io);
    const builtin = BUILTINS[name];
    if (builtin) {
      const special = SPECIAL_BUILTINS.has(name);
      const saved = new Map<string, Var | undefined>();
      for (const [k, v] of assigns) {
        if (!special) saved.set(k, this.vars.get(k) && { ...this.vars.get(k)! });
        this.setVar(k, v);
      }
      try {
        return await builtin(this, argv, io);
      } catch (e) {
        if (e instanceof BrokenPipe) return 141;
        throw e;
      } finally {
        for (const [k, v] of saved) { if (v) this.vars.set(k, v); else this.vars.delete(k); }
      }
    }
    return this.external(argv, assigns, io);
  }

  private async callFunction(fn: Command, argv: string[], assigns: [string, string][], io: ShIo): Promise<number> {
    const savedPos = this.params;
    this.params = argv.slice(1);
    this.funcDepth++;
    this.localsStack.push(new Map());
    for (const [k, v] of assigns) this.setVar(k, v);
    try {
      return await this.runCommand(fn, io);
    } catch (e) {
      if (e instanceof FunctionReturn) return (this.status = e.status);
      throw e;
    } finally {
      const locals = this.localsStack.pop()!;
      for (const [k, v] of locals) { if (v) this.vars.set(k, v); else this.vars.delete(k); }
      this.funcDepth--;
      this.params = savedPos;
    }
  }

  async external(argv: string[], assigns: [string, string][], io: ShIo): Promise<number> {
    const res = await this.ctx.spawn(argv, {
      stdin: io.stdin, stdout: io.stdout, stderr: io.stderr,
      vars: this.exportedEnv(Object.fromEntries(assigns)), cwd: this.ctx.cwd, signal: this.signal,
    }).catch((e: unknown) => {
      if (e instanceof BrokenPipe) return 141;
      throw e;
    });
    if (typeof res === 'number') return res;
    return this.execFailure(res, argv, io);
  }

  async execFailure(f: ExecFailure, argv: string[], io: ShIo): Promise<number> {
    const name = argv[0];
    switch (f.error) {
      case 'not-found':
        this.error(io, this.dialect === 'bash' ? `${name}: command not found` : `${name}: not found`);
        return 127;
      case 'no-such-file':
        this.error(io, this.dialect === 'bash' ? `${name}: No such file or directory` : `${name}: not found`);
        return 127;
      case 'permission':
        this.error(io, `${name}: Permission denied`);
        return 126;
      case 'is-dir':
        this.error(io, this.dialect === 'bash' ? `${name}: Is a directory` : `${name}: Permission denied`);
        return 126;
      case 'exec-format': {
        // No shebang: the shell runs the file as a script itself.
        const sub = this.subshell();
        sub.name = name;
        sub.params = argv.slice(1);
        sub.mode = 'script';
        sub.functions = new Map();
        let src: string;
        try { src = this.fs.readFile(f.path, this.ctx.cred).toString(); } catch { return 126; }
        return sub.runScript(src, io);
      }
    }
  }

  /** Runs a script's text with EXIT traps; `exit` ends it. */
  async runScript(src: string, io: ShIo): Promise<number> {
    let status: number;
    try {
      status = await this.runSource(src, io);
    } catch (e) {
      if (e instanceof ShellExit) status = e.status;
      else if (e instanceof LoopControl) status = this.status;
      else if (e instanceof FunctionReturn) status = e.status;
      else throw e;
    }
    return this.runExitTrap(io, status);
  }

  async runExitTrap(io: ShIo, status: number): Promise<number> {
    const trap = this.traps.get('EXIT') ?? this.traps.get('0');
    if (!trap) return status;
    this.traps.delete('EXIT');
    this.traps.delete('0');
    this.status = status;
    try {
      await this.runSource(trap, io);
    } catch (e) {
      if (e instanceof ShellExit) return e.status;
      throw e;
    }
    return status;
  }

  /** Runs trap text for a signal (TERM, INT); undefined when none is set. */
  async runSignalTrap(sig: 'TERM' | 'INT', io: ShIo): Promise<number | undefined> {
    const trap = this.traps.get(sig) ?? this.traps.get(`SIG${sig}`) ?? this.traps.get(sig === 'TERM' ? '15' : '2');
    if (trap === undefined) return undefined;
    if (trap === '') return undefined;
    this.signal = new AbortController().signal;
    try {
      await this.runSource(trap, io);
    } catch (e) {
      if (e instanceof ShellExit) return e.status;
      if (!(e instanceof Aborted)) throw e;
    }
    return 128 + (sig === 'TERM' ? 15 : 2);
  }
}

