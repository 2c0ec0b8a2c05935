// The object and oldObject of an AdmissionReview as kube-apiserver encodes a typed (built-in) object: Go's encoding/json
// writes the non-pointer metav1.Time ObjectMeta.creationTimestamp even when zero, as `null`
// (apimachinery pkg/apis/meta/v1/time.go Time.MarshalJSON, types.go ObjectMeta), and the other fields it never omits
// (go-zero-fields.ts). Custom resources are unstructured maps and go out as they are.

import { getComponentSchemas } from '../../../api/openapi/index.js';
import type { KubeObject } from '../../../api/types.js';
import { withGoZeroFields } from './go-zero-fields.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const REF = '#/components/schemas/';
/** ObjectMeta's fields that Go writes after creationTimestamp (struct field order). */
const AFTER_CREATION = new Set(['deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields']);

type Schema = { $ref?: string; allOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: Schema | boolean };

/** The definition a schema node stands for, through `$ref` or a single-`allOf` wrapper. */
function refName(s: Schema | undefined): string | undefined {
  const ref = s?.$ref ?? (s?.allOf?.length === 1 ? s.allOf[0]!.$ref : undefined);
  return ref?.startsWith(REF) ? ref.slice(REF.length) : undefined;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ObjectMeta with a zero creationTimestamp written as null, at its place in Go's field order. */
function withNullCreation(meta: Record<string, unknown>): Record<string, unknown> {
  if ('creationTimestamp' in meta) return meta;
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const [k, v] of Object.entries(meta)) {
    if (!placed && AFTER_CREATION.has(k)) {
      out.creationTimestamp = null;
      placed = true;
    }
    out[k] = v;
  }
  if (!placed) out.creationTimestamp = null;
  return out;
}

function walk(v: unknown, s: Schema | undefined, schemas: Record<string, Schema>, depth: number): unknown {
  if (!s || depth > 40) return v;
  const name = refName(s);
  if (name === OBJECT_META) return isMap(v) ? withNullCreation(v) : v;
  const def = name ? schemas[name] : s;
  if (!def) return v;
  if (Array.isArray(v)) return def.items ? v.map((x) => walk(x, def.items, schemas, depth + 1)) : v;
  if (!isMap(v)) return v;
  const out: Record<string, unknown> = {};
  const extra = isMap(def.additionalProperties) ? (def.additionalProperties as Schema) : undefined;
  // Fields Go writes even when zero (`status: {}`, a container's `resources: {}`) are added, then completed in turn.
  const full = name ? withGoZeroFields(name, v) : v;
  for (const [k, x] of Object.entries(full)) out[k] = walk(x, def.properties?.[k] ?? extra, schemas, depth + 1);
  return out;
}

/**
 * `obj` as a webhook receives it. `definition` is the OpenAPI definition of a built-in kind (every ObjectMeta in it,
 * pod templates' too, is completed); `typed` without a definition (a subresource's own kind: Binding, Eviction,
 * TokenRequest, Scale) completes the top-level metadata. The object is not changed; a copy is returned when needed.
 */
export function wireObject(obj: KubeObject | undefined, definition: string | undefined, typed: boolean): KubeObject | null {
  if (!obj) return null;
  if (definition) {
    const schemas = getComponentSchemas() as unknown as Record<string, Schema>;
    if (schemas[definition]) return walk(obj, { $ref: `${REF}${definition}` }, schemas, 0) as KubeObject;
  }
  if (typed && isMap(obj.metadata)) return { ...obj, metadata: withNullCreation(obj.metadata as Record<string, unknown>) } as KubeObject;
  return obj;
}
