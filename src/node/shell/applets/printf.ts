// printf(1) formatting and echo's escapes: conversions %s %b %c %d %i %o %u %x %X %e %f %g %%, flags, width,
// precision and `*`; the format is reused until the arguments run out.

export function backslashEscapes(s: string, octalNeedsZero: boolean): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i === s.length - 1) { out += c; continue; }
    const n = s[++i];
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\x07'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case 'e': out += '\x1b'; break;
      case '\\': out += '\\'; break;
      case 'c': return { text: out, stop: true };
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m) { out += String.fromCharCode(parseInt(m[0], 16)); i += m[0].length; } else out += '\\x';
        break;
      }
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        if (octalNeedsZero && n !== '0') { out += `\\${n}`; break; }
        const digits = /^[0-7]{0,3}/.exec(s.slice(n === '0' && octalNeedsZero ? i + 1 : i))![0];
        const len = n === '0' && octalNeedsZero ? digits.length : digits.length - 1;
        out += String.fromCharCode(parseInt(digits || '0', 8) & 0xff);
        i += len;
        break;
      }
      default: out += `\\${n}`;
    }
  }
  return { text: out, stop: false };
}

function toNumber(a: string | undefined, onBad: (a: string) => void): number {
  if (a === undefined || a === '') return 0;
  if (/^['"]./.test(a)) return a.codePointAt(1)!;
  const t = a.trim();
  if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(t)) return parseInt(t, 16);
  if (/^[+-]?0[0-7]+$/.test(t)) return parseInt(t, 8);
  const n = Number(t);
  if (Number.isNaN(n)) {
    onBad(a);
    const lead = /^[+-]?\d+/.exec(t);
    return lead ? Number(lead[0]) : 0;
  }
  return n;
}

function pad(s: string, width: number, left: boolean, zero: boolean): string {
  if (s.length >= width) return s;
  if (left) return s.padEnd(width);
  if (zero) {
    const sign = /^[+-]/.test(s) ? s[0] : '';
    return sign + s.slice(sign.length).padStart(width - sign.length, '0');
  }
  return s.padStart(width);
}

export interface PrintfResult { out: string; errors: string[] }

export function formatPrintf(format: string, args: string[]): PrintfResult {
  const errors: string[] = [];
  let out = '';
  let ai = 0;
  const next = () => args[ai++];
  const bad = (a: string) => errors.push(`invalid number '${a}'`);
  for (let pass = 0; pass === 0 || (ai < args.length && ai > 0); pass++) {
    const startAi = ai;
    for (let i = 0; i < format.length; i++) {
      const c = format[i];
      if (c === '\\') {
        const m = /^(\\[0-7]{1,3}|\\x[0-9a-fA-F]{1,2}|\\.)/s.exec(format.slice(i));
        if (!m) { out += c; continue; }
        out += backslashEscapes(m[0], false).text;
        i += m[0].length - 1;
        continue;
      }
      if (c !== '%') { out += c; continue; }
      const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%])/.exec(format.slice(i));
      if (!m) { out += c; continue; }
      i += m[0].length - 1;
      const flags = m[1];
      const width = m[2] === '*' ? toNumber(next(), bad) : m[2] ? Number(m[2]) : 0;
      const precRaw = m[3] === '*' ? String(toNumber(next(), bad)) : m[3];
      const prec = precRaw === undefined ? undefined : Number(precRaw || '0');
      const conv = m[4];
      const left = flags.includes('-');
      const zero = flags.includes('0') && !left;
      let s: string;
      switch (conv) {
        case '%': out += '%'; continue;
        case 's': s = next() ?? ''; if (prec !== undefined) s = s.slice(0, prec); break;
        case 'b': { const r = backslashEscapes(next() ?? '', true); s = r.text; if (r.stop) { out += pad(s, width, left, false); return { out, errors }; } break; }
        case 'c': s = (next() ?? '').slice(0, 1); break;
        case 'd': case 'i': {
          const n = Math.trunc(toNumber(next(), bad));
          s = String(Math.abs(n));
          if (prec !== undefined) s = s.padStart(prec, '0');
          s = (n < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + s;
          break;
        }
        case 'u': s = String(Math.trunc(toNumber(next(), bad)) >>> 0); break;
        case 'o': s = (Math.trunc(toNumber(next(), bad)) >>> 0).toString(8); if (flags.includes('#') && s !== '0') s = `0${s}`; break;
        case 'x': case 'X': {
          s = (Math.trunc(toNumber(next(), bad)) >>> 0).toString(16);
          if (flags.includes('#') && s !== '0') s = `0x${s}`;
          if (conv === 'X') s = s.toUpperCase();
          break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': {
          const n = toNumber(next(), bad);
          const p = prec ?? 6;
          s = conv === 'f' || conv === 'F' ? n.toFixed(p)
            : conv === 'e' || conv === 'E' ? n.toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2')
              : String(Number(n.toPrecision(p || 1)));
          if (conv === 'E' || conv === 'G') s = s.toUpperCase();
          if (n >= 0 && flags.includes('+')) s = `+${s}`;
          break;
        }
        default: s = m[0];
      }
      out += pad(s, width, left, zero && conv !== 's' && conv !== 'c');
    }
    if (ai === startAi) break;
  }
  return { out, errors };
}

/** echo's output. `escapes`: 'never' (bash, GNU without -e), 'flag' (-e enables), 'always' (dash). */
export function echoText(args: string[], style: 'flag' | 'always' | 'never-n'): string {
  let newline = true;
  let escapes = style === 'always';
  let i = 0;
  if (style !== 'never-n') {
    for (; i < args.length; i++) {
      const a = args[i];
      if (!/^-[neE]+$/.test(a)) break;
      if (style === 'always' && a !== '-n') break;
      for (const f of a.slice(1)) {
        if (f === 'n') newline = false;
        else if (f === 'e') escapes = true;
        else escapes = false;
      }
    }
  }
  let text = args.slice(i).join(' ');
  if (escapes) {
    const r = backslashEscapes(text, true);
    text = r.text;
    if (r.stop) return text;
  }
  return newline ? `${text}\n` : text;
}
