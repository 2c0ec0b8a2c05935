// The PowerShell lexical layer: blanks, comments and backtick continuations, words, and string literals with
// $var / $(...) expansion, backtick escapes and here-strings.

import type { Expr, Stmt } from './ast.js';
import type { PsEdition } from './error-views.js';

export class PsParseError extends Error {
  /** `len`: how many characters the offending token spans (the error view underlines them). */
  constructor(message: string, readonly id: string, readonly pos: number, readonly len = 1) { super(message); }
}

export const KEYWORDS = new Set(['if', 'elseif', 'else', 'while', 'for', 'foreach', 'do', 'until', 'function', 'filter', 'return', 'exit', 'throw', 'break', 'continue', 'try', 'catch', 'finally', 'param', 'trap', 'switch']);

type E<T extends Expr['t']> = Extract<Expr, { t: T }>;

export abstract class PsScanner {
  protected i = 0;
  /** The language version: PowerShell 7 (Core) adds ?:, ??, ??= and && / || (about_PowerShell_7 what's new). */
  edition: PsEdition = 'Desktop';
  constructor(readonly src: string) {}

  /** Statements up to a terminator (`)` of $(...)), parsed by the grammar. */
  abstract stmtList(term: string): Stmt[];
  /** A scanner over other text (here-string bodies, expandable barewords). */
  protected abstract nested(src: string): PsScanner;

  protected peek(n = 0): string { return this.src[this.i + n] ?? ''; }
  protected at(s: string): boolean { return this.src.startsWith(s, this.i); }
  protected atCI(s: string): boolean { return this.src.slice(this.i, this.i + s.length).toLowerCase() === s; }

  protected comment(): boolean {
    if (this.at('<#')) {
      const end = this.src.indexOf('#>', this.i + 2);
      this.i = end < 0 ? this.src.length : end + 2;
      return true;
    }
    if (this.at('#')) {
      while (this.i < this.src.length && this.peek() !== '\n') this.i++;
      return true;
    }
    return false;
  }

  /** Blanks, comments and backtick line continuations (not newlines). */
  ws(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') { this.i++; continue; }
      if (c === '`' && (this.peek(1) === '\n' || (this.peek(1) === '\r' && this.peek(2) === '\n'))) { this.i += this.peek(1) === '\r' ? 3 : 2; continue; }
      if (this.comment()) continue;
      return;
    }
  }

  wsnl(): void {
    for (;;) {
      this.ws();
      if (this.peek() === '\n') { this.i++; continue; }
      return;
    }
  }

  protected word(): string {
    return /^[A-Za-z_][\w-]*/.exec(this.src.slice(this.i))?.[0] ?? '';
  }

  protected keyword(): string | undefined {
    const w = this.word().toLowerCase();
    return KEYWORDS.has(w) ? w : undefined;
  }

  protected expect(s: string, msg: string, id: string): void {
    this.wsnl();
    if (!this.at(s)) throw new PsParseError(msg, id, this.i);
    this.i += s.length;
  }

  protected span<T extends object>(pos: number, node: T): T & { pos: number; end: number } {
    return { ...node, pos, end: this.i };
  }

  protected hereString(): Expr {
    const pos = this.i;
    const quote = this.peek(1);
    const start = this.src.indexOf('\n', this.i) + 1;
    const endRe = quote === '"' ? /\r?\n"@/g : /\r?\n'@/g;
    endRe.lastIndex = start - 1;
    const m = endRe.exec(this.src);
    if (!start || !m) throw new PsParseError(`The string is missing the terminator: ${quote}@.`, 'TerminatorExpectedAtEndOfString', pos);
    const body = this.src.slice(start, m.index);
    this.i = m.index + m[0].length;
    if (quote === "'") return { t: 'str', v: body, pos, end: this.i };
    const inner = this.nested(`"${body.replace(/"/g, '`"')}"`);
    const e = inner.doubleQuoted();
    return { ...e, pos, end: this.i };
  }

  protected expandable(text: string, pos: number): Expr {
    const inner = this.nested(`"${text.replace(/"/g, '`"')}"`);
    const e = inner.doubleQuoted();
    return { ...e, pos, end: this.i };
  }

  doubleQuoted(): E<'estr'> | E<'str'> {
    const pos = this.i;
    this.i++;
    const parts: (string | Expr)[] = [];
    let text = '';
    for (;;) {
      if (this.i >= this.src.length) throw new PsParseError('The string is missing the terminator: ".', 'TerminatorExpectedAtEndOfString', pos);
      const ch = this.peek();
      if (ch === '"' || ch === '\u201d') {
        if (this.peek(1) === '"') { text += '"'; this.i += 2; continue; }
        this.i++;
        break;
      }
      if (ch === '`') {
        const n = this.peek(1);
        const esc: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', e: '\x1b' };
        text += esc[n] ?? n;
        this.i += 2;
        continue;
      }
      if (ch === '$' && (this.peek(1) === '(' || this.peek(1) === '{' || /[A-Za-z_?$^]/.test(this.peek(1)))) {
        if (text) { parts.push(text); text = ''; }
        if (this.peek(1) === '(') {
          const sp = this.i;
          this.i += 2;
          const body = this.stmtList(')');
          this.expect(')', "Missing closing ')' in subexpression.", 'MissingEndParenthesisInSubexpression');
          parts.push({ t: 'sub', body, pos: sp, end: this.i });
        } else {
          const sp = this.i;
          this.i++;
          if (this.at('{')) {
            const end = this.src.indexOf('}', this.i);
            parts.push({ t: 'var', name: this.src.slice(this.i + 1, end), pos: sp, end: end + 1 });
            this.i = end + 1;
          } else {
            const m = /^(\$|\?|\^|_(?!\w)|[A-Za-z_]\w*(:[A-Za-z_]\w*)?)/.exec(this.src.slice(this.i))!;
            this.i += m[0].length;
            parts.push({ t: 'var', name: m[0], pos: sp, end: this.i });
          }
        }
        continue;
      }
      text += ch;
      this.i++;
    }
    if (text) parts.push(text);
    if (parts.every((p) => typeof p === 'string')) return { t: 'str', v: parts.join(''), pos, end: this.i };
    return { t: 'estr', parts, pos, end: this.i };
  }
}

export function parseNumber(s: string): number {
  const m = /^([+-]?)(0x[0-9a-f]+|[\d.]+(?:[eE][+-]?\d+)?)(kb|mb|gb|tb|pb)?$/i.exec(s);
  if (!m) return Number(s);
  let n = m[2].toLowerCase().startsWith('0x') ? parseInt(m[2], 16) : Number(m[2]);
  const mult: Record<string, number> = { kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4, pb: 1024 ** 5 };
  if (m[3]) n *= mult[m[3].toLowerCase()];
  return m[1] === '-' ? -n : n;
}
