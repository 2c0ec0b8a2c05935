// The PowerShell statements with blocks of their own: param() lists with their attributes, function bodies with
// begin/process/end, switch (with -regex/-wildcard/-exact/-casesensitive/-file), try/catch [T]/finally and trap.

import type { CatchClause, Expr, NamedBlocks, ParamBlock, ParamDecl, Pipeline, Stmt, SwitchClause } from './ast.js';
import { PsExprParser } from './parse-expr.js';
import { PsParseError } from './scanner.js';

type S<T extends Stmt['t']> = Extract<Stmt, { t: T }>;

/** Attributes before a script's or function's param(): [CmdletBinding()], [OutputType(...)]. */
const ATTRIBUTED_PARAM = /^(\[[A-Za-z_][\w.]*\s*\([^\]]*\)\]\s*)+param\s*\(/i;

export abstract class PsBlockParser extends PsExprParser {
  protected abstract block(): Stmt[];
  protected abstract condition(kw: string): Pipeline;
  protected abstract argSingle(): Expr;

  /** True at `[CmdletBinding()] param(` (the attributes make the function advanced). */
  protected atAttributedParam(): boolean {
    return ATTRIBUTED_PARAM.test(this.src.slice(this.i, this.i + 400));
  }

  /** `param(...)` or `[CmdletBinding()] param(...)` at the current position. */
  protected paramStatement(): ParamBlock {
    let advanced = false;
    while (this.at('[')) {
      const attr = this.typeLiteral();
      if (/^CmdletBinding\b/i.test(attr)) advanced = true;
      this.wsnl();
    }
    this.i += 5;
    this.ws();
    this.expect('(', "Missing '(' in param block.", 'MissingOpenParenthesisInParamBlock');
    const block = this.paramList();
    if (advanced) block.advanced = true;
    return block;
  }

  /** A parameter list after its `(`, up to and including the `)`. */
  protected paramList(): ParamBlock {
    const decls: ParamDecl[] = [];
    let advanced = false;
    const missing = () => new PsParseError("Missing ')' in function parameter list.", 'MissingEndParenthesisInFunctionParameterList', this.i);
    for (;;) {
      this.wsnl();
      if (this.at(')')) { this.i++; break; }
      if (this.i >= this.src.length) throw missing();
      const d: ParamDecl = { name: '', mandatory: false, fromPipeline: false, aliases: [], pos: this.i };
      while (this.at('[')) {
        const lit = this.typeLiteral();
        const attr = /^([A-Za-z_][\w.]*)\s*\(([\s\S]*)\)$/.exec(lit);
        if (attr) advanced = applyAttribute(attr[1], attr[2], d) || advanced;
        else d.type = lit;
        this.wsnl();
      }
      if (!this.at('$')) throw missing();
      this.i++;
      const name = /^[\w:]+/.exec(this.src.slice(this.i))?.[0] ?? '';
      this.i += name.length;
      d.name = name.replace(/^(global|script|local|private):/i, '');
      this.wsnl();
      if (this.at('=')) {
        this.i++;
        this.wsnl();
        d.default = this.argExpression();
        this.wsnl();
      }
      decls.push(d);
      if (this.at(',')) { this.i++; continue; }
      if (!this.at(')')) throw missing();
    }
    return { decls, advanced };
  }

  /** A function: name, optional `(params)` head, body with an optional param() block and begin/process/end. */
  protected functionStatement(pos: number, kw: string): S<'function'> {
    this.i += kw.length;
    this.ws();
    const name = /^[^\s{(]+/.exec(this.src.slice(this.i))?.[0] ?? '';
    if (!name) throw new PsParseError('Missing name after function keyword.', 'MissingNameAfterKeyword', this.i);
    this.i += name.length;
    this.ws();
    let params: ParamBlock = { decls: [], advanced: false };
    if (this.at('(')) { this.i++; params = this.paramList(); }
    this.wsnl();
    if (!this.at('{')) throw new PsParseError("Missing function body in function declaration.", 'MissingFunctionBody', this.i);
    this.i++;
    const inner = this.scriptBody();
    if (inner.params) params = inner.params;
    // `filter f { }` runs its body for each input object, as a process block does.
    const named = kw === 'filter' && !inner.named ? { process: inner.body } : inner.named;
    return this.span(pos, { t: 'function', name, params, body: inner.body, named });
  }

  /** The inside of `{ ... }` (after the brace, through the closing one): param(), then statements or named blocks. */
  protected scriptBody(): { params?: ParamBlock; body: Stmt[]; named?: NamedBlocks } {
    this.wsnl();
    let params: ParamBlock | undefined;
    if (/^param\s*\(/i.test(this.src.slice(this.i, this.i + 20)) || this.atAttributedParam()) {
      params = this.paramStatement();
      this.wsnl();
    }
    if (/^(begin|process|end)\s*\{/i.test(this.src.slice(this.i, this.i + 20))) {
      const named: NamedBlocks = {};
      for (;;) {
        this.wsnl();
        const m = /^(begin|process|end)\s*(?=\{)/i.exec(this.src.slice(this.i));
        if (!m) break;
        this.i += m[0].length;
        named[m[1].toLowerCase() as keyof NamedBlocks] = this.block();
      }
      this.expect('}', "Missing closing '}' in statement block or type definition.", 'MissingEndCurlyBrace');
      return { params, body: [], named };
    }
    const body = this.stmtList('}');
    this.expect('}', "Missing closing '}' in statement block or type definition.", 'MissingEndCurlyBrace');
    return { params, body };
  }

  /** `switch [-regex|-wildcard|-exact|-casesensitive|-file] (subject) { pattern { body } ... default { body } }`. */
  protected switchStatement(pos: number): S<'switch'> {
    this.i += 6;
    let mode: S<'switch'>['mode'] = 'plain';
    let cs = false;
    let file = false;
    for (;;) {
      this.ws();
      const m = /^-(regex|wildcard|exact|casesensitive|file)\b/i.exec(this.src.slice(this.i));
      if (!m) break;
      this.i += m[0].length;
      const opt = m[1].toLowerCase();
      if (opt === 'casesensitive') cs = true;
      else if (opt === 'file') file = true;
      else mode = opt as typeof mode;
    }
    this.ws();
    let subject: Pipeline;
    if (file) {
      const p = this.i;
      const path = this.argSingle();
      subject = { elems: [{ t: 'expr', expr: path, pos: p, end: this.i }], redirs: [], pos: p, end: this.i };
    } else subject = this.condition('switch');
    this.wsnl();
    if (!this.at('{')) throw new PsParseError('Missing opening \'{\' in switch statement.', 'MissingCurlyBraceInSwitchStatement', this.i);
    this.i++;
    const clauses: SwitchClause[] = [];
    for (;;) {
      this.wsnl();
      while (this.at(';')) { this.i++; this.wsnl(); }
      if (this.at('}')) { this.i++; break; }
      if (this.i >= this.src.length) throw new PsParseError("Missing closing '}' in statement block or type definition.", 'MissingEndCurlyBrace', this.i);
      const cond: Expr | 'default' = /^default\s*\{/i.test(this.src.slice(this.i, this.i + 20)) ? (this.i += 7, 'default') : this.argSingle();
      clauses.push({ cond, body: this.block() });
    }
    return this.span(pos, { t: 'switch', mode, cs, file, subject, clauses });
  }

  /** `try { } catch [T1], [T2] { } catch { } finally { }`. */
  protected tryStatement(pos: number): S<'try'> {
    this.i += 3;
    const body = this.block();
    const catches: CatchClause[] = [];
    let finallyBody: Stmt[] | undefined;
    for (;;) {
      const save = this.i;
      this.wsnl();
      const k = this.keyword();
      if (k === 'catch') {
        this.i += 5;
        catches.push({ types: this.typeList(), body: this.block() });
        continue;
      }
      if (k === 'finally') { this.i += 7; finallyBody = this.block(); continue; }
      this.i = save;
      break;
    }
    if (!catches.length && !finallyBody) throw new PsParseError('The Try statement is missing its Catch or Finally block.', 'MissingCatchOrFinally', this.i);
    return this.span(pos, { t: 'try', body, catches, finallyBody });
  }

  /** `trap [T] { }`: handles the terminating errors of the statements around it. */
  protected trapStatement(pos: number): S<'trap'> {
    this.i += 4;
    return this.span(pos, { t: 'trap', types: this.typeList(), body: this.block() });
  }

  private typeList(): string[] {
    const types: string[] = [];
    for (;;) {
      this.wsnl();
      if (!this.at('[')) return types;
      types.push(this.typeLiteral());
      this.wsnl();
      if (this.at(',')) this.i++;
    }
  }
}

/** [Parameter(Mandatory=$true, Position=0, ValueFromPipeline)], [Alias('n')], [ValidateSet('a','b')]; true when advanced. */
function applyAttribute(name: string, args: string, d: ParamDecl): boolean {
  const items = splitArgs(args);
  switch (name.toLowerCase()) {
    case 'parameter':
      for (const it of items) {
        const m = /^(\w+)\s*(?:=\s*([\s\S]+))?$/.exec(it);
        if (!m) continue;
        const v = m[2] === undefined ? true : staticValue(m[2]);
        switch (m[1].toLowerCase()) {
          case 'mandatory': d.mandatory = v === true; break;
          case 'position': d.position = Number(v); break;
          case 'valuefrompipeline': d.fromPipeline = v === true; break;
        }
      }
      return true;
    case 'alias': d.aliases.push(...items.map((x) => String(staticValue(x)))); return false;
    case 'validateset': d.validateSet = items.map((x) => String(staticValue(x))); return false;
    default: return false;
  }
}

function splitArgs(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  for (const ch of s) {
    if (quote) { cur += ch; if (ch === quote) quote = ''; continue; }
    if (ch === '"' || ch === "'") { quote = ch; cur += ch; continue; }
    if (ch === ',') { out.push(cur.trim()); cur = ''; continue; }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function staticValue(s: string): string | number | boolean {
  const t = s.trim();
  if (/^\$true$/i.test(t)) return true;
  if (/^\$false$/i.test(t)) return false;
  if (/^-?\d+$/.test(t)) return Number(t);
  const q = /^(['"])([\s\S]*)\1$/.exec(t);
  return q ? q[2] : t;
}
