// Go's encoding/json as a Go program's output shows it: json.Marshal of decoded JSON (map keys sorted, compact, HTML
// characters escaped) and the texts json.Unmarshal gives for bad input, which some programs put in their messages.

const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** json.Marshal of an interface{} holding decoded JSON: map[string]interface{} keys come out sorted. */
export function goMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(goMarshal).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${goMarshal(k)}:${goMarshal(o[k])}`).join(',')}}`;
  }
  if (typeof v === 'string') return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => HTML_ESCAPES[c]);
  return JSON.stringify(v);
}

/** Go's quoteChar: a byte in single quotes, as the scanner's "invalid character" errors print it. */
function quoteChar(c: string): string {
  if (c === '\'') return '\'\\\'\'';
  if (c === '"') return '\'"\'';
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

class SyntaxErr extends Error {}

/** The error json.Unmarshal gives for syntactically bad input (encoding/json scanner.go), or undefined. */
export function goJsonSyntaxError(text: string): string | undefined {
  let i = 0;
  const end = () => new SyntaxErr('unexpected end of JSON input');
  const bad = (context: string) => new SyntaxErr(`invalid character ${quoteChar(text[i])} ${context}`);
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const peek = () => { if (i >= text.length) throw end(); return text[i]; };
  const str = () => {
    i++; // opening quote
    for (;;) {
      const c = peek();
      if (c === '"') { i++; return; }
      if (c < ' ') throw bad('in string literal');
      if (c === '\\') {
        i++;
        const e = peek();
        if (e === 'u') {
          for (let k = 0; k < 4; k++) { i++; if (!/[0-9a-fA-F]/.test(peek())) throw bad('in \\u hexadecimal character escape'); }
        } else if (!'"\\/bfnrt'.includes(e)) throw bad('in string escape code');
      }
      i++;
    }
  };
  const digits = (context: string) => { if (!/[0-9]/.test(peek())) throw bad(context); while (i < text.length && /[0-9]/.test(text[i])) i++; };
  const num = () => {
    if (text[i] === '-') { i++; if (!/[0-9]/.test(peek())) throw bad('in numeric literal'); }
    if (text[i] === '0') i++; else digits('in numeric literal');
    if (text[i] === '.') { i++; digits('after decimal point in numeric literal'); }
    if (text[i] === 'e' || text[i] === 'E') { i++; if (text[i] === '+' || text[i] === '-') i++; digits('in exponent of numeric literal'); }
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++, i++) if (peek() !== word[k]) throw bad(`in literal ${word} (expecting ${quoteChar(word[k])})`);
  };
  const value = (): void => {
    ws();
    const c = peek();
    if (c === '{') {
      i++; ws();
      if (peek() === '}') { i++; return; }
      for (;;) {
        if (peek() !== '"') throw bad('looking for beginning of object key string');
        str(); ws();
        if (peek() !== ':') throw bad('after object key');
        i++; value(); ws();
        const n = peek();
        if (n === '}') { i++; return; }
        if (n !== ',') throw bad('after object key:value pair');
        i++; ws();
      }
    }
    if (c === '[') {
      i++; ws();
      if (peek() === ']') { i++; return; }
      for (;;) {
        value(); ws();
        const n = peek();
        if (n === ']') { i++; return; }
        if (n !== ',') throw bad('after array element');
        i++;
      }
    }
    if (c === '"') return str();
    if (c === '-' || (c >= '0' && c <= '9')) return num();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    throw bad('looking for beginning of value');
  };
  try {
    value(); ws();
    if (i < text.length) throw bad('after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxErr) return e.message;
    throw e;
  }
}

/** Go's name for a decoded JSON value's type in UnmarshalTypeError ("string", "number", "array", "bool", "object"). */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * json.Unmarshal into a map[string]interface{}: the map (null for JSON null, a nil map), or Go's error text.
 */
export function goUnmarshalMap(text: string): { ok: true; value: Record<string, unknown> | null } | { ok: false; error: string } {
  const syntax = goJsonSyntaxError(text);
  if (syntax) return { ok: false, error: syntax };
  const v: unknown = JSON.parse(text);
  if (v === null) return { ok: true, value: null };
  if (typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: `json: cannot unmarshal ${jsonKind(v)} into Go value of type map[string]interface {}` };
  return { ok: true, value: v as Record<string, unknown> };
}

/** reflect.DeepEqual of two decoded JSON values (a nil map differs from an empty one). */
export function jsonDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, k) => jsonDeepEqual(x, bb[k]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonDeepEqual(ao[k], bo[k]));
}
