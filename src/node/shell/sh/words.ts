// The lexical layer of the shell parser: words with their quoting kept (single and double quotes, backslashes,
// $'...'), parameter expansions (${x:-y}, ${#x}, ${x%%pat}, ${x/a/b}), command substitution ($(...) and
// backticks) and arithmetic ($((...))).

import type { List, Word, WordPart } from './ast.js';

export class ParseError extends Error {
  constructor(
    /** 'token': an unexpected token; 'eof': input ended inside a construct; 'quote': an unterminated quote. */
    readonly kind: 'token' | 'eof' | 'quote',
    readonly token: string,
    readonly expecting: string | undefined,
    readonly line: number,
  ) {
    super(kind === 'token' ? `unexpected ${token}` : `unexpected end of file${expecting ? ` (expecting ${expecting})` : ''}`);
  }
}

export const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const SPECIAL_PARAMS = new Set(['@', '*', '#', '?', '$', '!', '-', '0']);

export abstract class WordReader {
  protected i = 0;
  line = 1;

  constructor(protected readonly src: string, protected readonly bash = false) {}

  /** The grammar: a list up to one of the terminators (for $(...)). */
  abstract parseList(terms: string[]): List;
  protected abstract skipNewlines(): void;
  /** Parses a nested program ($(...) in backticks). */
  protected abstract parseNested(src: string): List;
  /** A reader over other text (here-document bodies, arithmetic). */
  protected abstract nested(src: string): WordReader;

  protected peek(n = 0): string { return this.src[this.i + n] ?? ''; }
  protected eof(): boolean { return this.i >= this.src.length; }
  protected startsOp(op: string): boolean { return this.src.startsWith(op, this.i); }

  protected findArithEnd(from: number): number {
    let depth = 0;
    for (let j = from; j < this.src.length; j++) {
      const c = this.src[j];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0 && this.src[j + 1] === ')') return j;
        depth--;
      }
    }
    throw new ParseError('eof', '', '"))"', this.line);
  }

  protected pushLit(parts: WordPart[], s: string, q: boolean): void {
    const last = parts[parts.length - 1];
    if (last && last.t === 'lit' && last.q === q) last.s += s;
    else parts.push({ t: 'lit', s, q });
  }

  /** Reads one word; undefined when at an operator, newline or end. `stops` ends the word early (inside ${...}). */
  readWord(stops?: string): Word | undefined {
    const start = this.i;
    const parts: WordPart[] = [];
    let quoted = false;
    while (!this.eof()) {
      const c = this.peek();
      if (stops !== undefined ? stops.includes(c) : META.has(c)) break;
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '\n') { this.i += 2; this.line++; continue; }
        this.pushLit(parts, n || '\\', true);
        quoted = true;
        this.i += n ? 2 : 1;
        continue;
      }
      if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end < 0) throw new ParseError('quote', "'", "'", this.line);
        const s = this.src.slice(this.i + 1, end);
        this.line += s.split('\n').length - 1;
        this.pushLit(parts, s, true);
        quoted = true;
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        this.i++;
        const inner = this.readDoubleQuoted();
        parts.push(...inner);
        quoted = true;
        continue;
      }
      if (c === '$') { this.readDollar(parts, false); continue; }
      if (c === '`') { parts.push(this.readBacktick(false)); continue; }
      this.pushLit(parts, c, false);
      this.i++;
    }
    if (this.i === start) return undefined;
    return { parts, quoted, raw: this.src.slice(start, this.i) };
  }

  protected readDoubleQuoted(): WordPart[] {
    const parts: WordPart[] = [];
    for (;;) {
      if (this.eof()) throw new ParseError('quote', '"', '"', this.line);
      const c = this.peek();
      if (c === '"') { this.i++; break; }
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '\n') { this.i += 2; this.line++; continue; }
        if ('$`"\\'.includes(n) && n) { this.pushLit(parts, n, true); this.i += 2; continue; }
        this.pushLit(parts, '\\', true);
        this.i++;
        continue;
      }
      if (c === '$') { this.readDollar(parts, true); continue; }
      if (c === '`') { parts.push(this.readBacktick(true)); continue; }
      if (c === '\n') this.line++;
      this.pushLit(parts, c, true);
      this.i++;
    }
    if (parts.length === 0) parts.push({ t: 'lit', s: '', q: true });
    return parts;
  }

  /** The whole input as the inside of double quotes (here-doc bodies, arithmetic). */
  readDoubleQuotedContent(quoted: boolean): Word {
    const parts: WordPart[] = [];
    while (!this.eof()) {
      const c = this.peek();
      if (c === '\\' && '$`\\\n'.includes(this.peek(1)) && this.peek(1)) {
        if (this.peek(1) !== '\n') this.pushLit(parts, this.peek(1), quoted);
        this.i += 2;
        continue;
      }
      if (c === '$') { this.readDollar(parts, quoted); continue; }
      if (c === '`') { parts.push(this.readBacktick(quoted)); continue; }
      this.pushLit(parts, c, quoted);
      this.i++;
    }
    return { parts, quoted, raw: this.src };
  }

  protected readBacktick(q: boolean): WordPart {
    let j = this.i + 1;
    let body = '';
    for (;;) {
      if (j >= this.src.length) throw new ParseError('quote', '`', '`', this.line);
      const c = this.src[j];
      if (c === '`') break;
      if (c === '\\' && '`$\\'.includes(this.src[j + 1] ?? 'x')) { body += this.src[j + 1]; j += 2; continue; }
      body += c;
      j++;
    }
    this.i = j + 1;
    return { t: 'cmd', body: this.parseNested(body), q };
  }

  protected readDollar(parts: WordPart[], q: boolean): void {
    const n = this.peek(1);
    if (n === '{') { parts.push(this.readBraceParam(q)); return; }
    if (n === '(') {
      if (this.peek(2) === '(') {
        const end = this.findArithEnd(this.i + 3);
        const raw = this.src.slice(this.i + 3, end);
        this.i = end + 2;
        parts.push({ t: 'arith', expr: this.nested(raw).readDoubleQuotedContent(false), q });
        return;
      }
      this.i += 2;
      const body = this.parseList([')']);
      this.skipNewlines();
      if (!this.startsOp(')')) throw new ParseError('eof', '', '")"', this.line);
      this.i++;
      parts.push({ t: 'cmd', body, q });
      return;
    }
    if (n === "'" && !q) {
      this.i += 2;
      let s = '';
      while (!this.eof() && this.peek() !== "'") {
        if (this.peek() === '\\') {
          const [text, len] = ansiEscape(this.src, this.i);
          s += text;
          this.i += len;
        } else { s += this.peek(); this.i++; }
      }
      this.i++;
      this.pushLit(parts, s, true);
      return;
    }
    if (/[A-Za-z_]/.test(n)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.i + 1))!;
      this.i += 1 + m[0].length;
      parts.push({ t: 'param', name: m[0], q });
      return;
    }
    if (/[0-9]/.test(n) || SPECIAL_PARAMS.has(n)) {
      this.i += 2;
      parts.push({ t: 'param', name: n, q });
      return;
    }
    this.pushLit(parts, '$', q);
    this.i++;
  }

  protected readBraceParam(q: boolean): WordPart {
    this.i += 2;
    let name = '';
    let op: string | undefined;
    if (this.peek() === '#' && this.peek(1) !== '}' && !/[:\-=+?%#/]/.test(this.peek(1) || '}')) {
      this.i++;
      op = 'len';
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!\-0])/.exec(this.src.slice(this.i));
    if (!m) throw new ParseError('token', '${', undefined, this.line);
    name = m[0];
    this.i += name.length;
    if (op === 'len') {
      this.expectBrace();
      return { t: 'param', name, op, q };
    }
    const ops = [':-', ':=', ':+', ':?', '##', '%%', '//', '-', '=', '+', '?', '#', '%', '/', ':'];
    op = ops.find((o) => this.src.startsWith(o, this.i));
    if (!op) {
      this.expectBrace();
      return { t: 'param', name, q };
    }
    this.i += op.length;
    if (op === '/' || op === '//') {
      const pat = this.readWord('/}') ?? emptyWord();
      let rep = emptyWord();
      if (this.peek() === '/') { this.i++; rep = this.readWord('}') ?? emptyWord(); }
      this.expectBrace();
      return { t: 'param', name, op, arg: pat, arg2: rep, q };
    }
    if (op === ':') {
      const off = this.readWord(':}') ?? emptyWord();
      let len: Word | undefined;
      if (this.peek() === ':') { this.i++; len = this.readWord('}') ?? emptyWord(); }
      this.expectBrace();
      return { t: 'param', name, op, arg: off, arg2: len, q };
    }
    const arg = this.readWord('}') ?? emptyWord();
    this.expectBrace();
    return { t: 'param', name, op, arg, q };
  }

  protected expectBrace(): void {
    if (this.peek() !== '}') throw this.eof() ? new ParseError('eof', '', '"}"', this.line) : new ParseError('token', '${', undefined, this.line);
    this.i++;
  }
}

function emptyWord(): Word {
  return { parts: [], quoted: false, raw: '' };
}

/** One backslash escape of $'...' (bash ANSI-C quoting). Returns the text and the source length used. */
export function ansiEscape(src: string, i: number): [string, number] {
  const c = src[i + 1] ?? '';
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  if (c in simple) return [simple[c], 2];
  if (c === 'x') {
    const m = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i + 2));
    if (m) return [String.fromCharCode(parseInt(m[0], 16)), 2 + m[0].length];
  }
  if (/[0-7]/.test(c)) {
    const m = /^[0-7]{1,3}/.exec(src.slice(i + 1))!;
    return [String.fromCharCode(parseInt(m[0], 8)), 1 + m[0].length];
  }
  return [`\\${c}`, 2];
}
