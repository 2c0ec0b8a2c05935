// The OpenAPI schema of a custom resource kind, as apiextensions-apiserver's builder publishes it
// (pkg/controller/openapi/builder/builder.go): the version's schema plus apiVersion, kind and an ObjectMeta
// metadata, so `kubectl explain` and client-side validation see the same fields the server keeps.

import type { JSONSchemaProps } from './types.js';

const OBJECT_META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const API_VERSION_DESCRIPTION = 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION = 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DESCRIPTION = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** A deep copy, so the published document never shares (or lets anyone change) the CRD's own schema objects. */
function clean(s: JSONSchemaProps): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && v && typeof v === 'object') {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, JSONSchemaProps>).map(([p, sub]) => [p, clean(sub)]));
    } else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = clean(v as JSONSchemaProps);
    } else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) {
      out[k] = (v as JSONSchemaProps[]).map(clean);
    } else out[k] = v;
  }
  return out;
}

/** The kind's schema; `undefined` schema (preserveUnknownFields CRDs) gives an open object. */
export function crOpenApiSchema(schema: JSONSchemaProps | undefined): Record<string, unknown> {
  const base = schema ? clean(schema) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const props = { ...((base.properties as Record<string, unknown> | undefined) ?? {}) };
  props.apiVersion = { description: API_VERSION_DESCRIPTION, type: 'string' };
  props.kind = { description: KIND_DESCRIPTION, type: 'string' };
  props.metadata = { description: METADATA_DESCRIPTION, allOf: [{ $ref: OBJECT_META_REF }] };
  const ordered = Object.fromEntries(Object.keys(props).sort().map((k) => [k, props[k]]));
  return { ...base, type: 'object', properties: ordered };
}
