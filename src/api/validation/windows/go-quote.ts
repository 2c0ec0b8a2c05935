// Strings as kube-apiserver prints them in field errors: Go's %q (strconv.Quote), wrapped as a GoValue.

import { GoValue } from '../go-value.js';

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const SHORT_ESCAPES: Record<number, string> = {
  0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\', 0x22: '\\"',
};

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * strconv.Quote: escapes what unicode.IsPrint rejects. JSON.stringify differs for control characters
 * (`\u0007` vs `\a`), DEL and non-printable Unicode, all of which a bad runAsUserName may contain.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0) ?? 0;
    // A lone surrogate cannot come out of Go's JSON decoder; it would have become U+FFFD.
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    const short = SHORT_ESCAPES[cp];
    if (short) out += short;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (PRINTABLE.test(String.fromCodePoint(cp))) out += String.fromCodePoint(cp);
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** A string bad value that prints as Go's %q in the error message and serialises as the plain string. */
export const goString = (s: string): GoValue => new GoValue(s, goQuote(s));
