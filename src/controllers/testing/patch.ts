// Minimal JSON patch (RFC 6902) and JSON merge patch (RFC 7386) for the fake client; the real server has its own.

import { StatusError } from '../../api/errors.js';

type Json = unknown;
interface Op { op: string; path: string; value?: Json; from?: string }

function pointer(path: string): string[] {
  if (path === '') return [];
  return path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function container(doc: Json, parts: string[]): { parent: Record<string, Json> | Json[]; key: string } {
  let cur = doc as Record<string, Json>;
  for (const p of parts.slice(0, -1)) {
    const next = Array.isArray(cur) ? cur[Number(p)] : cur[p];
    if (next === undefined || next === null || typeof next !== 'object') throw StatusError.invalid('', 'Patch', '', []);
    cur = next as Record<string, Json>;
  }
  return { parent: cur, key: parts[parts.length - 1] };
}

export function applyJsonPatch(doc: Json, ops: Op[]): Json {
  const out = structuredClone(doc);
  for (const o of ops) {
    const parts = pointer(o.path);
    const { parent, key } = container(out, parts);
    const arr = Array.isArray(parent) ? parent : undefined;
    const obj = parent as Record<string, Json>;
    switch (o.op) {
      case 'test': {
        const cur = arr ? arr[Number(key)] : obj[key];
        if (JSON.stringify(cur) !== JSON.stringify(o.value)) {
          throw new StatusError(422, 'Invalid', `the server rejected our request due to an error in our request: testing value ${o.path} failed`);
        }
        break;
      }
      case 'add':
        if (arr) arr.splice(key === '-' ? arr.length : Number(key), 0, structuredClone(o.value));
        else obj[key] = structuredClone(o.value);
        break;
      case 'replace':
        if (arr) arr[Number(key)] = structuredClone(o.value);
        else {
          if (!(key in obj)) throw new StatusError(422, 'Invalid', `replace operation does not apply: doc is missing key: ${o.path}`);
          obj[key] = structuredClone(o.value);
        }
        break;
      case 'remove':
        if (arr) arr.splice(Number(key), 1);
        else {
          if (!(key in obj)) throw new StatusError(422, 'Invalid', `remove operation does not apply: doc is missing path: ${o.path}`);
          delete obj[key];
        }
        break;
      default:
        throw StatusError.badRequest(`unsupported JSON patch op ${o.op}`);
    }
  }
  return out;
}

export function applyMergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, Json> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, Json>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, Json>)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}
