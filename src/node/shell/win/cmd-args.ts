// cmd.exe's argument rules for its internal commands: whitespace separates words unless quoted (a quote may open
// mid-word), quotes are dropped from paths, and names Windows rejects fail with ERROR_INVALID_NAME.

/** Win32 ERROR_INVALID_NAME (123), the text cmd prints for a path with a character Windows forbids. */
export const INVALID_NAME = 'The filename, directory name, or volume label syntax is incorrect.';

/** Splits an internal command's arguments the way cmd does: quotes group and stay in the word, `^` is gone by now. */
export function cmdWords(rest: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let q = false;
  for (const c of rest) {
    if (!q && (c === ' ' || c === '\t')) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    if (c === '"') q = !q;
    cur += c;
    inWord = true;
  }
  if (inWord) out.push(cur);
  return out;
}

/** cmd removes every quote from a path argument: `"C:\a b"\c` and `C:\"a b\c"` both name `C:\a b\c`. */
export function unquote(word: string): string {
  return word.replace(/"/g, '');
}

/** Splits into switches (`/S`, `/Q`) and unquoted operands; a quoted word is never a switch. */
export function switchesAndOperands(rest: string): { switches: string[]; operands: string[] } {
  const switches: string[] = [];
  const operands: string[] = [];
  for (const w of cmdWords(rest)) (w.startsWith('/') ? switches : operands).push(w.startsWith('/') ? w.toLowerCase() : unquote(w));
  return { switches, operands };
}

/**
 * Whether Windows rejects the path's syntax: `< > | "` and `:` after the drive are never valid in a name (Win32
 * "Naming Files, Paths, and Namespaces"); `* ?` are wildcards, valid only where the command matches patterns.
 */
export function invalidPath(path: string, wildcards = false): boolean {
  const rest = path.replace(/^[A-Za-z]:/, '');
  if (/[<>|":]/.test(rest)) return true;
  return !wildcards && /[*?]/.test(rest);
}
