// A PowerShell parser: statements (if, while, do, for, foreach, flow keywords; functions, switch, try and trap come
// from parse-blocks) and pipelines whose elements are commands (argument mode: parameters, barewords, arrays,
// @splats) or expressions (expression mode).

import type { CmdArg, Expr, Pipeline, PipeElem, Redir, Stmt } from './ast.js';
import { ASSIGN_OPS, asPipeline } from './parse-expr.js';
import { PsBlockParser } from './parse-blocks.js';
import { parseNumber, PsParseError, type PsScanner } from './scanner.js';
import type { PsEdition } from './error-views.js';

export { PsParseError };

export class PsParser extends PsBlockParser {
  static parse(src: string, edition: PsEdition = 'Desktop'): Stmt[] {
    const p = new PsParser(src);
    p.edition = edition;
    const body = p.stmtList('');
    p.wsnl();
    if (p.i < p.src.length) {
      const ch = p.src[p.i];
      if (ch === '}') throw new PsParseError("Unexpected token '}' in expression or statement.", 'UnexpectedToken', p.i);
      if (ch === ')') throw new PsParseError("Unexpected token ')' in expression or statement.", 'UnexpectedToken', p.i);
      throw new PsParseError(`Unexpected token '${p.word() || ch}' in expression or statement.`, 'UnexpectedToken', p.i);
    }
    return body;
  }

  protected nested(src: string): PsScanner {
    const p = new PsParser(src);
    p.edition = this.edition;
    return p;
  }

  // ---- statements

  stmtList(term: string): Stmt[] {
    const out: Stmt[] = [];
    for (;;) {
      this.wsnl();
      while (this.at(';')) { this.i++; this.wsnl(); }
      if (this.i >= this.src.length) {
        if (term) throw new PsParseError(term === '}' ? "Missing closing '}' in statement block or type definition." : "Missing closing ')' in expression.", term === '}' ? 'MissingEndCurlyBrace' : 'MissingEndParenthesisInExpression', this.i);
        break;
      }
      if (term && this.at(term)) break;
      if (this.at('}') || this.at(')')) break;
      out.push(this.statement());
      this.ws();
      if (this.at(';')) this.i++;
    }
    return out;
  }

  protected block(): Stmt[] {
    this.wsnl();
    if (!this.at('{')) throw new PsParseError('Missing statement block.', 'MissingStatementBlock', this.i);
    this.i++;
    const body = this.stmtList('}');
    this.expect('}', "Missing closing '}' in statement block or type definition.", 'MissingEndCurlyBrace');
    return body;
  }

  protected condition(kw: string): Pipeline {
    this.wsnl();
    if (!this.at('(')) throw new PsParseError(`Missing '(' after '${kw}' in ${kw} statement.`, `MissingOpenParenthesisIn${kw[0].toUpperCase()}${kw.slice(1)}Statement`, this.i);
    this.i++;
    this.wsnl();
    if (this.at(')')) throw new PsParseError(`Missing condition in ${kw} statement after '${kw} ('.`, `${kw[0].toUpperCase()}${kw.slice(1)}StatementMissingCondition`, this.i);
    const p = this.pipelineOrAssign();
    this.expect(')', `Missing closing ')' after expression in '${kw}' statement.`, 'MissingEndParenthesisAfterStatement');
    return asPipeline(p);
  }

  statement(): Stmt {
    const pos = this.i;
    // `:name` before a loop or switch labels it for `break name` / `continue name` (about_Break, about_Continue).
    const label = /^:([A-Za-z_]\w*)[ \t]+(?=(?:foreach|for|while|do|switch)(?![\w-]))/i.exec(this.src.slice(this.i));
    if (label) {
      this.i += label[0].length;
      const s = this.statement();
      if (s.t === 'while' || s.t === 'do' || s.t === 'for' || s.t === 'foreach' || s.t === 'switch') s.label = label[1];
      return this.span(pos, s);
    }
    const kw = this.keyword();
    const after = this.src[this.i + (kw?.length ?? 0)] ?? '';
    if (kw && !/[\w-]/.test(after)) {
      switch (kw) {
        case 'if': {
          this.i += 2;
          const clauses = [{ cond: this.condition('if'), body: this.block() }];
          let elseBody: Stmt[] | undefined;
          for (;;) {
            const save = this.i;
            this.wsnl();
            const k = this.keyword();
            if (k === 'elseif') { this.i += 6; clauses.push({ cond: this.condition('if'), body: this.block() }); continue; }
            if (k === 'else') { this.i += 4; elseBody = this.block(); break; }
            this.i = save;
            break;
          }
          return this.span(pos, { t: 'if', clauses, else: elseBody });
        }
        case 'while': {
          this.i += 5;
          const cond = this.condition('while');
          return this.span(pos, { t: 'while', cond, body: this.block() });
        }
        case 'do': {
          this.i += 2;
          const body = this.block();
          this.wsnl();
          const k = this.keyword();
          if (k !== 'while' && k !== 'until') throw new PsParseError("Missing while or until keyword in do loop.", 'MissingWhileOrUntilInDoWhile', this.i);
          this.i += k.length;
          return this.span(pos, { t: 'do', until: k === 'until', cond: this.condition(k), body });
        }
        case 'for': {
          this.i += 3;
          this.expect('(', "Missing opening '(' after keyword 'for'.", 'MissingOpenParenthesisAfterKeyword');
          this.wsnl();
          const init = this.at(';') ? undefined : this.pipelineOrAssign();
          this.expect(';', "Missing ';' in for statement.", 'MissingSemicolon');
          this.wsnl();
          const cond = this.at(';') ? undefined : (this.pipelineOrAssign() as Extract<Stmt, { t: 'pipeline' }>).p;
          this.expect(';', "Missing ';' in for statement.", 'MissingSemicolon');
          this.wsnl();
          const step = this.at(')') ? undefined : this.pipelineOrAssign();
          this.expect(')', "Missing closing ')' after expression in 'for' statement.", 'MissingEndParenthesisAfterStatement');
          return this.span(pos, { t: 'for', init, cond, step, body: this.block() });
        }
        case 'foreach': {
          const save = this.i;
          this.i += 7;
          this.ws();
          if (!this.at('(')) { this.i = save; break; }
          this.i++;
          this.wsnl();
          const v = this.variableName();
          this.wsnl();
          if (!this.atCI('in')) throw new PsParseError("Missing 'in' after variable in foreach loop.", 'MissingInInForeach', this.i);
          this.i += 2;
          this.wsnl();
          const iter = this.pipeline();
          this.expect(')', "Missing closing ')' after expression in 'foreach' statement.", 'MissingEndParenthesisAfterStatement');
          return this.span(pos, { t: 'foreach', variable: v, iter, body: this.block() });
        }
        case 'function': case 'filter': return this.functionStatement(pos, kw);
        case 'switch': return this.switchStatement(pos);
        case 'trap': return this.trapStatement(pos);
        case 'return': case 'exit': case 'throw': case 'break': case 'continue': {
          this.i += kw.length;
          this.ws();
          let value: Pipeline | undefined;
          let target: string | undefined;
          if (!this.atEndOfStatement() && (kw === 'return' || kw === 'exit' || kw === 'throw')) value = this.pipeline();
          else if (!this.atEndOfStatement()) { target = this.word(); this.i += target.length; }
          return this.span(pos, { t: 'flow', kind: kw, value, ...(target ? { label: target } : {}) });
        }
        case 'try': return this.tryStatement(pos);
        case 'param': return this.span(pos, { t: 'param', params: this.paramStatement() });
        default: break;
      }
    }
    if (this.at('[') && this.atAttributedParam()) return this.span(pos, { t: 'param', params: this.paramStatement() });
    return this.pipelineOrAssign();
  }

  protected atEndOfStatement(): boolean {
    const c = this.peek();
    return c === '' || c === ';' || c === '\n' || c === '}' || c === ')' || c === '|';
  }

  protected pipelineOrAssign(): Stmt {
    const pos = this.i;
    // A unary operator (`-not`, `!`, `-split`, `++`) cannot start an assignment's target.
    if (this.startsExpression() && !/^(!|[-+]{2}|-[a-z])/i.test(this.src.slice(this.i, this.i + 2))) {
      const save = this.i;
      const target = this.unaryOrPostfix();
      this.ws();
      const ops = this.edition === 'Core' ? [...ASSIGN_OPS, '??='] : ASSIGN_OPS;
      const op = ops.find((o) => this.at(o) && !this.at('==') && !(o === '=' && this.at('=>')));
      if (op && isAssignable(target)) {
        this.i += op.length;
        this.wsnl();
        const value = this.statement();
        return this.span(pos, { t: 'assign', op, target, value });
      }
      this.i = save;
    }
    const p = this.pipeline();
    this.ws();
    const chainOp = this.at('&&') ? '&&' : this.at('||') ? '||' : undefined;
    if (chainOp && this.edition === 'Core') p.chain = this.chain();
    else if (chainOp) throw new PsParseError(`The token '${chainOp}' is not a valid statement separator in this version.`, 'InvalidEndOfLine', this.i, 2);
    else if (this.edition !== 'Core') {
      // 5.1 has no ?: ?? ??= operators: the token after a finished expression is unexpected (ParserStrings UnexpectedToken).
      const q = /^\?\?=|^\?\?|^\?(?=[\s$'"(\d@[])/.exec(this.src.slice(this.i));
      if (q) throw new PsParseError(`Unexpected token '${q[0]}' in expression or statement.`, 'UnexpectedToken', this.i, q[0].length);
    }
    return this.span(pos, { t: 'pipeline', p });
  }

  /** The links of a pipeline chain after its first pipeline (Parser.cs PipelineChainRule). */
  private chain(): { op: '&&' | '||'; p: Pipeline }[] {
    const links: { op: '&&' | '||'; p: Pipeline }[] = [];
    for (;;) {
      this.ws();
      const op = this.at('&&') ? '&&' : this.at('||') ? '||' : undefined;
      if (!op) return links;
      const at = this.i;
      this.i += 2;
      this.wsnl();
      // At the end of input the error sits after the operator, else on the operator (Parser.cs PipelineChainRule).
      if (this.i >= this.src.length) throw new PsParseError('A pipeline chain operator must be followed by a pipeline.', 'EmptyPipelineChainElement', at + 2);
      if (this.atEndOfStatement() || this.at('&&') || this.at('||')) throw new PsParseError('A pipeline chain operator must be followed by a pipeline.', 'EmptyPipelineChainElement', at);
      links.push({ op, p: this.pipeline() });
    }
  }

  pipeline(): Pipeline {
    const pos = this.i;
    const elems: PipeElem[] = [this.element(true)];
    const redirs: Redir[] = [];
    for (;;) {
      this.ws();
      const r = this.redirection();
      if (r) { redirs.push(r); continue; }
      if (this.at('|') && !this.at('||')) {
        this.i++;
        this.wsnl();
        if (this.atEndOfStatement()) throw new PsParseError('An empty pipe element is not allowed.', 'EmptyPipeElement', this.i);
        elems.push(this.element(false));
        continue;
      }
      break;
    }
    return { elems, redirs, pos, end: this.i };
  }

  protected redirection(): Redir | undefined {
    const m = /^([*1-6])?(>>|>&1|>)/.exec(this.src.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    const fd = m[1] === '*' ? '*' : Number(m[1] ?? 1);
    if (m[2] === '>&1') return { fd, op: '>&1' };
    this.ws();
    const target = this.argValue();
    return { fd, op: m[2] as '>' | '>>', target };
  }

  protected startsExpression(): boolean {
    const c = this.peek();
    const n = this.peek(1);
    if (c === '$' || c === '(' || c === '@' || c === '"' || c === "'" || c === '[' || c === '!' || c === '{') return true;
    if (/[0-9]/.test(c)) return !/^\d+[A-Za-z_]/.test(this.src.slice(this.i)) || /^\d+(kb|mb|gb|tb|pb)\b/i.test(this.src.slice(this.i));
    if ((c === '-' || c === '+') && /[0-9.$(]/.test(n)) return true;
    if (c === '-' && /^-(not|bnot|split|join)\b/i.test(this.src.slice(this.i))) return true;
    if ((c === '+' && n === '+') || (c === '-' && n === '-' && this.peek(2) === '$')) return true;
    return false;
  }

  protected element(first: boolean): PipeElem {
    this.ws();
    const pos = this.i;
    if (first && this.startsExpression()) {
      const expr = this.expression();
      return { t: 'expr', expr, pos, end: this.i };
    }
    return this.command();
  }

  protected command(): PipeElem {
    const pos = this.i;
    let call: '&' | '.' | undefined;
    if ((this.at('&') || this.at('.')) && /[\s"'$({]/.test(this.peek(1))) {
      call = this.peek() as '&' | '.';
      this.i++;
      this.ws();
    }
    let name: Expr;
    // `& $sb`, `& "C:\x y\s.ps1"`, `& (Get-Cmd)`; after & a bareword (`& C:\s.ps1`) is a command name as usual.
    if (this.at('"') || this.at("'") || (call && /[$({@]/.test(this.peek()))) name = this.unaryOrPostfix();
    else {
      const m = /^[^\s;|(){}"',@&<>]+/.exec(this.src.slice(this.i));
      if (!m) throw new PsParseError(`Unexpected token '${this.peek()}' in expression or statement.`, 'UnexpectedToken', this.i);
      this.i += m[0].length;
      name = { t: 'str', v: m[0], pos, end: this.i };
    }
    const args: CmdArg[] = [];
    for (;;) {
      this.ws();
      if (this.atEndOfStatement() || this.at('&&') || this.at('||')) break;
      if (/^[*1-6]?>/.test(this.src.slice(this.i))) break;
      const apos = this.i;
      const pm = /^-([A-Za-z_?][\w-]*)(:?)/.exec(this.src.slice(this.i));
      if (pm && !/^-\d/.test(this.src.slice(this.i))) {
        this.i += pm[0].length;
        if (pm[2]) {
          this.ws();
          args.push({ t: 'param', name: pm[1], value: this.argValue(), pos: apos, end: this.i });
        } else args.push({ t: 'param', name: pm[1], pos: apos, end: this.i });
        continue;
      }
      if (this.at('--') && /\s/.test(this.peek(2))) { this.i += 2; continue; }
      // `@params` passes a hashtable's entries as named arguments, an array's items as positional ones.
      const splat = /^@([A-Za-z_]\w*)(?=[\s;|)}]|$)/.exec(this.src.slice(this.i));
      if (splat) { this.i += splat[0].length; args.push({ t: 'splat', name: splat[1], pos: apos, end: this.i }); continue; }
      args.push({ t: 'pos', value: this.argValue(), pos: apos, end: this.i });
    }
    return { t: 'command', name, args, call, pos, end: this.i };
  }

  /** One argument in argument mode; a comma makes an array. */
  protected argValue(): Expr {
    const pos = this.i;
    const first = this.argSingle();
    this.ws();
    if (!this.at(',')) return first;
    const items = [first];
    while (this.at(',')) {
      this.i++;
      this.wsnl();
      items.push(this.argSingle());
      this.ws();
    }
    return { t: 'array', items, pos, end: this.i };
  }

  protected argSingle(): Expr {
    const pos = this.i;
    const c = this.peek();
    if (c === '$' || c === '(' || c === '@' || c === '"' || c === "'" || c === '{') return this.postfix(this.primary());
    const num = /^[+-]?(0x[0-9a-f]+|\d+(\.\d+)?)(kb|mb|gb|tb|pb)?(?=[\s;|),}]|$)/i.exec(this.src.slice(this.i));
    if (num) { this.i += num[0].length; return { t: 'num', v: parseNumber(num[0]), pos, end: this.i }; }
    const m = /^[^\s;|(){},]+/.exec(this.src.slice(this.i));
    if (!m) throw new PsParseError(`Unexpected token '${c}' in expression or statement.`, 'UnexpectedToken', this.i);
    this.i += m[0].length;
    let v = m[0];
    // A bareword may continue with a parenthesised part (`http://x:80/(y)` is rare); keep it simple.
    if (v.includes('$')) return this.expandable(v, pos);
    v = v.replace(/`(.)/g, '$1');
    return { t: 'str', v, pos, end: this.i };
  }

}

function isAssignable(e: Expr): boolean {
  return e.t === 'var' || e.t === 'member' || e.t === 'index' || (e.t === 'cast' && e.expr.t === 'var');
}
