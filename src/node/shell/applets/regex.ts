// POSIX regular expressions (basic and extended) translated to JavaScript ones, for grep and sed.

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f',
};

/** Converts a BRE (extended=false) or ERE to a JavaScript regular expression source. */
export function posixToJs(re: string, extended: boolean): string {
  let out = '';
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === '[') {
      let j = i + 1;
      if (re[j] === '^') j++;
      if (re[j] === ']') j++;
      while (j < re.length && re[j] !== ']') {
        if (re[j] === '[' && re[j + 1] === ':') { const e = re.indexOf(':]', j + 2); j = e < 0 ? j + 1 : e + 2; continue; }
        j++;
      }
      let body = re.slice(i + 1, j);
      const neg = body.startsWith('^');
      if (neg) body = body.slice(1);
      body = body.replace(/\[:(\w+):\]/g, (_, n: string) => CLASSES[n] ?? '').replace(/\\/g, '\\\\').replace(/^\]/, '\\]');
      out += `[${neg ? '^' : ''}${body}]`;
      i = j;
      continue;
    }
    if (c === '\\') {
      const n = re[++i];
      if (n === undefined) { out += '\\\\'; break; }
      if (!extended && '(){}|+?'.includes(n)) { out += n; continue; }
      if (/[1-9]/.test(n)) { out += `\\${n}`; continue; }
      if ('<>'.includes(n)) { out += '\\b'; continue; }
      if ('wWsSbB'.includes(n)) { out += `\\${n}`; continue; }
      out += n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      continue;
    }
    if (!extended && '(){}|+?'.includes(c)) { out += `\\${c}`; continue; }
    if (!extended && c === '*' && (out === '' || out.endsWith('(') || out === '^')) { out += '\\*'; continue; }
    out += c;
  }
  return out;
}

export function compilePosix(re: string, extended: boolean, flags: string): RegExp {
  return new RegExp(posixToJs(re, extended), flags);
}
