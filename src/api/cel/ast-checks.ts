// Compile-time checks cel-go makes that cel-js's checker does not: has() on a field the type does not declare
// (checker.go checkSelect on a presence test) and string.format with a constant format and a list literal
// (cel-go ext/formatting.go stringFormatValidator). Each answers cel-go's message and where cel-go points.

import type { ASTNode } from '@marcbachmann/cel-js';
import { FormatError, walkFormat } from './library-format.js';

export interface AstIssue {
  /** Offset into the expression cel-go reports the issue at. */
  offset: number;
  message: string;
}

/** Depth-first visit of every node of a cel-js AST. */
export function visit(node: ASTNode, fn: (n: ASTNode) => void): void {
  fn(node);
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object' && 'op' in x && 'args' in x) visit(x as ASTNode, fn);
  };
  if (typeof node.args === 'object') walk(node.args);
}

/** The `has(` calls of an expression: where the call starts and where its `(` is (cel-go's position for it). */
export function hasCalls(ast: ASTNode, input: string): { start: number; paren: number; end: number }[] {
  const out: { start: number; paren: number; end: number }[] = [];
  visit(ast, (n) => {
    if (n.op === 'call' && n.args[0] === 'has' && n.args[1].length === 1 && n.args[1][0].op === '.') {
      out.push({ start: n.range.start, paren: input.indexOf('(', n.range.start), end: n.range.end });
    }
  });
  return out;
}

/** The expression with each has( turned into dyn( (same length), so its field selections are type-checked. */
export function presenceProbe(input: string, calls: { start: number }[]): string {
  let s = input;
  for (const c of calls) if (s.startsWith('has', c.start)) s = `${s.slice(0, c.start)}dyn${s.slice(c.start + 3)}`;
  return s;
}

/** The static kind of a format argument: literal types, list/map literals, dyn for anything computed. */
type Kind = 'int' | 'uint' | 'double' | 'string' | 'bool' | 'bytes' | 'null_type' | 'list' | 'map' | 'dyn';

function kindOf(n: ASTNode): Kind {
  if (n.op === 'list') return 'list';
  if (n.op === 'map') return 'map';
  if (n.op !== 'value') return 'dyn';
  const v = n.args;
  if (v === null) return 'null_type';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof Uint8Array) return 'bytes';
  return (v as object).constructor?.name === 'UnsignedInt' ? 'uint' : 'dyn';
}

const VERB_KINDS: Record<string, { kinds: Kind[]; err: string }> = {
  d: { kinds: ['int', 'uint'], err: 'decimal clause can only be used on integers, was given ' },
  f: { kinds: ['double', 'string'], err: 'fixed-point clause can only be used on doubles, was given ' },
  e: { kinds: ['double', 'string'], err: 'scientific clause can only be used on doubles, was given ' },
  b: { kinds: ['int', 'uint', 'bool'], err: 'only integers and bools can be formatted as binary, was given ' },
  x: { kinds: ['int', 'uint', 'string', 'bytes'], err: 'only integers, byte buffers, and strings can be formatted as hex, was given ' },
  X: { kinds: ['int', 'uint', 'string', 'bytes'], err: 'only integers, byte buffers, and strings can be formatted as hex, was given ' },
  o: { kinds: ['int', 'uint'], err: 'octal clause can only be used on integers, was given ' },
};

class ArgError extends FormatError {
  constructor(message: string, readonly at: ASTNode) {
    super(message);
  }
}

/** Checks one `"…".format([…])` call; undefined when it is fine. */
function checkFormatCall(n: ASTNode, input: string): AstIssue | undefined {
  if (n.op !== 'rcall' || n.args[0] !== 'format') return undefined;
  const [, target, args] = n.args;
  if (target.op !== 'value' || typeof target.args !== 'string' || args.length !== 1 || args[0].op !== 'list') return undefined;
  const elems = args[0].args as ASTNode[];
  const callAt = input.indexOf('(', input.indexOf('format', target.range.end));
  try {
    const { used } = walkFormat(target.args, elems.length, (verb, _clause, i) => {
      const arg = elems[i];
      const k = kindOf(arg);
      if (verb === 's') return '';
      const rule = VERB_KINDS[verb];
      if (k !== 'dyn' && !rule.kinds.includes(k)) throw new ArgError(`error during formatting: ${rule.err}${k}`, arg);
      return '';
    });
    if (elems.length > used) return { offset: callAt, message: `too many arguments supplied to string.format (expected ${used}, got ${elems.length})` };
  } catch (err) {
    if (err instanceof ArgError) return { offset: err.at.range.start, message: err.message };
    if (err instanceof FormatError) return { offset: callAt, message: err.message };
    throw err;
  }
  return undefined;
}

/** The first format-call issue of an expression. */
export function formatIssues(ast: ASTNode, input: string): AstIssue | undefined {
  let found: AstIssue | undefined;
  visit(ast, (n) => {
    if (!found) found = checkFormatCall(n, input);
  });
  return found;
}
