// cel-go's literal validators in kube's base environment from 1.29: a constant argument of duration(), timestamp()
// or matches() must be valid at compile time, else `invalid <fn> argument` at the literal
// (cel-go cel/validator.go ValidateDurationLiterals, ValidateTimestampLiterals, ValidateRegexLiterals; base.go).

import type { ASTNode } from '@marcbachmann/cel-js';
import { parseGoDuration } from '../../util/go-duration.js';
import { visit, type AstIssue } from './ast-checks.js';

/** time.ParseDuration with CEL's optional sign. */
function validDuration(s: string): boolean {
  if (s !== s.trim()) return false;
  try {
    parseGoDuration(s.replace(/^[-+]/, ''));
    return true;
  } catch {
    return false;
  }
}

/** time.Parse(time.RFC3339): a real calendar date and clock time with a zone, years 0001 to 9999. */
function validTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  const zone = m[9] === undefined || (Number(m[9]) < 24 && Number(m[10]) < 60);
  return y >= 1 && days !== undefined && d >= 1 && d <= days && h < 24 && mi < 60 && se < 60 && zone;
}

/** regexp.Compile, approximated by JavaScript's parser in Unicode mode (RE2 has no lookaround or backreferences). */
function validRegex(s: string): boolean {
  if (/\(\?[=!<]|\\[1-9]/.test(s)) return false;
  try {
    new RegExp(s, 'u');
    return true;
  } catch {
    return false;
  }
}

const CHECKS: Record<string, (s: string) => boolean> = { duration: validDuration, timestamp: validTimestamp, matches: validRegex };

/** Each constant argument cel-go's validators refuse, where cel-go reports it (the literal). */
export function literalIssues(ast: ASTNode): AstIssue[] {
  const out: AstIssue[] = [];
  visit(ast, (n) => {
    if (n.op !== 'call' && n.op !== 'rcall') return;
    const name = n.args[0];
    const check = CHECKS[name];
    // cel-go checks the call's first argument: for a member call that excludes the receiver.
    const arg = n.op === 'call' ? n.args[1][0] : n.args[2][0];
    if (!check || !arg || arg.op !== 'value' || typeof arg.args !== 'string') return;
    if (!check(arg.args)) out.push({ offset: arg.range.start, message: `invalid ${name} argument` });
  });
  return out;
}
