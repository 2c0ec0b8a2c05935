// Node selector matching as k8s.io/component-helpers/scheduling/corev1/nodeaffinity: terms are ORed, requirements
// within a term ANDed, a term with no requirements (or one that fails to parse) matches nothing.
// TODO(merge): label requirement parsing could share src/api/labels.ts once it exists.

import type { NodeSelectorRequirement, NodeSelectorTerm } from '../types.js';

type Labels = Readonly<Record<string, string>>;

/** A compiled term; `null` when the term is invalid (kube drops such terms with an error). */
export interface CompiledTerm {
  labels: NodeSelectorRequirement[];
  fields: NodeSelectorRequirement[];
}

const INT = /^[+-]?\d+$/;

export function compileTerm(term: NodeSelectorTerm): CompiledTerm | null {
  const labels = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  for (const r of labels) if (!validLabelRequirement(r)) return null;
  // Only metadata.name with In/NotIn and exactly one value is a valid field requirement (nodeaffinity.go).
  for (const f of fields) {
    if (f.key !== 'metadata.name' || (f.operator !== 'In' && f.operator !== 'NotIn') || f.values?.length !== 1) return null;
  }
  return { labels, fields };
}

function validLabelRequirement(r: NodeSelectorRequirement): boolean {
  const n = r.values?.length ?? 0;
  switch (r.operator) {
    case 'In': case 'NotIn': return n > 0;
    case 'Exists': case 'DoesNotExist': return n === 0;
    case 'Gt': case 'Lt': return n === 1 && INT.test(r.values![0]!);
    default: return false;
  }
}

/** One requirement against a node's labels (apimachinery labels.Requirement.Matches). */
export function matchRequirement(r: NodeSelectorRequirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = has ? labels[r.key]! : '';
  switch (r.operator) {
    case 'In': return has && r.values!.includes(v);
    case 'NotIn': return !has || !r.values!.includes(v);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt': case 'Lt': {
      if (!has || !INT.test(v)) return false;
      const a = Number(v), b = Number(r.values![0]);
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default: return false;
  }
}

export function matchCompiledTerm(t: CompiledTerm, nodeName: string, labels: Labels): boolean {
  if (t.labels.length === 0 && t.fields.length === 0) return false;
  for (const r of t.labels) if (!matchRequirement(r, labels)) return false;
  for (const f of t.fields) {
    const inList = f.values![0] === nodeName;
    if (f.operator === 'In' ? !inList : inList) return false;
  }
  return true;
}

/** Compiles a list of required terms, dropping invalid ones; matching is ORed over what remains. */
export function compileTerms(terms: readonly NodeSelectorTerm[]): CompiledTerm[] {
  const out: CompiledTerm[] = [];
  for (const t of terms) {
    const c = compileTerm(t);
    if (c) out.push(c);
  }
  return out;
}

export function matchAnyTerm(terms: readonly CompiledTerm[], nodeName: string, labels: Labels): boolean {
  for (const t of terms) if (matchCompiledTerm(t, nodeName, labels)) return true;
  return false;
}
