// The strategy of one served version of a custom resource: status kept apart when the status subresource is on,
// generation, defaulting, structural-schema and ObjectMeta validation (apiextensions-apiserver
// pkg/registry/customresource/strategy.go, status_strategy.go, validator.go).

import { fieldErr, StatusError, type FieldError } from '../errors.js';
import type { Strategy } from '../interfaces.js';
import type { KubeObject } from '../types.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';
import { jsonEqual } from '../../util/json.js';
import { applyDefaults } from './schema-defaults.js';
import { validateValue, validateValueUpdate } from './schema-validate.js';
import { validateCelRules } from './cel-validate.js';
import { selectableFieldGetters, type SelectableField } from './selectable-fields.js';
import type { CrdScale, JSONSchemaProps } from './types.js';

export interface CrStrategyOptions {
  group: string;
  plural: string;
  schema?: JSONSchemaProps;
  statusSubresource: boolean;
  scale?: CrdScale;
  /** Whether the resource is namespaced: cluster-scoped ones cannot be selected on metadata.namespace. */
  namespaced?: boolean;
  /** The version's selectableFields, offered to field selectors beside metadata.name (and metadata.namespace). */
  selectableFields?: readonly SelectableField[];
  /** Whether the CRD is being deleted: creates are refused then (forbidCreateAdmission). */
  terminating(): boolean;
}

/** The object without the parts that do not count as a spec change. */
function content(obj: KubeObject, dropStatus: boolean): Record<string, unknown> {
  const { metadata: _m, status, ...rest } = obj as KubeObject & { status?: unknown };
  return dropStatus || status === undefined ? rest : { ...rest, status };
}

const getPath = (obj: unknown, path: string): unknown =>
  path.replace(/^\./, '').split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);

/** validator.go ValidateScaleSpec/ValidateScaleStatus: replicas are non-negative int32 integers. */
function scaleErrors(obj: KubeObject, path: string): FieldError[] {
  const v = getPath(obj, path);
  if (v === undefined) return [];
  const field = path.replace(/^\./, '');
  if (typeof v !== 'number' || !Number.isInteger(v)) return [fieldErr.invalid(field, 0, 'should be an integer')];
  if (v < 0) return [fieldErr.invalid(field, v, 'should be a non-negative integer')];
  if (v > 2147483647) return [fieldErr.invalid(field, v, 'should be less than or equal to 2147483647')];
  return [];
}

export function crStrategy(o: CrStrategyOptions): Strategy {
  // validate runs on create and update alike; x-kubernetes-validations need to know which (oldSelf), so a create
  // marks its object in prepareForCreate and an update evaluates them in validateUpdate with the old object.
  const creating = new WeakSet<KubeObject>();
  const validate = (obj: KubeObject): FieldError[] => {
    const errs = validateObjectMeta(obj.metadata, nameIsDNSSubdomain);
    // An update's schema checks run in validateUpdate, against the old object (ratcheting).
    if (o.schema && creating.has(obj)) errs.push(...validateValue(o.schema, obj));
    // Rules run only on schema-valid objects (validator.go: CEL after the OpenAPI validation passes).
    if (o.schema && !errs.length && creating.has(obj)) errs.push(...validateCelRules(o.schema, obj, undefined));
    if (o.scale) errs.push(...scaleErrors(obj, o.scale.specReplicasPath), ...scaleErrors(obj, o.scale.statusReplicasPath));
    return errs;
  };
  return {
    defaults: (obj) => {
      if (o.schema) applyDefaults(o.schema, obj);
    },
    prepareForCreate(obj) {
      if (o.terminating()) {
        throw StatusError.forbidden(o.group, o.plural, obj.metadata.name ?? '', 'create not allowed while custom resource definition is terminating');
      }
      if (o.statusSubresource) delete (obj as { status?: unknown }).status;
      obj.metadata.generation = 1;
      creating.add(obj);
    },
    prepareForUpdate(obj, old, ctx) {
      const o2 = obj as KubeObject & { status?: unknown };
      if (ctx.subresource === 'status') {
        // status_strategy.go: everything but status (and the managedFields of this write) comes from the old object.
        const status = o2.status;
        const managedFields = obj.metadata.managedFields;
        for (const k of Object.keys(obj)) if (k !== 'metadata') delete (obj as unknown as Record<string, unknown>)[k];
        Object.assign(obj, JSON.parse(JSON.stringify({ ...old, metadata: undefined })));
        obj.metadata = { ...JSON.parse(JSON.stringify(old.metadata)), resourceVersion: obj.metadata.resourceVersion, managedFields };
        if (status === undefined) delete o2.status;
        else o2.status = status;
        return;
      }
      if (o.statusSubresource) {
        const prev = (old as { status?: unknown }).status;
        if (prev === undefined) delete o2.status;
        else o2.status = JSON.parse(JSON.stringify(prev));
      }
      // Without a status subresource any change outside metadata is a new generation; with it, only non-status ones.
      if (!jsonEqual(content(obj, o.statusSubresource), content(old, o.statusSubresource))) {
        obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
      }
    },
    validate,
    ...fieldSelection(o),
    validateUpdate: (obj, old) => {
      const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
      if (!o.schema) return errs;
      // CRDValidationRatcheting (GA in 1.33): parts left as they were may stay invalid (validator.go ValidateUpdate with
      // apiservervalidation.ValidateCustomResourceUpdate, ratcheting.go); the metadata checks above do not ratchet.
      const schemaErrs = validateValueUpdate(o.schema, obj, old);
      errs.push(...schemaErrs);
      if (!errs.length) errs.push(...validateCelRules(o.schema, obj, old));
      return errs;
    },
    generation: true,
  };
}

/** customResourceStrategy.GetAttrs and crConverter.ConvertFieldLabel: which field labels select, and their values. */
function fieldSelection(o: CrStrategyOptions): Pick<Strategy, 'fieldSelectors' | 'fieldLabelSupported'> {
  const getters = o.selectableFields?.length ? selectableFieldGetters(o.selectableFields) : undefined;
  const namespaced = o.namespaced !== false;
  return {
    fieldSelectors: getters,
    fieldLabelSupported: (f) => f === 'metadata.name' || (namespaced && f === 'metadata.namespace') || (getters !== undefined && f in getters),
  };
}
