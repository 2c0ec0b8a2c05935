// Bad values that must print the way kube-apiserver prints them: Go's %#v for maps and structs
// (k8s.io/apimachinery/pkg/util/validation/field/errors.go ErrorBody falls back to %#v).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { FieldError } from '../errors.js';

/**
 * Carries a value together with its Go-syntax rendering. JSON.stringify still yields the plain value; a
 * FieldError formatter that knows this type prints `goSyntax` instead, e.g. `map[string]string{"app":"x"}`.
 */
export class GoValue {
  constructor(readonly value: unknown, readonly goSyntax: string) {}
  toJSON(): unknown {
    return this.value;
  }
  toString(): string {
    return this.goSyntax;
  }
}

const q = (s: string) => JSON.stringify(s);

/** `map[string]string{"a":"1", "b":"2"}`; Go's fmt prints map keys sorted. */
export function goStringMapSyntax(m: Record<string, string> | undefined | null): string {
  if (!m) return 'map[string]string(nil)';
  const body = Object.keys(m).sort().map((k) => `${q(k)}:${q(m[k])}`).join(', ');
  return `map[string]string{${body}}`;
}

export function goStringMap(m: Record<string, string> | undefined | null): GoValue {
  return new GoValue(m ?? null, goStringMapSyntax(m));
}

function goStringSlice(v: string[] | undefined): string {
  return v ? `[]string{${v.map(q).join(', ')}}` : '[]string(nil)';
}

/** A dereferenced *metav1.LabelSelector under %#v. */
export function goLabelSelector(ls: LabelSelector | undefined | null): GoValue {
  if (!ls) return new GoValue(null, 'null');
  const exprs = ls.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${ls.matchExpressions
      .map((e) => `v1.LabelSelectorRequirement{Key:${q(e.key)}, Operator:${q(e.operator)}, Values:${goStringSlice(e.values)}}`)
      .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoValue(ls, `v1.LabelSelector{MatchLabels:${goStringMapSyntax(ls.matchLabels)}, MatchExpressions:${exprs}}`);
}

/**
 * A FieldError as kube-apiserver prints it, honouring GoValue bad values. errors.ts prints objects as JSON;
 * until its formatter learns GoValue (see the strategies job report), tests and callers that need kube's exact
 * text use this.
 */
export function kubeFieldErrorString(e: FieldError): string {
  if (!(e.badValue instanceof GoValue)) return e.toString();
  const plain = new FieldError(e.type, e.field, GO_PLACEHOLDER, e.detail).toString();
  return plain.replace(JSON.stringify(GO_PLACEHOLDER), e.badValue.goSyntax);
}

const GO_PLACEHOLDER = '\u0000go-value\u0000';
