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

/** Decodes a request body by content type: JSON or YAML. Bad syntax is a 400 like kube-apiserver's decoder. */
export function decodeBody(raw: Buffer | string | unknown, contentType: string | undefined): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return raw; // in-process: already an object
  if (Buffer.isBuffer(raw) && raw.length > 0 && (contentType ?? '').split(';')[0].trim().toLowerCase() === KUBE_PROTOBUF_CONTENT_TYPE) return decodeKubeProtobuf(raw).object;
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  const base = (contentType ?? 'application/json').split(';')[0].trim().toLowerCase();
  if (base === 'application/yaml' || base === 'application/apply-patch+yaml') {
    try {
      return parseYaml(text, { maxAliasCount: 100 });
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

export function patchTypeOf(contentType: string | undefined): 'json' | 'merge' | 'strategic' | 'apply' {
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const t = PATCH_TYPES[base];
  if (!t) throw StatusError.unsupportedMediaType(base);
  return t;
}
