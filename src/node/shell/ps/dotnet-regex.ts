// .NET regular expressions as PowerShell's -match, -replace, -split and switch -regex use them, on JavaScript's
// RegExp: .NET's group numbering (unnamed groups first, then named ones), its substitution language ($1, ${name},
// $$, $&, $`, $', $+, $_) and Regex.Split, plus the RegexOptions -split takes by name.

import { PsError } from './values.js';

export interface NetRegexOptions {
  ignoreCase: boolean;
  multiline?: boolean;
  singleline?: boolean;
  explicitCapture?: boolean;
  ignorePatternWhitespace?: boolean;
}

/** A translated pattern: the RegExp (global) and, for each .NET group number, its JavaScript index and name. */
export interface NetRegex {
  re: RegExp;
  /** Index = .NET group number (0 is the whole match); value = index into the JavaScript match array. */
  jsIndex: number[];
  /** .NET group number → name (numbers for unnamed groups, as Groups[n].Name is). */
  names: string[];
}

/** RegexParser's `The regular expression pattern … is not valid.` as PowerShell wraps it (InvalidRegularExpression). */
function invalid(pattern: string): PsError {
  return new PsError(`The regular expression pattern ${pattern} is not valid.`, 'InvalidOperation', 'InvalidRegularExpression', { target: pattern, exceptionType: 'RuntimeException' });
}

/** Translates a .NET pattern: inline options at the start, \A \z \Z, .NET's `$`, (?'name'), comments. */
export function netRegex(pattern: string, o: NetRegexOptions): NetRegex {
  let flags = { i: o.ignoreCase, m: !!o.multiline, s: !!o.singleline, n: !!o.explicitCapture, x: !!o.ignorePatternWhitespace };
  let src = pattern;
  const lead = /^\(\?([imsnx]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]) flags = { ...flags, [f]: true };
    src = src.slice(lead[0].length);
  }
  let out = '';
  const groups: (string | null)[] = [];
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1] ?? '';
      i++;
      if (!inClass && n === 'A') out += '(?<![\\s\\S])';
      else if (!inClass && n === 'z') out += '(?![\\s\\S])';
      else if (!inClass && n === 'Z') out += '(?=\\n?(?![\\s\\S]))';
      else out += `\\${n}`;
      continue;
    }
    if (inClass) { if (c === ']') inClass = false; out += c; continue; }
    if (c === '[') { inClass = true; out += c; if (src[i + 1] === '^') { out += '^'; i++; } if (src[i + 1] === ']') { out += '\\]'; i++; } continue; }
    if (flags.x && /\s/.test(c)) continue;
    if (flags.x && c === '#') { while (i < src.length && src[i] !== '\n') i++; continue; }
    // Without Multiline, .NET's `$` also matches before a final newline.
    if (c === '$' && !flags.m) { out += '(?=\\n?(?![\\s\\S]))'; continue; }
    if (c !== '(') { out += c; continue; }
    const rest = src.slice(i + 1);
    if (rest.startsWith('?#')) { const end = src.indexOf(')', i); i = end < 0 ? src.length : end; continue; }
    const named = /^\?(?:<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')/.exec(rest);
    if (named) { groups.push(named[1] ?? named[2]); out += `(?<${named[1] ?? named[2]}>`; i += named[0].length; continue; }
    if (rest[0] === '?') { out += c; continue; }
    if (flags.n) { out += '(?:'; continue; }
    groups.push(null);
    out += c;
  }
  let re: RegExp;
  try {
    re = new RegExp(out, `g${flags.i ? 'i' : ''}${flags.m ? 'm' : ''}${flags.s ? 's' : ''}`);
  } catch {
    throw invalid(pattern);
  }
  // .NET numbers the unnamed groups first, left to right, then each distinct name in order of appearance.
  const jsIndex = [0];
  const names = ['0'];
  groups.forEach((g, k) => { if (g === null) { jsIndex.push(k + 1); names.push(String(jsIndex.length - 1)); } });
  groups.forEach((g, k) => { if (g !== null && !names.includes(g)) { jsIndex.push(k + 1); names.push(g); } });
  return { re, jsIndex, names };
}

/** The .NET groups of one match: number → captured text (undefined when the group did not take part). */
export function netGroups(nr: NetRegex, m: RegExpExecArray | RegExpMatchArray): (string | undefined)[] {
  return nr.jsIndex.map((j) => m[j]);
}

/** All matches, advancing past empty ones as .NET's Regex.Matches does. */
function* matches(nr: NetRegex, s: string): Generator<RegExpExecArray> {
  const re = nr.re;
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    yield m;
    if (m[0] === '') re.lastIndex++;
    if (re.lastIndex > s.length) break;
  }
}

/**
 * One substitution (RegexReplacement): `$n` takes every digit and is literal when no group has that number,
 * `${name}` likewise; `$$` is a dollar; `$&` `$0` the match; `` $` `` and `$'` the text around it; `$+` the last
 * group; `$_` the whole input; any other `$` is literal.
 */
function substitute(rep: string, nr: NetRegex, g: (string | undefined)[], m: RegExpExecArray, input: string): string {
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i];
    if (c !== '$' || i + 1 >= rep.length) { out += c; continue; }
    const n = rep[i + 1];
    if (n === '$') { out += '$'; i++; continue; }
    if (n === '&') { out += m[0]; i++; continue; }
    if (n === '`') { out += input.slice(0, m.index); i++; continue; }
    if (n === "'") { out += input.slice(m.index + m[0].length); i++; continue; }
    if (n === '+') { out += g[g.length - 1] ?? ''; i++; continue; }
    if (n === '_') { out += input; i++; continue; }
    const digits = /^\d+/.exec(rep.slice(i + 1));
    if (digits) {
      const num = Number(digits[0]);
      if (num < g.length) { out += g[num] ?? ''; i += digits[0].length; continue; }
      out += c;
      continue;
    }
    const braced = /^\{(\w+)\}/.exec(rep.slice(i + 1));
    if (braced) {
      const key = braced[1];
      const num = /^\d+$/.test(key) ? Number(key) : nr.names.indexOf(key);
      if (num >= 0 && num < g.length) { out += g[num] ?? ''; i += braced[0].length; continue; }
    }
    out += c;
  }
  return out;
}

/** Regex.Replace(input, replacement). */
export function netReplace(nr: NetRegex, s: string, rep: string): string {
  let out = '';
  let last = 0;
  for (const m of matches(nr, s)) {
    out += s.slice(last, m.index) + substitute(rep, nr, netGroups(nr, m), m, s);
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
}

/** Regex.Split(input, count): at most count pieces (0: all), each match's captured groups kept in group order. */
export function netSplit(nr: NetRegex, s: string, count = 0): string[] {
  const out: string[] = [];
  let last = 0;
  let pieces = 1;
  for (const m of matches(nr, s)) {
    if (count > 0 && pieces >= count) break;
    out.push(s.slice(last, m.index));
    for (const x of netGroups(nr, m).slice(1)) if (x !== undefined) out.push(x);
    last = m.index + m[0].length;
    pieces++;
  }
  out.push(s.slice(last));
  return out;
}

/** The first match, or null (what -match and switch -regex test). */
export function netMatch(nr: NetRegex, s: string): RegExpExecArray | null {
  nr.re.lastIndex = 0;
  return nr.re.exec(s);
}

/** -split's options string (about_Split): SimpleMatch or RegexMatch with IgnoreCase, Multiline, Singleline, … */
export interface SplitOptions extends NetRegexOptions { simpleMatch: boolean }

export function splitOptions(text: string, ignoreCase: boolean): SplitOptions {
  const o: SplitOptions = { ignoreCase, simpleMatch: false };
  for (const raw of text.split(',').map((x) => x.trim()).filter(Boolean)) {
    switch (raw.toLowerCase()) {
      case 'simplematch': o.simpleMatch = true; break;
      case 'regexmatch': o.simpleMatch = false; break;
      case 'ignorecase': o.ignoreCase = true; break;
      case 'multiline': o.multiline = true; break;
      case 'singleline': o.singleline = true; break;
      case 'explicitcapture': o.explicitCapture = true; break;
      case 'ignorepatternwhitespace': o.ignorePatternWhitespace = true; break;
      case 'cultureinvariant': break;
      default:
        throw new PsError(`Cannot convert value "${raw}" to type "System.Management.Automation.SplitOptions". Error: "Unable to match the identifier name ${raw} to a valid enumerator name. Specify one of the following enumerator names and try again:\r\nSimpleMatch, RegexMatch, CultureInvariant, IgnorePatternWhitespace, Multiline, Singleline, IgnoreCase, ExplicitCapture"`, 'InvalidArgument', 'InvalidCastFromStringToEnum', { exceptionType: 'RuntimeException' });
    }
  }
  return o;
}

/** A literal delimiter as a pattern (Regex.Escape). */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
