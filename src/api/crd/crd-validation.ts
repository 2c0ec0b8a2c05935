// Validation of a CustomResourceDefinition itself with kube's paths and messages
// (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go ValidateCustomResourceDefinition).

import { FieldError, fieldErr } from '../errors.js';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../validation/names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';
import { GoValue } from '../validation/go-value.js';
import { hasDefaults } from './schema-defaults.js';
import { validateSchema } from './structural.js';
import { findPreexistingExpressions, NO_PREEXISTING, validateRules, type PreexistingExpressions } from './cel-rules.js';
import { validateDefaults } from './default-validation.js';
import { caBundleErrors, mustKeepValidCaBundle, validateConversion } from './conversion-validation.js';
import { selectableFieldErrors } from './selectable-fields.js';
import { jsonEqual } from '../../util/json.js';
import type { Crd, CrdColumn, CrdNames, CrdVersion } from './types.js';

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'hostname', 'int32', 'int64', 'password', 'uri'];
const APPROVAL = 'api-approved.kubernetes.io';

/** The versions as kube prints them in messages (%#v of the internal slice), shortened to the names and flags. */
function versionsValue(vs: CrdVersion[]): GoValue {
  const items = vs.map((v) => `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name)}, Served:${v.served}, Storage:${v.storage}, ...}`);
  return new GoValue(vs, `[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`);
}

/** `old`, on update: rules it already had compile in the stored CEL environment (validation.go findPreexistingExpressions). */
export function validateCrd(crd: Crd, old?: Crd): FieldError[] {
  const spec = crd.spec ?? ({} as Crd['spec']);
  const names = spec.names ?? ({} as CrdNames);
  const required = `${names.plural ?? ''}.${spec.group ?? ''}`;
  const errs = validateObjectMeta(crd.metadata, (name, prefix) => {
    const out = nameIsDNSSubdomain(name, prefix);
    if (name !== required) out.push('must be spec.names.plural+"."+spec.group');
    return out;
  });
  const preexisting = old ? findPreexistingExpressions((old.spec?.versions ?? []).map((v) => v.schema?.openAPIV3Schema)) : NO_PREEXISTING;
  errs.push(...validateSpec(crd, preexisting));
  errs.push(...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'));
  errs.push(...validateApproval(crd));
  return errs;
}

export function validateCrdUpdate(crd: Crd, old: Crd): FieldError[] {
  const errs = validateObjectMetaUpdate(crd.metadata, old.metadata);
  // Stored data would be unreadable under another scope (validation.go ValidateCustomResourceDefinitionUpdate).
  if (old.spec?.scope && crd.spec?.scope !== old.spec.scope && (old.status?.storedVersions?.length ?? 0) > 0 && crd.spec?.group === old.spec.group) {
    errs.push(fieldErr.invalid('spec.scope', crd.spec?.scope ?? '', 'field is immutable'));
  }
  if (mustKeepValidCaBundle(old)) errs.push(...caBundleErrors(crd));
  return errs;
}

function validateSpec(crd: Crd, preexisting: PreexistingExpressions): FieldError[] {
  const spec = crd.spec;
  const errs: FieldError[] = [];
  if (!spec.group) errs.push(fieldErr.required('spec.group'));
  else {
    const bad = isDNS1123Subdomain(spec.group);
    if (bad.length) errs.push(fieldErr.invalid('spec.group', spec.group, bad.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(fieldErr.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  if (!spec.scope) errs.push(fieldErr.required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(fieldErr.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  const versions = spec.versions ?? [];
  versions.forEach((v, i) => {
    if (!v.schema?.openAPIV3Schema) errs.push(fieldErr.required(`spec.versions[${i}].schema.openAPIV3Schema`));
  });
  if (spec.preserveUnknownFields && versions.some((v) => hasDefaults(v.schema?.openAPIV3Schema))) {
    errs.push(fieldErr.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
  }
  const seen = new Set<string>();
  let unique = true;
  errs.push(...defaultErrors(versions));
  errs.push(...celRuleErrors(versions, preexisting));
  const selectable = selectableFieldErrors(versions);
  versions.forEach((v, i) => {
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const bad = isDNS1035Label(v.name ?? '');
    if (bad.length) errs.push(fieldErr.invalid(`spec.versions[${i}].name`, v.name ?? '', bad.join(',')));
    errs.push(...validateVersion(v, `spec.versions[${i}]`), ...selectable.perVersion[i]);
  });
  if (!versions.length) errs.push(fieldErr.required('spec.versions', 'must have exactly one version marked as storage version'));
  else {
    if (!unique) errs.push(fieldErr.invalid('spec.versions', versionsValue(versions), 'must contain unique version names'));
    if (versions.filter((v) => v.storage).length !== 1) {
      errs.push(fieldErr.invalid('spec.versions', versionsValue(versions), 'must have exactly one version marked as storage version'));
    }
  }
  const names = spec.names ?? ({} as CrdNames);
  if (!names.plural) errs.push(fieldErr.required('spec.names.plural'));
  if (!names.singular) errs.push(fieldErr.required('spec.names.singular'));
  if (!names.kind) errs.push(fieldErr.required('spec.names.kind'));
  if (!names.listKind) errs.push(fieldErr.required('spec.names.listKind'));
  errs.push(...validateNames(names, 'spec.names'));
  // Hoisted selectableFields come after the names and the hoisted schema, before conversion (validation.go order).
  errs.push(...selectable.spec);
  errs.push(...validateConversion(crd));
  return errs;
}

/**
 * Rule compile errors, at the path kube reports: versions whose schemas are all equal are hoisted to the internal
 * spec.validation by the v1 conversion, so their errors name spec.validation.openAPIV3Schema.
 */
function celRuleErrors(versions: CrdVersion[], preexisting: PreexistingExpressions): FieldError[] {
  const schemas = versions.map((v) => v.schema?.openAPIV3Schema);
  if (!schemas.length || schemas.some((s) => !s)) return [];
  // Structural errors come first; rules of a schema that is not structural are not compiled.
  if (versions.some((v, i) => validateSchema(schemas[i]!, `spec.versions[${i}].schema.openAPIV3Schema`).length)) return [];
  if (schemas.every((s) => jsonEqual(s, schemas[0]))) return validateRules(schemas[0]!, 'spec.validation.openAPIV3Schema', preexisting);
  return schemas.flatMap((s, i) => validateRules(s!, `spec.versions[${i}].schema.openAPIV3Schema`, preexisting));
}

/**
 * Errors of the schemas' defaults, for structural schemas only (ValidateDefaults runs once ValidateStructural passes),
 * at the same paths as rule errors.
 */
function defaultErrors(versions: CrdVersion[]): FieldError[] {
  const schemas = versions.map((v) => v.schema?.openAPIV3Schema);
  if (!schemas.length || schemas.some((s) => !s)) return [];
  const structural = (i: number) => !validateSchema(schemas[i]!, `spec.versions[${i}].schema.openAPIV3Schema`).length;
  if (schemas.every((s) => jsonEqual(s, schemas[0]))) return structural(0) ? validateDefaults(schemas[0]!, 'spec.validation.openAPIV3Schema') : [];
  return schemas.flatMap((s, i) => (structural(i) ? validateDefaults(s!, `spec.versions[${i}].schema.openAPIV3Schema`) : []));
}

function validateVersion(v: CrdVersion, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const schema = v.schema?.openAPIV3Schema;
  if (schema) {
    if (v.subresources?.status && schema.type && schema.type !== 'object') {
      errs.push(fieldErr.invalid(`${path}.schema.openAPIV3Schema.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
    }
    errs.push(...validateSchema(schema, `${path}.schema.openAPIV3Schema`));
  }
  const scale = v.subresources?.scale;
  if (scale) {
    const sp = `${path}.subresources.scale`;
    if (!scale.specReplicasPath) errs.push(fieldErr.required(`${sp}.specReplicasPath`));
    else if (!scale.specReplicasPath.startsWith('.spec.')) errs.push(fieldErr.invalid(`${sp}.specReplicasPath`, scale.specReplicasPath, 'should be a json path under .spec'));
    if (!scale.statusReplicasPath) errs.push(fieldErr.required(`${sp}.statusReplicasPath`));
    else if (!scale.statusReplicasPath.startsWith('.status.')) errs.push(fieldErr.invalid(`${sp}.statusReplicasPath`, scale.statusReplicasPath, 'should be a json path under .status'));
    if (scale.labelSelectorPath && !/^\.(spec|status)\./.test(scale.labelSelectorPath)) {
      errs.push(fieldErr.invalid(`${sp}.labelSelectorPath`, scale.labelSelectorPath, 'should be a json path under either .spec or .status'));
    }
  }
  (v.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, `${path}.additionalPrinterColumns[${i}]`)));
  return errs;
}

function validateColumn(c: CrdColumn, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(fieldErr.required(`${path}.name`));
  if (!c.type) errs.push(fieldErr.required(`${path}.type`, `must be one of ${COLUMN_TYPES.join(',')}`));
  else if (!COLUMN_TYPES.includes(c.type)) errs.push(fieldErr.invalid(`${path}.type`, c.type, `must be one of ${COLUMN_TYPES.join(',')}`));
  if (c.format && !COLUMN_FORMATS.includes(c.format)) errs.push(fieldErr.invalid(`${path}.format`, c.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  if (!c.jsonPath) errs.push(fieldErr.required(`${path}.JSONPath`));
  return errs;
}

/** ValidateCustomResourceDefinitionNames: DNS-1035 labels, kinds in any case, kind and listKind apart. */
export function validateNames(names: CrdNames | undefined, path: string): FieldError[] {
  if (!names) return [];
  const errs: FieldError[] = [];
  const label = (v: string | undefined, field: string, prefix = '') => {
    if (!v) return;
    const bad = isDNS1035Label(prefix ? v.toLowerCase() : v);
    if (bad.length) errs.push(fieldErr.invalid(`${path}.${field}`, v, prefix + bad.join(',')));
  };
  label(names.plural, 'plural');
  label(names.singular, 'singular');
  label(names.kind, 'kind', 'may have mixed case, but should otherwise match: ');
  label(names.listKind, 'listKind', 'may have mixed case, but should otherwise match: ');
  names.shortNames?.forEach((s, i) => label(s, `shortNames[${i}]`));
  if (names.kind && names.kind === names.listKind) errs.push(fieldErr.invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  names.categories?.forEach((c, i) => label(c, `categories[${i}]`));
  return errs;
}

/** Groups under k8s.io and kubernetes.io need the api-approved annotation (apihelpers GetAPIApprovalState). */
function validateApproval(crd: Crd): FieldError[] {
  const g = crd.spec?.group ?? '';
  if (!(g === 'k8s.io' || g.endsWith('.k8s.io') || g === 'kubernetes.io' || g.endsWith('.kubernetes.io'))) return [];
  const v = crd.metadata.annotations?.[APPROVAL] ?? '';
  const path = `metadata.annotations[${APPROVAL}]`;
  if (!v) return [fieldErr.required(path, `protected groups must have approval annotation "${APPROVAL}", see https://github.com/kubernetes/enhancements/pull/1111`)];
  if (v.startsWith('unapproved') || /^[a-z][a-z0-9+.-]*:\/\/[^/]+/i.test(v)) return [];
  return [fieldErr.invalid(path, v, `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`)];
}
