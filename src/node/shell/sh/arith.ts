// Shell arithmetic ($(( )), (( )), let): integers, C operators and precedence, variables by name, assignment.

export interface ArithVars {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

export class ArithError extends Error {}

type Tok = { t: 'num'; v: number } | { t: 'id'; v: string } | { t: 'op'; v: string };

const OPS = ['<<=', '>>=', '**', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
  '+', '-', '*', '/', '%', '<', '>', '&', '|', '^', '!', '~', '(', ')', '?', ':', '=', ','];

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    const num = /^(0[xX][0-9a-fA-F]+|[0-9]+)/.exec(src.slice(i));
    if (num) {
      const s = num[0];
      out.push({ t: 'num', v: s.startsWith('0x') || s.startsWith('0X') ? parseInt(s, 16) : s.length > 1 && s.startsWith('0') ? parseInt(s, 8) : parseInt(s, 10) });
      i += s.length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) { out.push({ t: 'id', v: id[0] }); i += id[0].length; continue; }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ArithError(`syntax error: invalid arithmetic operator (error token is "${src.slice(i)}")`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

const BINARY: [string[], number][] = [
  [['||'], 1], [['&&'], 2], [['|'], 3], [['^'], 4], [['&'], 5], [['==', '!='], 6], [['<', '>', '<=', '>='], 7],
  [['<<', '>>'], 8], [['+', '-'], 9], [['*', '/', '%'], 10], [['**'], 11],
];
const PREC = new Map<string, number>(BINARY.flatMap(([ops, p]) => ops.map((o) => [o, p] as [string, number])));

export function evalArith(src: string, vars: ArithVars): number {
  const toks = lex(src);
  let i = 0;
  const peek = () => toks[i];
  const isOp = (v: string) => toks[i]?.t === 'op' && toks[i].v === v;
  const num = (name: string): number => {
    const v = vars.get(name);
    if (v === undefined || v === '') return 0;
    const n = Number(v.trim());
    if (Number.isNaN(n)) return evalArith(v, vars);
    return Math.trunc(n);
  };
  const apply = (op: string, a: number, b: number): number => {
    switch (op) {
      case '+': return a + b; case '-': return a - b; case '*': return a * b;
      case '/': if (b === 0) throw new ArithError('division by 0'); return Math.trunc(a / b);
      case '%': if (b === 0) throw new ArithError('division by 0'); return a % b;
      case '**': return a ** b;
      case '<<': return a << b; case '>>': return a >> b;
      case '<': return +(a < b); case '>': return +(a > b); case '<=': return +(a <= b); case '>=': return +(a >= b);
      case '==': return +(a === b); case '!=': return +(a !== b);
      case '&': return a & b; case '|': return a | b; case '^': return a ^ b;
      case '&&': return +(a !== 0 && b !== 0); case '||': return +(a !== 0 || b !== 0);
    }
    throw new ArithError(`syntax error: operand expected (error token is "${op}")`);
  };
  const primary = (): number => {
    const t = peek();
    if (!t) throw new ArithError('syntax error: operand expected');
    if (t.t === 'num') { i++; return t.v; }
    if (t.t === 'id') {
      i++;
      if (isOp('++') || isOp('--')) {
        const op = (toks[i++] as { v: string }).v;
        const old = num(t.v);
        vars.set(t.v, String(op === '++' ? old + 1 : old - 1));
        return old;
      }
      const assign = ['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^='].find((o) => isOp(o));
      if (assign) {
        i++;
        const rhs = expr();
        const v = assign === '=' ? rhs : apply(assign.slice(0, -1), num(t.v), rhs);
        vars.set(t.v, String(v));
        return v;
      }
      return num(t.v);
    }
    if (t.v === '(') {
      i++;
      const v = expr();
      if (!isOp(')')) throw new ArithError('syntax error: missing ")"');
      i++;
      return v;
    }
    if (t.v === '++' || t.v === '--') {
      i++;
      const id = peek();
      if (id?.t !== 'id') throw new ArithError('syntax error: operand expected');
      i++;
      const v = num(id.v) + (t.v === '++' ? 1 : -1);
      vars.set(id.v, String(v));
      return v;
    }
    if (t.v === '-') { i++; return -primary(); }
    if (t.v === '+') { i++; return primary(); }
    if (t.v === '!') { i++; return +(primary() === 0); }
    if (t.v === '~') { i++; return ~primary(); }
    throw new ArithError(`syntax error: operand expected (error token is "${t.v}")`);
  };
  const binary = (min: number): number => {
    let left = primary();
    for (;;) {
      const t = peek();
      if (t?.t !== 'op') break;
      const p = PREC.get(t.v);
      if (p === undefined || p < min) break;
      i++;
      const right = binary(t.v === '**' ? p : p + 1);
      left = apply(t.v, left, right);
    }
    return left;
  };
  const ternary = (): number => {
    const c = binary(1);
    if (!isOp('?')) return c;
    i++;
    const a = expr();
    if (!isOp(':')) throw new ArithError("syntax error: ':' expected");
    i++;
    const b = ternary();
    return c !== 0 ? a : b;
  };
  function expr(): number {
    let v = ternary();
    while (isOp(',')) { i++; v = ternary(); }
    return v;
  }
  if (toks.length === 0) return 0;
  const v = expr();
  if (i < toks.length) throw new ArithError(`syntax error in expression (error token is "${(toks[i] as { v: string | number }).v}")`);
  return v;
}
