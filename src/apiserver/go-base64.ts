// Where Go's encoding/json would reject a []byte field's text: it decodes base64.StdEncoding (padded, \r and \n
// skipped) and reports CorruptInputError "illegal base64 data at input byte N" (encoding/base64 decodeQuantum).

const ALPHABET = /[A-Za-z0-9+/]/;

/** The offset Go's decoder reports for `s`, or undefined when it decodes. */
export function base64ErrorOffset(s: string): number | undefined {
  let si = 0;
  while (si < s.length) {
    // One quantum of up to four symbols.
    let j = 0;
    for (; j < 4; j++) {
      if (si === s.length) {
        // Input ended inside a quantum: padded base64 must come in whole quanta.
        return j === 0 ? undefined : si - j;
      }
      const c = s[si++]!;
      if (ALPHABET.test(c)) continue;
      if (c === '\n' || c === '\r') {
        j--;
        continue;
      }
      if (c !== '=' || j < 2) return si - 1;
      if (j === 2) {
        // "==" is expected: the second '=' after any newlines.
        while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
        if (si === s.length) return s.length;
        if (s[si] !== '=') return si - 1;
        si++;
      }
      // Padding ends the data: only newlines may follow.
      while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
      return si < s.length ? si : undefined;
    }
  }
  return undefined;
}

export const base64Message = (offset: number): string => `illegal base64 data at input byte ${offset}`;
