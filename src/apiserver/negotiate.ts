// Content negotiation: what the client accepts (JSON, Table, aggregated discovery) and how its body is decoded.

import { parse as parseYaml } from 'yaml';
import { StatusError } from '../api/errors.js';
import { decodeKubeProtobuf, KUBE_PROTOBUF_CONTENT_TYPE } from './protobuf/decode.js';

export interface MediaType {
  type: string;
  params: Record<string, string>;
}

/** Parses an Accept header into media types in the client's order (params like as=Table;v=v1;g=meta.k8s.io). */
export function parseAccept(accept: string | undefined): MediaType[] {
  if (!accept) return [{ type: '*/*', params: {} }];
  return accept.split(',').map((part) => {
    const [type, ...ps] = part.trim().split(';');
    const params: Record<string, string> = {};
    for (const p of ps) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    return { type: type.trim().toLowerCase(), params };
  }).filter((m) => m.type);
}

function isJson(m: MediaType): boolean {
  return m.type === 'application/json' || m.type === '*/*' || m.type === 'application/*';
}

/** The first acceptable rendering of a resource response: 'table' | 'json'; or undefined if none fits. */
export function chooseRendering(accept: string | undefined): { kind: 'table' | 'json'; tableVersion?: string } | undefined {
  for (const m of parseAccept(accept)) {
    if (m.params.as === 'Table' && m.params.g === 'meta.k8s.io' && (m.params.v === 'v1' || m.params.v === 'v1beta1')) {
      if (m.type === 'application/json') return { kind: 'table', tableVersion: m.params.v };
      continue;
    }
    if (m.params.as) continue; // PartialObjectMetadata and friends: not offered (clients fall back to plain JSON)
    if (isJson(m) || m.type === 'application/yaml') return { kind: 'json' };
  }
  return undefined;
}

/** Which discovery document form the client asked for (apiserver aggregated/wrapper.go). */
export function chooseDiscovery(accept: string | undefined): 'v2' | 'v2beta1' | 'legacy' | undefined {
  for (const m of parseAccept(accept)) {
    if (m.type === 'application/json' && m.params.g === 'apidiscovery.k8s.io' && m.params.as === 'APIGroupDiscoveryList') {
      if (m.params.v === 'v2') return 'v2';
      if (m.params.v === 'v2beta1') return 'v2beta1';
      continue;
    }
    if (m.params.as) continue;
    if (isJson(m)) return 'legacy';
  }
  return undefined;
}

/** Media types an object body may come in (a patch names its patch type instead). */
const BODY_TYPES = ['application/json', 'application/yaml', KUBE_PROTOBUF_CONTENT_TYPE];

/**
 * Decodes a request body by content type: JSON or YAML. Bad syntax is a 400 like kube-apiserver's decoder; an object
 * body (not a patch) in another media type is a 415; a body too deep or holding a `__proto__` key is a 400.
 */
export function decodeBody(raw: Buffer | string | unknown, contentType: string | undefined, patch = false): unknown {
  return checkShape(parseBody(raw, contentType, patch));
}

/**
 * Deepest nesting a body may have. Go's decoder stops at 10000 levels ("exceeded max depth"); winkube's recursive JSON
 * handling (and V8's JSON.stringify, at about 4000) cannot go that deep, so bodies are refused earlier, with Go's words.
 */
export const MAX_BODY_DEPTH = 1000;

/**
 * Refuses bodies nested deeper than MAX_BODY_DEPTH, and keys named `__proto__`: a JavaScript object cannot hold one
 * as plain data through a copy, so storing it would silently lose or corrupt data. Iterative: the body may be deep.
 */
function checkShape<T>(body: T): T {
  if (body === null || typeof body !== 'object') return body;
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_BODY_DEPTH) {
      throw StatusError.badRequest(`the body of the request was in an unknown format - couldn't get version/kind; json parse error: invalid character '${Array.isArray(v) ? '[' : '{'}' exceeded max depth`);
    }
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
      continue;
    }
    if (Buffer.isBuffer(v) || ArrayBuffer.isView(v)) continue;
    if (Object.prototype.hasOwnProperty.call(v, '__proto__')) {
      throw StatusError.badRequest('the body of the request was in an unknown format - the key "__proto__" is not supported');
    }
    for (const k in v as Record<string, unknown>) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
    }
  }
  return body;
}

function parseBody(raw: Buffer | string | unknown, contentType: string | undefined, patch: boolean): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return raw; // in-process: already an object
  const mediaType = mediaTypeOf(contentType);
  if (Buffer.isBuffer(raw) && raw.length > 0 && mediaType === KUBE_PROTOBUF_CONTENT_TYPE) return decodeKubeProtobuf(raw).object;
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  if (!patch && mediaType && !BODY_TYPES.includes(mediaType)) {
    // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation NegotiateInputSerializer (errors.go NewUnsupportedMediaTypeError).
    throw new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${BODY_TYPES.join(', ')}`);
  }
  const base = mediaType || 'application/json';
  if (base === 'application/yaml' || base === 'application/apply-patch+yaml') {
    try {
      // JSON-compatible values only (as sigs.k8s.io/yaml converts YAML to JSON): no Buffer for !!binary, no Set,
      // Map or Date for !!set, !!omap or !!timestamp.
      return parseYaml(text, { maxAliasCount: 100, logLevel: 'error', resolveKnownTags: false });
    } catch (err) {
      throw StatusError.badRequest(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw StatusError.badRequest(`the body of the request was in an unknown format - ${describeJsonError(err as Error, text)}`);
  }
}

/**
 * A decoded body as the object a typed decoder fills: empty is a 400, JSON null decodes to an empty object, and any
 * other non-object is kube's "unrecognized" 400 (apiserver handlers/rest.go transformDecodeError without a kind).
 */
export function decodeObjectBody(body: unknown, kind: string): Record<string, unknown> {
  if (body === undefined) throw StatusError.badRequest('the body of the request was empty');
  if (body === null) return {};
  if (typeof body === 'object' && !Array.isArray(body) && !ArrayBuffer.isView(body)) return body as Record<string, unknown>;
  const got = Array.isArray(body) || ArrayBuffer.isView(body) ? 'array' : typeof body === 'boolean' ? 'bool' : typeof body;
  throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${got} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
}

function describeJsonError(err: Error, text: string): string {
  const m = /position (\d+)/.exec(err.message);
  const offset = m ? Number(m[1]) : text.length;
  return `couldn't get version/kind; json parse error: invalid character or unexpected end of JSON input at offset ${offset}`;
}

export const PATCH_TYPES: Record<string, 'json' | 'merge' | 'strategic' | 'apply'> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** A Content-Type's media type, lower-cased, without parameters ('' when absent). */
function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function patchTypeOf(contentType: string | undefined): 'json' | 'merge' | 'strategic' | 'apply' {
  const base = mediaTypeOf(contentType);
  const t = PATCH_TYPES[base];
  if (!t) throw StatusError.unsupportedMediaType(base);
  return t;
}
