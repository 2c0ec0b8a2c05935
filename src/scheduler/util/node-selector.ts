// Node selector terms as k8s.io/component-helpers/scheduling/corev1/nodeaffinity matches them: terms are ORed,
// requirements within a term ANDed, and a term with no requirements (or one that fails to parse) matches nothing.
// Label requirements are built and matched by the shared src/api/labels.ts (labels.NewRequirement / Matches).

import { newRequirement, requirementMatches, SelectorError, type Operator, type Requirement } from '../../api/labels.js';
import type { NodeSelectorRequirement, NodeSelectorTerm } from '../types.js';

type Labels = Readonly<Record<string, string>>;

/** A parsed term: label requirements plus `metadata.name` field requirements. */
export interface CompiledTerm {
  labels: Requirement[];
  fields: NodeSelectorRequirement[];
}

// nodeSelectorRequirementsAsSelector's operator mapping (pkg/apis/core/v1/helper/helpers.go).
const OPS: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };

/** Parses a term; `null` when any requirement is invalid (kube drops such terms and logs the error). */
export function compileTerm(term: NodeSelectorTerm): CompiledTerm | null {
  const labels: Requirement[] = [];
  for (const r of term.matchExpressions ?? []) {
    const op = OPS[r.operator];
    if (!op) return null;
    try {
      labels.push(newRequirement(r.key, op, [...(r.values ?? [])]));
    } catch (err) {
      if (err instanceof SelectorError) return null;
      throw err;
    }
  }
  const fields = term.matchFields ?? [];
  // Only metadata.name with In/NotIn and exactly one value is a valid field requirement (nodeaffinity.go).
  for (const f of fields) {
    if (f.key !== 'metadata.name' || (f.operator !== 'In' && f.operator !== 'NotIn') || f.values?.length !== 1) return null;
  }
  return { labels, fields };
}

export function matchCompiledTerm(t: CompiledTerm, nodeName: string, labels: Labels): boolean {
  if (t.labels.length === 0 && t.fields.length === 0) return false;
  for (const r of t.labels) if (!requirementMatches(r, labels)) return false;
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
