// cmd.exe's line processing: %VAR% expansion of the whole line first (phase 1), then splitting on & && || | and
// parenthesised blocks with quotes and ^ escapes, redirections taken out of each command's text, IF and FOR forms.

export interface CmdRedir { fd: number; op: '>' | '>>' | '<' | '>&'; target: string }

export type CmdNode =
  | { t: 'seq'; items: { op: '&' | '&&' | '||' | null; node: CmdNode }[] }
  | { t: 'pipe'; cmds: CmdNode[] }
  | { t: 'block'; body: CmdNode; redirs: CmdRedir[] }
  | { t: 'simple'; text: string; redirs: CmdRedir[] }
  | { t: 'if'; negate: boolean; ignoreCase: boolean; cond: IfCond; then: CmdNode; else?: CmdNode }
  | { t: 'for'; mode: 'list' | 'L' | 'F'; variable: string; set: string; options: string; body: CmdNode };

export type IfCond =
  | { k: 'errorlevel'; n: number }
  | { k: 'exist'; path: string }
  | { k: 'defined'; name: string }
  | { k: 'cmp'; op: string; a: string; b: string };

export class CmdSyntaxError extends Error {}

/** Phase 1: %VAR% (and %VAR:~a,b%, %VAR:x=y%). Undefined names stay as written on the command line, vanish in batch files. */
export function expandPercent(line: string, get: (name: string) => string | undefined, batch: boolean, args?: string[]): string {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c !== '%') { out += c; continue; }
    if (batch && line[i + 1] === '%') { out += '%'; i++; continue; }
    if (batch && args && /[0-9*]/.test(line[i + 1] ?? '')) {
      const d = line[i + 1];
      out += d === '*' ? args.slice(1).join(' ') : args[Number(d)] ?? '';
      i++;
      continue;
    }
    if (batch && line[i + 1] === '~' && args) {
      const m = /^~([a-z]*)([0-9])/.exec(line.slice(i + 1));
      if (m) { out += (args[Number(m[2])] ?? '').replace(/^"|"$/g, ''); i += m[0].length; continue; }
    }
    const end = line.indexOf('%', i + 1);
    if (end < 0) { out += batch ? '' : c; continue; }
    const spec = line.slice(i + 1, end);
    const colon = spec.indexOf(':');
    const name = colon < 0 ? spec : spec.slice(0, colon);
    if (name === '' || /\s/.test(name) && !get(name)) { out += c; continue; }
    const value = get(name);
    if (value === undefined) {
      if (batch) { i = end; continue; }
      out += c;
      continue;
    }
    let v = value;
    if (colon >= 0) {
      const mod = spec.slice(colon + 1);
      const sub = /^~(-?\d+)(?:,(-?\d+))?$/.exec(mod);
      if (sub) {
        let start = Number(sub[1]);
        if (start < 0) start = Math.max(0, v.length + start);
        const len = sub[2] === undefined ? undefined : Number(sub[2]);
        v = len === undefined ? v.slice(start) : len < 0 ? v.slice(start, v.length + len) : v.slice(start, start + len);
      } else if (mod.includes('=')) {
        const [from, to] = mod.split('=', 2);
        if (from) v = v.split(new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi')).join(to);
      }
    }
    out += v;
    i = end;
  }
  return out;
}

export class CmdParser {
  private i = 0;
  constructor(private readonly s: string) {}

  static parse(line: string): CmdNode {
    const p = new CmdParser(line);
    const node = p.seq(false);
    p.ws();
    if (p.i < p.s.length) {
      if (p.s[p.i] === ')') throw new CmdSyntaxError(') was unexpected at this time.');
      throw new CmdSyntaxError(`${p.s.slice(p.i)} was unexpected at this time.`);
    }
    return node;
  }

  private ws(): void { while (this.i < this.s.length && /[ \t]/.test(this.s[this.i])) this.i++; }
  private at(op: string): boolean { return this.s.startsWith(op, this.i); }

  private seq(inBlock: boolean): CmdNode {
    const items: { op: '&' | '&&' | '||' | null; node: CmdNode }[] = [];
    let op: '&' | '&&' | '||' | null = null;
    for (;;) {
      this.ws();
      while (this.at('\n') || this.at('\r')) { this.i++; this.ws(); if (!inBlock) break; }
      if (this.i >= this.s.length || (inBlock && this.at(')'))) {
        if (op === '&&' || op === '||') throw new CmdSyntaxError(`${op === '&&' ? '&&' : '||'} was unexpected at this time.`);
        break;
      }
      items.push({ op, node: this.pipe(inBlock) });
      this.ws();
      if (this.at('&&')) { op = '&&'; this.i += 2; continue; }
      if (this.at('||')) { op = '||'; this.i += 2; continue; }
      if (this.at('&')) { op = '&'; this.i++; continue; }
      if (inBlock && (this.at('\n') || this.at('\r'))) { op = '&'; continue; }
      break;
    }
    return items.length === 1 && items[0].op === null ? items[0].node : { t: 'seq', items };
  }

  private pipe(inBlock: boolean): CmdNode {
    const cmds = [this.command(inBlock)];
    for (;;) {
      this.ws();
      if (!this.at('|') || this.at('||')) break;
      this.i++;
      cmds.push(this.command(inBlock));
    }
    return cmds.length === 1 ? cmds[0] : { t: 'pipe', cmds };
  }

  private command(inBlock: boolean): CmdNode {
    this.ws();
    while (this.at('@')) { this.i++; this.ws(); }
    if (this.at('(')) {
      this.i++;
      const body = this.seq(true);
      this.ws();
      if (!this.at(')')) throw new CmdSyntaxError('The syntax of the command is incorrect.');
      this.i++;
      return { t: 'block', body, redirs: this.trailingRedirs() };
    }
    const word = /^[^\s&|<>()=,;]+/.exec(this.s.slice(this.i))?.[0]?.toLowerCase() ?? '';
    if (word === 'if') return this.ifCommand(inBlock);
    if (word === 'for') return this.forCommand(inBlock);
    if (word === 'rem' || word.startsWith('::')) {
      const text = this.s.slice(this.i).split('\n')[0];
      this.i += text.length;
      return { t: 'simple', text: 'rem', redirs: [] };
    }
    const raw = this.rawUntilOperator(inBlock);
    const { text, redirs } = extractRedirs(raw);
    return { t: 'simple', text: unescapeCarets(text).replace(/^\s+/, ''), redirs };
  }

  /** Redirections after a parenthesised block: `(...) > file 2>&1`. */
  private trailingRedirs(): CmdRedir[] {
    const m = /^(\s*([0-9]?(>>|>&|>)|<)\s*("[^"]*"|[^\s&|()<>]+))+/.exec(this.s.slice(this.i));
    if (!m) return [];
    this.i += m[0].length;
    return extractRedirs(m[0]).redirs;
  }

  /** Text up to an unquoted, unescaped &, | or (inside a block) ). */
  private rawUntilOperator(inBlock: boolean): string {
    const start = this.i;
    let q = false;
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === '"') { q = !q; continue; }
      if (q) continue;
      if (c === '^') { this.i++; continue; }
      if (c === '&' || c === '|' || c === '\n' || (inBlock && c === ')')) break;
    }
    return this.s.slice(start, this.i);
  }

  private token(): string {
    this.ws();
    const start = this.i;
    let q = false;
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === '"') { q = !q; continue; }
      if (!q && /[\s&|()]/.test(c)) break;
    }
    return this.s.slice(start, this.i);
  }

  private ifCommand(inBlock: boolean): CmdNode {
    this.token();
    let negate = false;
    let ignoreCase = false;
    let tok = this.token();
    if (tok.toLowerCase() === '/i') { ignoreCase = true; tok = this.token(); }
    if (tok.toLowerCase() === 'not') { negate = true; tok = this.token(); }
    let cond: IfCond;
    const lower = tok.toLowerCase();
    if (lower === 'errorlevel') cond = { k: 'errorlevel', n: Number(this.token()) };
    else if (lower === 'exist') cond = { k: 'exist', path: this.token() };
    else if (lower === 'defined') cond = { k: 'defined', name: this.token() };
    else {
      const eq = tok.indexOf('==');
      if (eq >= 0) {
        const a = tok.slice(0, eq);
        let b = tok.slice(eq + 2);
        if (b === '') b = this.token();
        cond = { k: 'cmp', op: '==', a, b };
      } else {
        this.ws();
        let op = this.token();
        if (op.startsWith('==')) {
          const b = op.slice(2) || this.token();
          cond = { k: 'cmp', op: '==', a: tok, b };
        } else {
          op = op.toUpperCase();
          if (!['EQU', 'NEQ', 'LSS', 'LEQ', 'GTR', 'GEQ'].includes(op)) throw new CmdSyntaxError(`${op || 'The syntax of the command is incorrect.'} was unexpected at this time.`);
          cond = { k: 'cmp', op, a: tok, b: this.token() };
        }
      }
    }
    this.ws();
    if (this.i >= this.s.length) throw new CmdSyntaxError('The syntax of the command is incorrect.');
    const then = this.command(inBlock || this.at('('));
    this.ws();
    let elseNode: CmdNode | undefined;
    if (/^else\b/i.test(this.s.slice(this.i))) {
      this.i += 4;
      elseNode = this.command(inBlock);
    }
    return { t: 'if', negate, ignoreCase, cond, then, else: elseNode };
  }

  private forCommand(inBlock: boolean): CmdNode {
    this.token();
    let mode: 'list' | 'L' | 'F' = 'list';
    let options = '';
    let tok = this.token();
    if (/^\/l$/i.test(tok)) { mode = 'L'; tok = this.token(); }
    else if (/^\/f$/i.test(tok)) {
      mode = 'F';
      tok = this.token();
      if (tok.startsWith('"')) { options = tok.slice(1, -1); tok = this.token(); }
    } else if (/^\/[dr]$/i.test(tok)) tok = this.token();
    const variable = tok.replace(/^%%?/, '');
    if (this.token().toLowerCase() !== 'in') throw new CmdSyntaxError(`${tok} was unexpected at this time.`);
    this.ws();
    if (!this.at('(')) throw new CmdSyntaxError('The syntax of the command is incorrect.');
    const close = this.s.indexOf(')', this.i);
    if (close < 0) throw new CmdSyntaxError('The syntax of the command is incorrect.');
    const set = this.s.slice(this.i + 1, close);
    this.i = close + 1;
    if (this.token().toLowerCase() !== 'do') throw new CmdSyntaxError('The syntax of the command is incorrect.');
    const body = this.command(inBlock);
    return { t: 'for', mode, variable, set, options, body };
  }
}

/** Removes redirections from a command's text. */
export function extractRedirs(raw: string): { text: string; redirs: CmdRedir[] } {
  const redirs: CmdRedir[] = [];
  let text = '';
  let q = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') { q = !q; text += c; continue; }
    if (!q && c === '^') { text += c + (raw[i + 1] ?? ''); i++; continue; }
    if (!q && (c === '>' || c === '<')) {
      let fd = c === '<' ? 0 : 1;
      const m = /(^|\s)([0-9])$/.exec(text);
      if (m && c === '>') { fd = Number(m[2]); text = text.slice(0, text.length - 1); }
      let op: CmdRedir['op'] = c === '<' ? '<' : '>';
      if (c === '>' && raw[i + 1] === '>') { op = '>>'; i++; }
      if (c === '>' && raw[i + 1] === '&') { op = '>&'; i++; }
      i++;
      while (raw[i] === ' ' || raw[i] === '\t') i++;
      let target = '';
      let tq = false;
      for (; i < raw.length; i++) {
        const t = raw[i];
        if (t === '"') { tq = !tq; target += t; continue; }
        if (!tq && /[\s<>]/.test(t)) break;
        target += t;
      }
      i--;
      // The target is one word whose quotes only group: `>"C:\a b"\f.txt` names C:\a b\f.txt.
      redirs.push({ fd, op, target: op === '>&' ? target : target.replace(/"/g, '') });
      continue;
    }
    text += c;
  }
  return { text, redirs };
}

export function unescapeCarets(s: string): string {
  let out = '';
  let q = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') q = !q;
    if (!q && c === '^') { out += s[i + 1] ?? ''; i++; continue; }
    out += c;
  }
  return out;
}
