// RFC 6901 JSON Pointer parsing, used by JSON patch paths (`/a/b~1c/0`, `~0` = `~`, `~1` = `/`).

/** Splits a pointer into unescaped reference tokens; `''` is the whole document. Returns undefined if malformed. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    // `~` must be followed by 0 or 1 (RFC 6901 §3); `~1` is unescaped before `~0` so `~01` means `~1`.
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return tokens;
}

/**
 * Parses an array index token. `-` (one past the end) is allowed only where `allowEnd` is set (add);
 * negative indices count from the end, as evanphx/json-patch v4 (used by kube-apiserver) accepts.
 */
export function arrayIndex(token: string, length: number, allowEnd: boolean): number | undefined {
  if (token === '-') return allowEnd ? length : undefined;
  if (!/^-?\d+$/.test(token)) return undefined;
  let i = Number(token);
  if (i < 0) {
    if (i < -length) return undefined;
    i += length;
  }
  const max = allowEnd ? length : length - 1;
  return i <= max ? i : undefined;
}
