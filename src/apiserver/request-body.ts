// Request bodies as kube-apiserver's decoder sees them: apiVersion/kind checks, JSON types against the Go types
// (typed-decode.ts), and fieldValidation Strict/Warn/Ignore for fields the type does not have.

import { fieldErr, StatusError } from '../api/errors.js';
import { getComponentSchemas } from '../api/openapi/index.js';
import type { KubeObject } from '../api/types.js';
import { warningValue } from './admission/warnings.js';
import { decodeBody, decodeObjectBody } from './negotiate.js';
import type { RequestContext, ResourceHandler } from './resource-handler.js';
import { first } from './server.js';
import { typeMismatch, type PatchMask } from './typed-decode.js';

/** What a body is decoded as, when not the resource itself (Scale, Binding, Eviction, DeleteOptions). */
export interface TypedTarget {
  definition?: string;
  kind?: string;
  apiVersion?: string;
}

/** Decodes a write body and checks it names this resource type (kube's decoder rules). */
export function decodeObject(h: ResourceHandler, ctx: RequestContext): KubeObject {
  const body = decodeObjectBody(decodeBody(ctx.req.body, ctx.req.contentType), ctx.decl.kind);
  // No copy: ApiServer.handle owns the request body (the HTTP server parses a fresh one, the in-process transport
  // hands over its own copy), and a created object becomes the stored one (ResourceStore.put).
  return checkTypes(ctx, checkKind(h, ctx, body as KubeObject), 'decode');
}

/**
 * The typed decoder's check (typed-decode.ts): a field of the wrong JSON type is a 400 when a body is decoded,
 * a 422 on the `patch` field when a patch produced it, and a 400 for a server-side apply configuration.
 * `patchText` is what kube prints as the patch's invalid value (the patched object, or the strategic patch).
 */
export function checkTypes<T>(ctx: RequestContext, obj: T, how: 'decode' | 'patch' | 'apply', target: TypedTarget = {}, patchText?: string, mask?: PatchMask): T {
  const definition = target.definition ?? ctx.decl.definition;
  if (!definition) return obj;
  const bad = typeMismatch(getComponentSchemas(), definition, obj, mask);
  if (!bad) return obj;
  const kind = target.kind ?? ctx.decl.kind;
  const apiVersion = target.apiVersion ?? ctx.rs.apiVersion;
  if (how === 'patch') {
    // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyPatchToCurrentObject / applyPatchToObject.
    throw StatusError.invalid('', '', '', [fieldErr.invalid('patch', patchText ?? JSON.stringify(obj), bad.message)]);
  }
  if (how === 'apply') {
    // staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go (a 400 since kubernetes#139255).
    const meta = (obj as KubeObject).metadata ?? {};
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
    throw StatusError.badRequest(`failed to create typed patch object (${str(meta.namespace)}/${str(meta.name)}; ${gv}, Kind=${kind}): .${bad.path}: expected ${bad.goType}, got ${bad.got}`);
  }
  // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go transformDecodeError.
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  throw StatusError.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${bad.message}`);
}

/**
 * kube's decoder rules for apiVersion and kind, then metadata's shape and field validation (of the paths `mask`
 * names only, when the object is a stored one with a merge patch applied).
 */
export function checkKind(h: ResourceHandler, ctx: RequestContext, obj: KubeObject, expectKind = ctx.decl.kind, expectApiVersion = ctx.rs.apiVersion, mask?: PatchMask): KubeObject {
  for (const field of ['apiVersion', 'kind'] as const) {
    const v: unknown = obj[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      // The decoder reads apiVersion/kind into an anonymous struct first (apimachinery runtime/serializer/json meta.go).
      const got = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
      throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${expectKind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${got} into Go struct field .${field} of type string`);
    }
  }
  if (obj.apiVersion !== undefined && obj.apiVersion !== expectApiVersion) {
    throw StatusError.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expectApiVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== expectKind) {
    throw StatusError.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${expectKind})`);
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) {
    throw StatusError.badRequest(`metadata: Invalid value: ${JSON.stringify(obj.metadata)}: must be an object`);
  }
  checkFields(h, ctx, obj, mask);
  return obj;
}

/** fieldValidation=Strict|Warn|Ignore against the OpenAPI schema (kubectl sends Strict by default). */
export function checkFields(h: ResourceHandler, ctx: RequestContext, obj: KubeObject, mask?: PatchMask): void {
  const mode = first(ctx.req.query?.fieldValidation) ?? 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(mode)) {
    throw StatusError.badRequest(`fieldValidation: Unsupported value: "${mode}": supported values: "Ignore", "Strict", "Warn"`);
  }
  if (!h.cfg.openapi?.unknownFields) return;
  // Warn and Ignore decode as Go does into the typed object: fields the type lacks are dropped (Warn says which).
  const unknown = h.cfg.openapi.unknownFields(ctx.decl, obj, mode !== 'Strict', mask);
  if (!unknown.length) return;
  if (mode === 'Strict') {
    throw StatusError.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  }
  if (mode === 'Warn') ctx.headers.Warning = unknown.map((f) => warningValue(`unknown field "${f}"`)).join(', ');
}
