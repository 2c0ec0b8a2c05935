// Label selectors and label maps as printed strings (metav1.FormatLabelSelector, labels.Selector.String, labels.FormatLabels).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

type Requirement = { key: string; op: string; values: string[] };

// Syntax of label keys and values: k8s.io/apimachinery/pkg/util/validation/validation.go
// (IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain).
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function isQualifiedName(key: string): boolean {
  const parts = key.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) return false;
  } else {
    return false;
  }
  return name.length > 0 && name.length <= 63 && QUALIFIED_NAME.test(name);
}

function isLabelValue(v: string): boolean {
  return v.length <= 63 && LABEL_VALUE.test(v);
}

/** labels.NewRequirement's checks: key and value syntax, and the value count each operator allows. */
function requirementError(r: Requirement): string | undefined {
  if (!isQualifiedName(r.key)) return `invalid label key "${r.key}"`;
  switch (r.op) {
    case 'in':
    case 'notin':
      if (r.values.length === 0) return 'for \'in\', \'notin\' operators, values set can\'t be empty';
      break;
    case '=':
      if (r.values.length !== 1) return 'exact-match compatibility requires one single value';
      break;
    case 'exists':
    case '!':
      if (r.values.length !== 0) return 'values set must be empty for exists and does not exist';
      break;
  }
  for (const v of r.values) if (!isLabelValue(v)) return `invalid label value: "${v}"`;
  return undefined;
}

const OPERATORS: Record<string, string> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector followed by Selector.String() (apimachinery pkg/apis/meta/v1/helpers.go,
 * pkg/labels/selector.go): requirements sorted by key, values of in/notin sorted.
 * A nil or empty selector prints as ''. Returns an Error for what kube rejects.
 */
export function selectorString(sel: LabelSelector | null | undefined): string | Error {
  if (!sel) return '';
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key, op: '=', values: [value] });
  for (const expr of sel.matchExpressions ?? []) {
    const op = OPERATORS[expr.operator];
    if (!op) return new Error(`"${expr.operator}" is not a valid pod selector operator`);
    reqs.push({ key: expr.key, op, values: [...(expr.values ?? [])] });
  }
  for (const r of reqs) {
    const err = requirementError(r);
    if (err) return new Error(err);
  }
  // Go sorts by key with sort.Sort (unstable); a stable sort gives the same text for distinct keys.
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map(requirementString).join(',');
}

function requirementString(r: Requirement): string {
  const values = [...r.values].sort().join(',');
  switch (r.op) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
      return `${r.key} in (${values})`;
    case 'notin':
      return `${r.key} notin (${values})`;
    default:
      return `${r.key}=${values}`;
  }
}

/** metav1.FormatLabelSelector: `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(sel: LabelSelector | null | undefined): string {
  const s = selectorString(sel);
  if (s instanceof Error) return '<error>';
  return s.length === 0 ? '<none>' : s;
}

/** labels.FormatLabels: Set.String() sorts the joined `k=v` strings (not the keys); `<none>` when empty. */
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
  if (pairs.length === 0) return '<none>';
  return pairs.sort().join(',');
}
