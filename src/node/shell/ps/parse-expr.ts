// PowerShell expressions, with the precedence of about_Operator_Precedence: comma binds tighter than -f, -f than
// multiplication, arithmetic than comparison, comparison than -and/-or; postfix member access, calls and indexing.

import type { Expr, NamedBlocks, ParamBlock, Pipeline, Stmt } from './ast.js';
import { parseNumber, PsParseError, PsScanner } from './scanner.js';

export const CMP_OPS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'notlike', 'match', 'notmatch', 'contains', 'notcontains', 'in', 'notin', 'replace', 'split', 'join', 'is', 'isnot', 'as'];
const OP_RE = /^-([ic]?)(eq|ne|gt|ge|lt|le|like|notlike|match|notmatch|contains|notcontains|in|notin|replace|split|join|isnot|is|as|and|or|xor|f|band|bor|bxor|shl|shr|not|bnot)(?![\w-])/i;
export const ASSIGN_OPS = ['=', '+=', '-=', '*=', '/=', '%='];

export abstract class PsExprParser extends PsScanner {
  protected abstract pipelineOrAssign(): Stmt;
  protected abstract statement(): Stmt;
  /** The inside of a `{ }` script block, after its brace. */
  protected abstract scriptBody(): { params?: ParamBlock; body: Stmt[]; named?: NamedBlocks };
  protected abstract startsExpression(): boolean;
  protected abstract atEndOfStatement(): boolean;

  expression(): Expr {
    return this.ternary(() => this.logical());
  }

  /**
   * PowerShell 7's `cond ? a : b`, below -and/-or and right-associative (Parser.cs ExpressionRule); Windows
   * PowerShell 5.1 has no such operator, so `?` there ends the expression.
   */
  protected ternary(cond: () => Expr, branch: () => Expr = () => this.logical()): Expr {
    const pos = this.i;
    const c = cond();
    if (this.edition !== 'Core') return c;
    const save = this.i;
    this.ws();
    if (!this.at('?') || this.at('??')) { this.i = save; return c; }
    const q = this.i;
    this.i++;
    this.wsnl();
    if (this.atEndOfStatement() || this.at(':')) throw new PsParseError("You must provide a value expression following the '?' operator.", 'ExpectedValueExpression', q + 1);
    const then = this.ternary(branch, branch);
    this.wsnl();
    if (!this.at(':')) throw new PsParseError("Missing ':' in the ternary expression.", 'MissingColonInTernaryExpression', this.i > q ? this.i : q);
    const colon = this.i;
    this.i++;
    this.wsnl();
    if (this.atEndOfStatement()) throw new PsParseError("You must provide a value expression following the ':' operator.", 'ExpectedValueExpression', colon + 1);
    const otherwise = this.ternary(branch, branch);
    return { t: 'ternary', cond: c, then, else: otherwise, pos, end: this.i };
  }

  protected binaryOp(): { op: string; len: number } | undefined {
    this.ws();
    const m = OP_RE.exec(this.src.slice(this.i));
    if (m) return { op: (m[1].toLowerCase() === 'c' ? 'c' : '') + m[2].toLowerCase(), len: m[0].length };
    if (this.at('??') && !this.at('??=')) return { op: '??', len: 2 };
    for (const op of ['..', '+', '-', '*', '/', '%']) {
      if (this.at(op) && !ASSIGN_OPS.includes(this.src.slice(this.i, this.i + 2)) && !(op === '+' && this.at('++')) && !(op === '-' && this.at('--'))) return { op, len: op.length };
    }
    return undefined;
  }

  protected level(ops: string[], next: () => Expr): Expr {
    const pos = this.i;
    let left = next();
    for (;;) {
      const save = this.i;
      const o = this.binaryOp();
      const base = o?.op.replace(/^c/, '') ?? '';
      if (!o || !(ops.includes(o.op) || ops.includes(base))) { this.i = save; return left; }
      this.i += o.len;
      this.wsnl();
      if (this.atEndOfStatement()) throw new PsParseError(`You must provide a value expression following the '${this.src.slice(save, save + o.len).trim()}' operator.`, 'ExpectedValueExpression', this.i);
      const right = next();
      left = { t: 'binary', op: o.op, left, right, pos, end: this.i };
    }
  }

  protected logical(): Expr { return this.level(['and', 'or', 'xor'], () => this.comparison()); }
  protected comparison(): Expr { return this.level(CMP_OPS, () => this.bitwise()); }
  protected bitwise(): Expr { return this.level(['band', 'bor', 'bxor', 'shl', 'shr'], () => this.coalesce()); }
  /** PowerShell 7's `a ?? b`: binds tighter than comparison, looser than `+` (token.cs BinaryPrecedenceCoalesce). */
  protected coalesce(): Expr { return this.edition === 'Core' ? this.level(['??'], () => this.additive()) : this.additive(); }
  protected additive(): Expr { return this.level(['+', '-'], () => this.multiplicative()); }
  protected multiplicative(): Expr { return this.level(['*', '/', '%'], () => this.format()); }
  protected format(): Expr { return this.level(['f'], () => this.range()); }
  protected range(): Expr { return this.level(['..'], () => this.unary()); }

  protected unary(): Expr {
    this.ws();
    const pos = this.i;
    const m = /^(-not|-bnot|-split|-join)(?![\w-])/i.exec(this.src.slice(this.i));
    if (m) {
      this.i += m[0].length;
      this.wsnl();
      return { t: 'unary', op: m[1].toLowerCase().slice(1), expr: this.unary(), pos, end: this.i };
    }
    if (this.at('!')) { this.i++; this.ws(); return { t: 'unary', op: 'not', expr: this.unary(), pos, end: this.i }; }
    if (this.at('++') || this.at('--')) {
      const op = this.src.slice(this.i, this.i + 2) as '++' | '--';
      this.i += 2;
      return { t: 'incdec', op, prefix: true, target: this.unary(), pos, end: this.i };
    }
    if ((this.at('-') || this.at('+')) && !/^[-+]\d/.test(this.src.slice(this.i))) {
      const op = this.peek();
      this.i++;
      this.ws();
      if (this.atEndOfStatement()) throw new PsParseError(`Missing expression after unary operator '${op}'.`, 'MissingExpressionAfterOperator', this.i);
      return { t: 'unary', op, expr: this.unary(), pos, end: this.i };
    }
    return this.comma();
  }

  protected comma(): Expr {
    const pos = this.i;
    const first = this.unaryOrPostfix();
    this.ws();
    if (!this.at(',')) return first;
    const items = [first];
    while (this.at(',')) {
      this.i++;
      this.wsnl();
      items.push(this.unaryOrPostfix());
      this.ws();
    }
    return { t: 'array', items, pos, end: this.i };
  }

  /** A primary with member access, indexing and calls; casts apply here. */
  unaryOrPostfix(): Expr {
    this.ws();
    const pos = this.i;
    if (this.at('[')) {
      const type = this.typeLiteral();
      if (this.at('::')) return this.postfix({ t: 'type', name: type, pos, end: this.i });
      this.ws();
      if (this.startsExpression()) {
        const expr = this.unaryOrPostfix();
        return { t: 'cast', type, expr, pos, end: this.i };
      }
      return this.postfix({ t: 'type', name: type, pos, end: this.i });
    }
    if (/^[-+]\d/.test(this.src.slice(this.i))) {
      const m = /^[-+](0x[0-9a-f]+|\d+(\.\d+)?([eE][+-]?\d+)?)(kb|mb|gb|tb|pb)?/i.exec(this.src.slice(this.i))!;
      this.i += m[0].length;
      return this.postfix({ t: 'num', v: parseNumber(m[0]), pos, end: this.i });
    }
    return this.postfix(this.primary());
  }

  protected typeLiteral(): string {
    let depth = 0;
    const start = this.i;
    for (; this.i < this.src.length; this.i++) {
      if (this.peek() === '[') depth++;
      else if (this.peek() === ']') { depth--; if (depth === 0) { this.i++; break; } }
    }
    return this.src.slice(start + 1, this.i - 1).trim();
  }

  protected postfix(e: Expr): Expr {
    const pos = e.pos;
    for (;;) {
      if (this.at('::') || (this.at('.') && /[A-Za-z_$'"]/.test(this.peek(1)))) {
        const isStatic = this.at('::');
        this.i += isStatic ? 2 : 1;
        let name: string | Expr;
        if (this.peek() === '$' || this.peek() === '"' || this.peek() === "'") name = this.primary();
        else { name = this.word(); this.i += name.length; }
        if (this.at('(') && typeof name === 'string') {
          this.i++;
          const args: Expr[] = [];
          this.wsnl();
          while (!this.at(')')) {
            args.push(this.argExpression());
            this.wsnl();
            if (this.at(',')) { this.i++; this.wsnl(); continue; }
            if (!this.at(')')) throw new PsParseError("Missing closing ')' in method call.", 'MissingEndParenthesisInMethodCall', this.i);
          }
          this.i++;
          e = { t: 'invoke', obj: e, name, args, static: isStatic, pos, end: this.i };
        } else e = { t: 'member', obj: e, name, static: isStatic, pos, end: this.i };
        continue;
      }
      if (this.at('[') && e.t !== 'type') {
        this.i++;
        this.wsnl();
        const index = this.expression();
        this.expect(']', "Array index expression is missing or not valid.", 'MissingArrayIndexExpression');
        e = { t: 'index', obj: e, index, pos, end: this.i };
        continue;
      }
      if ((this.at('++') || this.at('--')) && (e.t === 'var' || e.t === 'member' || e.t === 'index')) {
        const op = this.src.slice(this.i, this.i + 2) as '++' | '--';
        this.i += 2;
        e = { t: 'incdec', op, prefix: false, target: e, pos, end: this.i };
        continue;
      }
      return e;
    }
  }

  /** A method argument: an expression without the comma operator. */
  protected argExpression(): Expr {
    return this.levelNoComma();
  }

  protected levelNoComma(): Expr {
    const chain = (ops: string[], next: () => Expr) => () => this.level(ops, next);
    const unaryNoComma = (): Expr => {
      this.ws();
      const pos = this.i;
      if (this.at('!') || /^-not(?![\w-])/i.test(this.src.slice(this.i))) {
        this.i += this.at('!') ? 1 : 4;
        return { t: 'unary', op: 'not', expr: unaryNoComma(), pos, end: this.i };
      }
      if (this.at('-') && !/^-\d/.test(this.src.slice(this.i))) { this.i++; return { t: 'unary', op: '-', expr: unaryNoComma(), pos, end: this.i }; }
      return this.unaryOrPostfix();
    };
    const range = chain(['..'], unaryNoComma);
    const format = chain(['f'], range);
    const mult = chain(['*', '/', '%'], format);
    const add = chain(['+', '-'], mult);
    const coalesce = this.edition === 'Core' ? chain(['??'], add) : add;
    const bit = chain(['band', 'bor', 'bxor'], coalesce);
    const cmp = chain(CMP_OPS, bit);
    // Method arguments take no comma operator, in a ternary's branches either.
    const logical = () => this.level(['and', 'or', 'xor'], cmp);
    return this.ternary(logical, logical);
  }

  protected variableName(): string {
    if (!this.at('$')) throw new PsParseError("Missing variable name after foreach.", 'MissingVariableNameAfterForeach', this.i);
    this.i++;
    const m = /^[\w:?]+/.exec(this.src.slice(this.i))!;
    this.i += m[0].length;
    return m[0];
  }

  primary(): Expr {
    this.ws();
    const pos = this.i;
    const c = this.peek();
    if (this.at('$(')) {
      this.i += 2;
      const body = this.stmtList(')');
      this.expect(')', "Missing closing ')' in subexpression.", 'MissingEndParenthesisInSubexpression');
      return { t: 'sub', body, pos, end: this.i };
    }
    if (this.at('@(')) {
      this.i += 2;
      const body = this.stmtList(')');
      this.expect(')', "Missing closing ')' in subexpression.", 'MissingEndParenthesisInSubexpression');
      return { t: 'arrayexpr', body, pos, end: this.i };
    }
    if (this.at('@{')) return this.hashtable();
    if (this.at('@"') || this.at("@'")) return this.hereString();
    if (c === '$') {
      this.i++;
      if (this.at('{')) {
        const end = this.src.indexOf('}', this.i);
        const name = this.src.slice(this.i + 1, end);
        this.i = end + 1;
        return { t: 'var', name, pos, end: this.i };
      }
      const m = /^(\$|\?|\^|_(?!\w)|[A-Za-z_][\w]*(:[A-Za-z_][\w]*)?|\d+)/.exec(this.src.slice(this.i));
      if (!m) return { t: 'str', v: '$', pos, end: this.i };
      this.i += m[0].length;
      return { t: 'var', name: m[0], pos, end: this.i };
    }
    if (c === '(') {
      this.i++;
      this.wsnl();
      const s = this.pipelineOrAssign();
      this.expect(')', "Missing closing ')' in expression.", 'MissingEndParenthesisInExpression');
      const pipeline = asPipeline(s);
      return { t: 'paren', pipeline, pos, end: this.i };
    }
    if (c === '{') {
      this.i++;
      const inner = this.scriptBody();
      // A script block's begin/process/end run in order here (ForEach-Object -Process takes the common case).
      const body = inner.named ? [...inner.named.begin ?? [], ...inner.named.process ?? [], ...inner.named.end ?? []] : inner.body;
      return { t: 'block', body, params: inner.params ?? { decls: [], advanced: false }, pos, end: this.i };
    }
    if (c === "'") {
      let v = '';
      this.i++;
      for (;;) {
        if (this.i >= this.src.length) throw new PsParseError("The string is missing the terminator: '.", 'TerminatorExpectedAtEndOfString', pos);
        const ch = this.peek();
        if (ch === "'" || ch === '\u2019') {
          if (this.peek(1) === "'") { v += "'"; this.i += 2; continue; }
          this.i++;
          break;
        }
        v += ch;
        this.i++;
      }
      return { t: 'str', v, pos, end: this.i };
    }
    if (c === '"') return this.doubleQuoted();
    const num = /^(0x[0-9a-f]+|\d+(\.\d+)?([eE][+-]?\d+)?|\.\d+)(kb|mb|gb|tb|pb)?/i.exec(this.src.slice(this.i));
    if (num) { this.i += num[0].length; return { t: 'num', v: parseNumber(num[0]), pos, end: this.i }; }
    const w = /^[A-Za-z_][\w.-]*/.exec(this.src.slice(this.i));
    if (w) { this.i += w[0].length; return { t: 'str', v: w[0], pos, end: this.i }; }
    if (this.i >= this.src.length) throw new PsParseError('Missing expression.', 'ExpectedExpression', this.i);
    throw new PsParseError(`Unexpected token '${c}' in expression or statement.`, 'UnexpectedToken', this.i);
  }

  protected hashtable(): Expr {
    const pos = this.i;
    this.i += 2;
    const entries: [Expr, Expr][] = [];
    for (;;) {
      this.wsnl();
      while (this.at(';')) { this.i++; this.wsnl(); }
      if (this.at('}')) { this.i++; break; }
      if (this.i >= this.src.length) throw new PsParseError("The hash literal was incomplete.", 'IncompleteHashLiteral', this.i);
      let key: Expr;
      const bare = /^[A-Za-z_][\w-]*/.exec(this.src.slice(this.i));
      if (bare) { const kp = this.i; this.i += bare[0].length; key = { t: 'str', v: bare[0], pos: kp, end: this.i }; } else key = this.unaryOrPostfix();
      this.ws();
      if (!this.at('=')) throw new PsParseError("Missing '=' operator after key in hash literal.", 'MissingEqualsInHashLiteral', this.i);
      this.i++;
      this.wsnl();
      const st = this.statement();
      const value: Expr = st.t === 'pipeline' && st.p.elems.length === 1 && st.p.elems[0].t === 'expr' ? st.p.elems[0].expr : { t: 'paren', pipeline: asPipeline(st), pos: st.pos, end: st.end };
      entries.push([key, value]);
    }
    return { t: 'hash', entries, pos, end: this.i };
  }

}

/** A statement where a pipeline is expected: assignments become the pipeline's `assign`. */
export function asPipeline(s: Stmt): Pipeline {
  if (s.t === 'pipeline') return s.p;
  if (s.t === 'assign') return { elems: [], redirs: [], pos: s.pos, end: s.end, assign: s };
  throw new PsParseError('Unexpected statement in expression.', 'UnexpectedToken', s.pos);
}

