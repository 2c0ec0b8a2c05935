// The `continue` token of a paged list: the list's revision and the key to start after, as kube-apiserver's
// storage encodes it (base64 of {"v":"meta.k8s.io/v1","rv":…,"start":…}).

import { StatusError } from '../api/errors.js';

export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.rv, start: t.start })).toString('base64url');
}

export function decodeContinue(s: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as { rv?: unknown; start?: unknown };
    if (typeof t.rv === 'number' && typeof t.start === 'string') return { rv: t.rv, start: t.start };
  } catch {
    // fall through
  }
  throw StatusError.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}
