// cel-go's homogeneous aggregate literal validator, which kube's base environment turns on
// (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go cel.HomogeneousAggregateLiterals; cel-go
// cel/validator.go homogeneousAggregateLiteralValidator): after type-checking, every list literal's elements and every
// map literal's keys and values must have one type (dyn is a type of its own), except literals anywhere inside a
// `format` call (ext/formatting.go exempts it). cel-js's own option has no exemption, so the check runs here on the
// checked AST instead.

import type { ASTNode } from '@marcbachmann/cel-js';
import type { AstIssue } from './ast-checks.js';

/** The checked type cel-js caches on a node (absent on nodes it never reached). */
interface CheckedType {
  name: string;
  hasPlaceholderType?: boolean;
}

const checkedType = (n: ASTNode): CheckedType | undefined => (n as unknown as { checkedType?: CheckedType }).checkedType;

/** cel-go's spelling of a type (`list(int)`, `null_type`). */
const goName = (t: CheckedType): string => (t.name === 'null' ? 'null_type' : t.name.replace(/</g, '(').replace(/>/g, ')'));

/**
 * IsEquivalentType: same kind and name, parameters compared alike; a type still holding a type parameter (an empty
 * literal) takes whatever the checker later binds it to, so it matches.
 */
function equivalent(a: CheckedType, b: CheckedType): boolean {
  return a.name === b.name || !!a.hasPlaceholderType || !!b.hasPlaceholderType;
}

const isNode = (x: unknown): x is ASTNode => !!x && typeof x === 'object' && 'op' in x && 'args' in x;

/** Where cel-go places an expression: a selection at its dot, a call at its `(`, an index at its `[`, else its start. */
export function goOffset(n: ASTNode, input: string): number {
  const { start, end } = n.range;
  switch (n.op) {
    case '.': case '.?': return Math.max(start, input.lastIndexOf('.', end - String(n.args[1]).length));
    case 'call': case 'rcall': {
      const at = input.indexOf('(', n.op === 'rcall' ? (n.args[1] as ASTNode).range.end : start);
      return at >= 0 && at < end ? at : start;
    }
    case '[]': case '[?]': {
      const at = input.indexOf('[', (n.args[0] as ASTNode).range.end);
      return at >= 0 && at < end ? at : start;
    }
    default: return start;
  }
}

/** The mismatches of an expression's literals, in source order. */
export function heterogeneousLiterals(ast: ASTNode, input: string): AstIssue[] {
  const out: AstIssue[] = [];
  const mismatch = (at: ASTNode, expected: CheckedType, found: CheckedType) =>
    out.push({ offset: goOffset(at, input), message: `expected type '${goName(expected)}' but found '${goName(found)}'` });
  const walk = (n: ASTNode, exempt: boolean): void => {
    const inFormat = exempt || ((n.op === 'rcall' || n.op === 'call') && n.args[0] === 'format');
    if (!inFormat && n.op === 'list') {
      let first: CheckedType | undefined;
      for (const e of n.args as ASTNode[]) {
        const t = checkedType(e);
        if (!t) continue;
        if (!first) first = t;
        else if (!equivalent(first, t)) {
          mismatch(e, first, t);
          break;
        }
      }
    }
    if (!inFormat && n.op === 'map') {
      let key: CheckedType | undefined;
      let value: CheckedType | undefined;
      for (const [k, v] of n.args as [ASTNode, ASTNode][]) {
        const kt = checkedType(k);
        const vt = checkedType(v);
        if (!kt || !vt) continue;
        if (!key || !value) {
          key = kt;
          value = vt;
          continue;
        }
        if (!equivalent(key, kt)) mismatch(k, key, kt);
        if (!equivalent(value, vt)) mismatch(v, value, vt);
      }
    }
    const visit = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(visit);
      else if (isNode(x)) walk(x, inFormat);
    };
    if (typeof n.args === 'object') visit(n.args);
  };
  walk(ast, false);
  return out.sort((a, b) => a.offset - b.offset);
}
