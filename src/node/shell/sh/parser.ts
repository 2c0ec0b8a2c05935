// A recursive-descent parser for POSIX sh (with bash's [[ ]], (( )), function, &>): lists, and-or chains,
// pipelines, compound commands, redirections and here-documents. Words come from words.ts with their quoting kept.

import type { Assign, Command, List, ListItem, Pipeline, Redir, RedirOp, Word, WordPart } from './ast.js';
import { META, ParseError, WordReader } from './words.js';

export { ParseError };

const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', '{', '}', '!', ']]']);
const REDIR_OPS: RedirOp[] = ['&>>', '<<-', '<<<', '&>', '>>', '<<', '<&', '>&', '<>', '>|', '<', '>'];

interface PendingDoc { redir: Redir; delim: string; strip: boolean; quoted: boolean }

export class Parser extends WordReader {
  private pending: PendingDoc[] = [];

  protected parseNested(src: string): List {
    return Parser.parse(src, this.bash);
  }

  protected nested(src: string): WordReader {
    return new Parser(src, this.bash);
  }

  static parse(src: string, bash = false): List {
    const p = new Parser(src, bash);
    const list = p.parseList([]);
    p.skipBlank();
    if (p.i < p.src.length) throw new ParseError('token', p.tokenAt(), undefined, p.line);
    return list;
  }

  // ---- lexical helpers

  private tokenAt(): string {
    for (const op of [';;', '&&', '||', ...REDIR_OPS, ';', '&', '|', '(', ')']) if (this.src.startsWith(op, this.i)) return op;
    if (this.peek() === '\n') return 'newline';
    const save = this.i;
    const w = this.readWord();
    this.i = save;
    return w?.raw ?? this.peek();
  }

  /** Skips blanks, line continuations and comments (not newlines). */
  skipBlank(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') { this.i++; continue; }
      if (c === '\\' && this.peek(1) === '\n') { this.i += 2; this.line++; continue; }
      if (c === '#') { while (!this.eof() && this.peek() !== '\n') this.i++; continue; }
      return;
    }
  }

  private newline(): void {
    this.i++;
    this.line++;
    this.readHeredocs();
  }

  protected skipNewlines(): void {
    for (;;) {
      this.skipBlank();
      if (this.peek() !== '\n') return;
      this.newline();
    }
  }

  private readHeredocs(): void {
    const docs = this.pending;
    this.pending = [];
    for (const d of docs) {
      const lines: string[] = [];
      for (;;) {
        if (this.eof()) break;
        const nl = this.src.indexOf('\n', this.i);
        const end = nl < 0 ? this.src.length : nl;
        let text = this.src.slice(this.i, end);
        this.i = nl < 0 ? end : end + 1;
        this.line++;
        if (d.strip) text = text.replace(/^\t+/, '');
        if (text === d.delim || text === `${d.delim}\r`) break;
        lines.push(text);
      }
      const body = lines.length ? `${lines.join('\n')}\n` : '';
      d.redir.heredoc = d.quoted ? body : this.nested(body).readDoubleQuotedContent(true);
    }
  }

  /** The next word if it is a bare reserved word (not consumed). */
  private peekReserved(): string | undefined {
    const save = this.i;
    const line = this.line;
    this.skipBlank();
    let r: string | undefined;
    if (!this.eof() && !META.has(this.peek())) {
      const w = this.readWord();
      if (w && !w.quoted && w.parts.length === 1 && w.parts[0].t === 'lit' && RESERVED.has(w.parts[0].s)) r = w.parts[0].s;
    }
    this.i = save;
    this.line = line;
    return r;
  }

  private expectReserved(word: string): void {
    this.skipNewlines();
    const r = this.peekReserved();
    if (r !== word) {
      if (this.eof()) throw new ParseError('eof', '', `"${word}"`, this.line);
      throw new ParseError('token', this.tokenAt(), `"${word}"`, this.line);
    }
    this.skipBlank();
    this.readWord();
  }

  // ---- grammar

  parseList(terms: string[]): List {
    const items: ListItem[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.eof()) break;
      const r = this.peekReserved();
      if (r && terms.includes(r)) break;
      if ((this.startsOp(')') && terms.includes(')')) || (this.startsOp(';;') && terms.includes(';;'))) break;
      if (this.startsOp(';') || this.startsOp('&') || this.startsOp('|') || this.startsOp(')')) throw new ParseError('token', this.tokenAt(), undefined, this.line);
      const ao = this.parseAndOr();
      this.skipBlank();
      if (this.startsOp(';;')) { items.push({ ao, bg: false }); break; }
      if (this.startsOp('&') && !this.startsOp('&&')) { this.i++; items.push({ ao, bg: true }); continue; }
      if (this.startsOp(';')) { this.i++; items.push({ ao, bg: false }); continue; }
      items.push({ ao, bg: false });
      if (this.peek() === '\n') { this.newline(); continue; }
      break;
    }
    return items;
  }

  private parseAndOr() {
    const first = this.parsePipeline();
    const rest: { op: '&&' | '||'; p: Pipeline }[] = [];
    for (;;) {
      this.skipBlank();
      const op = this.startsOp('&&') ? '&&' : this.startsOp('||') ? '||' : undefined;
      if (!op) break;
      this.i += 2;
      this.skipNewlines();
      rest.push({ op, p: this.parsePipeline() });
    }
    return { first, rest };
  }

  private parsePipeline(): Pipeline {
    let bang = false;
    if (this.peekReserved() === '!') {
      this.skipBlank();
      this.readWord();
      bang = true;
    }
    const cmds = [this.parseCommand()];
    for (;;) {
      this.skipBlank();
      if (!this.startsOp('|') || this.startsOp('||')) break;
      this.i++;
      this.skipNewlines();
      cmds.push(this.parseCommand());
    }
    return { cmds, bang };
  }

  private parseCommand(): Command {
    this.skipBlank();
    const line = this.line;
    if (this.eof()) throw new ParseError('eof', '', undefined, this.line);
    if (this.startsOp('((') && this.bash) return this.withRedirs(this.parseArithCommand(line));
    if (this.startsOp('(')) {
      this.i++;
      const body = this.parseList([')']);
      this.skipNewlines();
      if (!this.startsOp(')')) throw this.eof() ? new ParseError('eof', '', '")"', this.line) : new ParseError('token', this.tokenAt(), '")"', this.line);
      this.i++;
      return this.withRedirs({ t: 'subshell', body, redirs: [], line });
    }
    const r = this.peekReserved();
    switch (r) {
      case 'if': return this.withRedirs(this.parseIf(line));
      case 'while': case 'until': return this.withRedirs(this.parseWhile(line, r === 'until'));
      case 'for': return this.withRedirs(this.parseFor(line));
      case 'case': return this.withRedirs(this.parseCase(line));
      case '{': {
        this.skipBlank();
        this.readWord();
        const body = this.parseList(['}']);
        this.expectReserved('}');
        return this.withRedirs({ t: 'group', body, redirs: [], line });
      }
      case undefined: break;
      default: throw new ParseError('token', r, undefined, this.line);
    }
    if (this.bash) {
      const save = this.i;
      const w = this.readWord();
      if (w?.raw === 'function') {
        this.skipBlank();
        const name = this.readWord()?.raw ?? '';
        this.skipBlank();
        if (this.startsOp('()')) this.i += 2;
        this.skipNewlines();
        return { t: 'func', name, body: this.parseCommand(), redirs: [], line };
      }
      if (w?.raw === '[[') return this.withRedirs(this.parseDoubleBracket(line));
      this.i = save;
    }
    return this.parseSimple(line);
  }

  private withRedirs(c: Command): Command {
    for (;;) {
      this.skipBlank();
      const r = this.tryRedir();
      if (!r) return c;
      c.redirs.push(r);
    }
  }

  private parseIf(line: number): Command {
    this.expectReserved('if');
    const clauses: { cond: List; body: List }[] = [];
    let cond = this.parseList(['then']);
    this.expectReserved('then');
    let body = this.parseList(['elif', 'else', 'fi']);
    clauses.push({ cond, body });
    let elseBody: List | undefined;
    for (;;) {
      this.skipNewlines();
      const r = this.peekReserved();
      if (r === 'elif') {
        this.expectReserved('elif');
        cond = this.parseList(['then']);
        this.expectReserved('then');
        body = this.parseList(['elif', 'else', 'fi']);
        clauses.push({ cond, body });
        continue;
      }
      if (r === 'else') {
        this.expectReserved('else');
        elseBody = this.parseList(['fi']);
      }
      this.expectReserved('fi');
      break;
    }
    return { t: 'if', clauses, else: elseBody, redirs: [], line };
  }

  private parseWhile(line: number, until: boolean): Command {
    this.expectReserved(until ? 'until' : 'while');
    const cond = this.parseList(['do']);
    this.expectReserved('do');
    const body = this.parseList(['done']);
    this.expectReserved('done');
    return { t: 'while', until, cond, body, redirs: [], line };
  }

  private parseFor(line: number): Command {
    this.expectReserved('for');
    this.skipBlank();
    const name = this.readWord()?.raw ?? '';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ParseError('token', name || this.tokenAt(), undefined, this.line);
    this.skipBlank();
    let items: Word[] | undefined;
    if (this.startsOp(';')) this.i++;
    this.skipNewlines();
    if (this.peekReserved() === 'in') {
      this.skipBlank();
      this.readWord();
      items = [];
      for (;;) {
        this.skipBlank();
        if (this.eof() || this.peek() === '\n' || this.startsOp(';')) break;
        const w = this.readWord();
        if (!w) throw new ParseError('token', this.tokenAt(), undefined, this.line);
        items.push(w);
      }
      if (this.startsOp(';')) this.i++;
    }
    this.expectReserved('do');
    const body = this.parseList(['done']);
    this.expectReserved('done');
    return { t: 'for', name, items, body, redirs: [], line };
  }

  private parseCase(line: number): Command {
    this.expectReserved('case');
    this.skipBlank();
    const word = this.readWord();
    if (!word) throw new ParseError('token', this.tokenAt(), undefined, this.line);
    this.expectReserved('in');
    const items: { patterns: Word[]; body: List }[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.peekReserved() === 'esac') break;
      if (this.eof()) throw new ParseError('eof', '', '"esac"', this.line);
      if (this.startsOp('(')) this.i++;
      const patterns: Word[] = [];
      for (;;) {
        this.skipBlank();
        const w = this.readWord();
        if (!w) throw new ParseError('token', this.tokenAt(), undefined, this.line);
        patterns.push(w);
        this.skipBlank();
        if (this.startsOp('|')) { this.i++; continue; }
        if (this.startsOp(')')) { this.i++; break; }
        throw new ParseError('token', this.tokenAt(), '")"', this.line);
      }
      const body = this.parseList(['esac', ';;']);
      items.push({ patterns, body });
      this.skipNewlines();
      if (this.startsOp(';;')) { this.i += 2; continue; }
      if (this.peekReserved() === 'esac') break;
    }
    this.expectReserved('esac');
    return { t: 'case', word, items, redirs: [], line };
  }

  private parseDoubleBracket(line: number): Command {
    const words: Word[] = [];
    for (;;) {
      this.skipBlank();
      if (this.eof()) throw new ParseError('eof', '', '"]]"', this.line);
      const op = ['&&', '||', '(', ')', '<', '>', '!'].find((o) => this.startsOp(o));
      if (op) { this.i += op.length; words.push({ parts: [{ t: 'lit', s: op, q: false }], quoted: false, raw: op }); continue; }
      const w = this.readWord();
      if (!w) throw new ParseError('token', this.tokenAt(), undefined, this.line);
      if (w.raw === ']]') break;
      words.push(w);
    }
    return { t: 'dbracket', words, redirs: [], line };
  }

  private parseArithCommand(line: number): Command {
    const end = this.findArithEnd(this.i + 2);
    const raw = this.src.slice(this.i + 2, end);
    this.i = end + 2;
    return { t: 'arithcmd', expr: this.nested(raw).readDoubleQuotedContent(false), redirs: [], line };
  }

  private tryRedir(): Redir | undefined {
    const m = /^(\d+)?(&>>|<<-|<<<|&>|>>|<<|<&|>&|<>|>\||<|>)/.exec(this.src.slice(this.i, this.i + 8));
    if (!m) return undefined;
    const op = m[2] as RedirOp;
    if ((op === '&>' || op === '&>>' || op === '<<<') && !this.bash && op !== '&>') return undefined;
    if (op === '&>' && !this.bash) return undefined;
    this.i += m[0].length;
    const fd = m[1] !== undefined ? Number(m[1]) : op.startsWith('<') ? 0 : 1;
    this.skipBlank();
    const target = this.readWord();
    if (!target) throw this.eof() || this.peek() === '\n' ? new ParseError('token', 'newline', undefined, this.line) : new ParseError('token', this.tokenAt(), undefined, this.line);
    const redir: Redir = { fd, op, target };
    if (op === '<<' || op === '<<-') {
      const delim = target.parts.map((p) => (p.t === 'lit' ? p.s : '')).join('');
      this.pending.push({ redir, delim, strip: op === '<<-', quoted: target.quoted });
    }
    return redir;
  }

  private parseSimple(line: number): Command {
    const assigns: Assign[] = [];
    const words: Word[] = [];
    const redirs: Redir[] = [];
    for (;;) {
      this.skipBlank();
      if (this.eof()) break;
      const r = this.tryRedir();
      if (r) { redirs.push(r); continue; }
      if (META.has(this.peek())) {
        if (this.startsOp('(') && words.length === 1 && assigns.length === 0 && this.src.slice(this.i).match(/^\(\s*\)/)) {
          this.i = this.src.indexOf(')', this.i) + 1;
          this.skipNewlines();
          return { t: 'func', name: words[0].raw, body: this.parseCommand(), redirs: [], line };
        }
        break;
      }
      const w = this.readWord();
      if (!w) break;
      const first = w.parts[0]?.t === 'lit' ? w.parts[0] : undefined;
      const m = words.length === 0 && first && !first.q ? /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(first.s) : null;
      if (m && first) {
        const rest: WordPart[] = [{ ...first, s: first.s.slice(m[0].length) }, ...w.parts.slice(1)];
        assigns.push({ name: m[1], append: m[2] === '+', value: { parts: rest, quoted: w.quoted, raw: w.raw.slice(m[0].length) } });
        continue;
      }
      words.push(w);
    }
    if (words.length === 0 && assigns.length === 0 && redirs.length === 0) {
      throw this.eof() ? new ParseError('eof', '', undefined, this.line) : new ParseError('token', this.tokenAt(), undefined, this.line);
    }
    return { t: 'simple', assigns, words, redirs, line };
  }

}