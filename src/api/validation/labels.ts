// Validation of label maps and LabelSelector objects, with kube's paths and messages
// (k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).

import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { FieldError, fieldErr } from '../errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

/** ValidateLabelName. An absent name (a key left out of a taint or selector requirement) is Go's empty string. */
export function validateLabelName(name: string | undefined, path: string): FieldError[] {
  return isQualifiedName(name ?? '').map((m) => fieldErr.invalid(path, name ?? '', m));
}

/** ValidateLabels: every key a qualified name, every value a label value; errors name the map, not the key. */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels ?? {}).sort()) {
    errs.push(...validateLabelName(k, path));
    for (const m of isValidLabelValue(String(labels![k]))) errs.push(fieldErr.invalid(path, labels![k], m));
  }
  return errs;
}

/** ValidateLabelSelector; `allowInvalidLabelValue` is LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector. */
export function validateLabelSelector(ls: LabelSelector | null | undefined, path: string, allowInvalidLabelValue = false): FieldError[] {
  if (!ls) return [];
  const errs = validateLabels(ls.matchLabels, `${path}.matchLabels`);
  (ls.matchExpressions ?? []).forEach((e, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In': case 'NotIn':
        if (values.length === 0) errs.push(fieldErr.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists': case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErr.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldErr.invalid(`${p}.operator`, e.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(e.key, `${p}.key`));
    if (!allowInvalidLabelValue) {
      values.forEach((v, j) => {
        for (const m of isValidLabelValue(v)) errs.push(fieldErr.invalid(`${p}.values[${j}]`, v, m));
      });
    }
  });
  return errs;
}
