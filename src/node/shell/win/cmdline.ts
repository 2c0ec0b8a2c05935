// Windows command lines: the runtime joins argv with Go's EscapeArg rules (hcsshim), programs split them back with
// the Microsoft C runtime's rules (CommandLineToArgvW), and cmd.exe sees the raw text.

/** Go syscall.EscapeArg: quotes an argument with spaces, escapes quotes and the backslashes before them. */
export function escapeArg(s: string): string {
  if (s === '') return '""';
  const hasSpace = /[ \t]/.test(s);
  if (!hasSpace && !/["\\]/.test(s)) return s;
  let out = hasSpace ? '"' : '';
  let slashes = 0;
  for (const c of s) {
    if (c === '\\') { slashes++; out += c; continue; }
    if (c === '"') { out += '\\'.repeat(slashes) + '\\"'; slashes = 0; continue; }
    slashes = 0;
    out += c;
  }
  if (hasSpace) out += `${'\\'.repeat(slashes)}"`;
  return out;
}

export function joinWindowsArgs(argv: string[]): string {
  return argv.map(escapeArg).join(' ');
}

/** CommandLineToArgvW: whitespace separates, quotes group, 2n backslashes + quote → n and a quote toggle. */
export function splitWindowsArgs(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let inQuotes = false;
    for (; i < line.length; i++) {
      const c = line[i];
      if (!inQuotes && (c === ' ' || c === '\t')) break;
      if (c === '\\') {
        let n = 0;
        while (line[i] === '\\') { n++; i++; }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(n / 2));
          if (n % 2 === 1) { arg += '"'; continue; }
          i--;
          continue;
        }
        arg += '\\'.repeat(n);
        i--;
        continue;
      }
      if (c === '"') {
        if (inQuotes && line[i + 1] === '"') { arg += '"'; i++; continue; }
        inQuotes = !inQuotes;
        continue;
      }
      arg += c;
    }
    out.push(arg);
  }
  return out;
}
