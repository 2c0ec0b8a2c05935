// RFC 6902 JSON patch (`application/json-patch+json`) with kube-apiserver's operation limit and error statuses
// (apiserver pkg/endpoints/handlers/patch.go `applyJSPatch`, evanphx/json-patch v4 semantics).

import { StatusError } from '../../api/errors.js';
import { arrayIndex, parsePointer } from './json-pointer.js';
import { cloneJson, isObject, jsonEqual, type JsonObject } from './json-value.js';

/** kube-apiserver rejects patches with more operations than this (handlers/patch.go maxJSONPatchOperations). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** Message kube-apiserver returns when a decoded JSON patch fails to apply (a 422 built by NewGenericServerResponse). */
export const JSON_PATCH_APPLY_FAILED = 'the server rejected our request due to an error in our request';

export interface JsonPatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/**
 * Applies `ops` to a copy of `doc`. Malformed patch documents give 400, too many operations 413, and operations
 * that do not apply (missing path, failed `test`, bad index) 422 — with the apiserver's generic wording; the
 * specific reason is kept in `error.cause` for logs.
 */
export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  const list = decodeOperations(ops);
  if (list.length > MAX_JSON_PATCH_OPERATIONS) {
    throw StatusError.requestEntityTooLarge(
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${list.length}`);
  }
  let result = cloneJson(doc);
  for (const op of list) {
    try {
      result = applyOne(result, op);
    } catch (e) {
      if (!(e instanceof PatchFailure)) throw e;
      const err = new StatusError(422, 'Invalid', JSON_PATCH_APPLY_FAILED, {});
      err.cause = e.message;
      throw err;
    }
  }
  return result;
}

/** Checks the document shape the way DecodePatch does: a JSON array of objects. */
function decodeOperations(ops: unknown): JsonObject[] {
  if (!Array.isArray(ops)) {
    throw StatusError.badRequest(`json: cannot unmarshal ${jsonTypeWord(ops)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of ops) {
    if (!isObject(op)) {
      throw StatusError.badRequest(`json: cannot unmarshal ${jsonTypeWord(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  return ops as JsonObject[];
}

function jsonTypeWord(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

class PatchFailure extends Error {}

function applyOne(doc: unknown, op: JsonObject): unknown {
  const kind = op.op;
  const path = stringField(op, 'path');
  switch (kind) {
    case 'add': return add(doc, path, cloneJson(valueField(op)));
    case 'remove': return remove(doc, path).doc;
    case 'replace': {
      const value = cloneJson(valueField(op));
      const { doc: without } = remove(doc, path, 'replace');
      return add(without, path, value);
    }
    case 'move': {
      const from = stringField(op, 'from');
      if (path !== from && path.startsWith(`${from}/`)) throw new PatchFailure(`move operation can not move a path into its own child: ${from} -> ${path}`);
      const { doc: without, value } = remove(doc, from, 'move');
      return add(without, path, value);
    }
    case 'copy': {
      const from = stringField(op, 'from');
      return add(doc, path, cloneJson(get(doc, from, 'copy')));
    }
    case 'test': {
      const actual = get(doc, path, 'test', true);
      if (!jsonEqual(actual, valueField(op))) throw new PatchFailure(`testing value ${path} failed: test failed`);
      return doc;
    }
    default:
      throw new PatchFailure(`Unexpected kind: ${String(kind)}`);
  }
}

function stringField(op: JsonObject, name: 'path' | 'from'): string {
  const v = op[name];
  if (typeof v !== 'string') throw new PatchFailure(`operation missing ${name} field`);
  return v;
}

function valueField(op: JsonObject): unknown {
  if (!Object.hasOwn(op, 'value')) throw new PatchFailure(`operation ${String(op.op)} missing value`);
  return op.value;
}

function tokensOf(path: string, opName: string): string[] {
  const tokens = parsePointer(path);
  if (!tokens) throw new PatchFailure(`${opName} operation: invalid JSON pointer ${JSON.stringify(path)}`);
  return tokens;
}

/** Walks to the container holding the last token; the root itself has no parent. */
function parentOf(doc: unknown, tokens: string[], path: string, opName: string): unknown {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) {
      const i = arrayIndex(t, cur.length, false);
      if (i === undefined) throw new PatchFailure(`${opName} operation does not apply: doc is missing path: ${path}`);
      cur = cur[i];
    } else if (isObject(cur) && Object.hasOwn(cur, t)) {
      cur = cur[t];
    } else {
      throw new PatchFailure(`${opName} operation does not apply: doc is missing path: ${path}`);
    }
  }
  return cur;
}

function get(doc: unknown, path: string, opName: string, missingIsUndefined = false): unknown {
  const tokens = tokensOf(path, opName);
  if (tokens.length === 0) return doc;
  const parent = parentOf(doc, tokens, path, opName);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = arrayIndex(last, parent.length, false);
    if (i !== undefined) return parent[i];
  } else if (isObject(parent) && Object.hasOwn(parent, last)) {
    return parent[last];
  }
  if (missingIsUndefined) return undefined;
  throw new PatchFailure(`${opName} operation does not apply: doc is missing path: ${path}`);
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = tokensOf(path, 'add');
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, path, 'add');
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = arrayIndex(last, parent.length, true);
    if (i === undefined) throw new PatchFailure(`add operation does not apply: invalid index referenced: ${path}`);
    parent.splice(i, 0, value);
  } else if (isObject(parent)) {
    parent[last] = value;
  } else {
    throw new PatchFailure(`add operation does not apply: doc is missing path: ${path}`);
  }
  return doc;
}

function remove(doc: unknown, path: string, opName = 'remove'): { doc: unknown; value: unknown } {
  const tokens = tokensOf(path, opName);
  if (tokens.length === 0) return { doc: null, value: doc };
  const parent = parentOf(doc, tokens, path, opName);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = arrayIndex(last, parent.length, false);
    if (i === undefined) throw new PatchFailure(`${opName} operation does not apply: invalid index referenced: ${path}`);
    const [value] = parent.splice(i, 1);
    return { doc, value };
  }
  if (isObject(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last];
    delete parent[last];
    return { doc, value };
  }
  throw new PatchFailure(`${opName} operation does not apply: doc is missing key: ${path}`);
}
