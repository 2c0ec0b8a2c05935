// Compile issues printed the way cel-go's Issues.String() prints them (cel-go common/errors.go ToDisplayString):
// `ERROR: <input>:1:6: undefined field 'foo'` then the source line and a caret under the column.

/** The parts of a cel-js error we read: its code, its plain message and where it points. */
export interface CelErrorLike {
  code?: string;
  summary?: string;
  message: string;
  range?: { start: number; end: number };
}

/** cel-go's operator function names (`_+_`), for overload errors. */
const OPERATORS: Record<string, string> = {
  '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', '+': '_+_', '-': '_-_', '*': '_*_',
  '/': '_/_', '%': '_%_', in: '@in',
};

/**
 * cel-js's own message for a one-variable quantifier whose predicate is not bool; cel-go reports the overload of its
 * expansion's step instead (parser/macro.go makeQuantifier: accu && p, accu || p, p ? accu + 1 : accu).
 */
const QUANTIFIER = /^(all|exists|exists_one)\(var, predicate\) predicate must return bool, got '(.+)'$/;

function quantifierMessage(kind: string, type: string): string {
  const t = type.replace(/</g, '(').replace(/>/g, ')');
  if (kind === 'all') return `found no matching overload for '_&&_' applied to '(bool, ${t})'`;
  if (kind === 'exists') return `found no matching overload for '_||_' applied to '(bool, ${t})'`;
  return `found no matching overload for '_?_:_' applied to '(${t}, int, int)'`;
}

/** The unmatched `(` before `pos`: the opening parenthesis of the call `pos` is an argument of. */
function openParenBefore(input: string, pos: number): number {
  let depth = 0;
  for (let i = pos - 1; i >= 0; i--) {
    const c = input[i];
    if (')]}'.includes(c)) depth++;
    else if ('([{'.includes(c)) {
      if (depth === 0) return c === '(' ? i : -1;
      depth--;
    }
  }
  return -1;
}

/** cel-go's wording for the checker errors both libraries find; other texts keep cel-js's words. */
function goMessage(e: CelErrorLike): string {
  const msg = e.summary ?? e.message.split('\n')[0];
  let m: RegExpExecArray | null;
  if ((m = QUANTIFIER.exec(msg))) return quantifierMessage(m[1], m[2]);
  if ((m = /^Unknown variable: (.+)$/.exec(msg))) return `undeclared reference to '${m[1]}' (in container '')`;
  if (e.code === 'no_such_key' && (m = /^No such key: (.+)$/.exec(msg))) return `undefined field '${m[1]}'`;
  if ((m = /^no such overload: (\S+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (\S+)$/.exec(msg))) {
    return `found no matching overload for '${OPERATORS[m[2]]}' applied to '(${m[1]}, ${m[3]})'`;
  }
  if (e.code && /^(unexpected_|expected_token|unterminated|invalid_|newline_in|reserved_identifier|bytes_unicode|octal)/.test(e.code)) {
    return `Syntax error: ${msg}`;
  }
  return msg;
}

/** Offset → 1-based line, 0-based column and the line's text. */
function locate(input: string, offset: number): { line: number; column: number; text: string } {
  const before = input.slice(0, Math.max(0, Math.min(offset, input.length)));
  const lines = before.split('\n');
  const line = lines.length;
  const column = [...lines[lines.length - 1]].length;
  return { line, column, text: input.split('\n')[line - 1] ?? '' };
}

/**
 * The last occurrence of a binary operator outside quotes and brackets within [start, end): the operator of the
 * node there (left-associative chains put the node's own operator last). -1 when none.
 */
function operatorOffset(input: string, start: number, end: number, op: string): number {
  let depth = 0;
  let quote = '';
  let found = -1;
  for (let i = start; i < end; i++) {
    const c = input[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth <= 0 && input.startsWith(op, i)) {
      const before = input[i - 1] ?? ' ';
      const after = input[i + op.length] ?? ' ';
      const word = /\w/.test(op);
      const clean = word ? !/\w/.test(before) && !/\w/.test(after) : !'<>=!'.includes(after) && !(op.length === 1 && '<>=!'.includes(before));
      if (clean) found = i;
    }
  }
  return found;
}

/** Where cel-go points: a field selection at its dot, a binary operator at the operator, else where cel-js points. */
function offsetOf(input: string, e: CelErrorLike): number {
  const start = e.range?.start ?? 0;
  // The expansion's step is located at the macro call's opening parenthesis.
  if (QUANTIFIER.test(e.summary ?? e.message.split('\n')[0])) {
    const paren = openParenBefore(input, start);
    if (paren >= 0) return paren;
  }
  const bin = /^no such overload: \S+ (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) \S+$/.exec(e.summary ?? e.message.split('\n')[0]);
  if (bin) {
    const at = operatorOffset(input, start, e.range?.end ?? input.length, bin[1]);
    if (at >= 0) return at;
  }
  const m = e.code === 'no_such_key' ? /^No such key: (.+)$/.exec(e.summary ?? '') : null;
  if (m) {
    // cel-js points at the field name or at the operand before it; cel-go at the dot.
    const back = input.lastIndexOf(`.${m[1]}`, start);
    const at = back >= 0 && back >= start - 1 ? back : input.indexOf(`.${m[1]}`, start);
    if (at >= 0) return at;
  }
  return start;
}

/** `ERROR: <input>:L:C: msg\n | source\n | ...^` (cel-go prints the column 1-based, the dots 0-based). */
export function formatIssue(input: string, e: CelErrorLike): string {
  const { line, column, text } = locate(input, offsetOf(input, e));
  return `ERROR: <input>:${line}:${column + 1}: ${goMessage(e)}\n | ${text}\n | ${'.'.repeat(column)}^`;
}

/** The runtime error text kube wraps (`no such key: foo`): cel-go's lower-case wording where it differs. */
export function runtimeMessage(e: unknown): string {
  const err = e as CelErrorLike;
  const msg = err?.summary ?? (err?.message ?? String(e)).split('\n')[0];
  const m = /^No such key: (.+)$/.exec(msg);
  if (m) return `no such key: ${m[1]}`;
  return msg;
}
