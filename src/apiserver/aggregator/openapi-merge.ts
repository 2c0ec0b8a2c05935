// Merging a backend's Swagger 2.0 document into the aggregated one as kube-aggregator does
// (kube-openapi pkg/aggregator MergeSpecsIgnorePathConflictRenamingDefinitionsAndParameters): paths already served
// are dropped (with the definitions only they used); a definition or parameter whose name is taken by a different
// one is renamed `<name>_v2`, `_v3`, … (or reuses an equal one already under such a name) and its refs follow.

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEF = '#/definitions/';
const PARAM = '#/parameters/';
const GVK = 'x-kubernetes-group-version-kind';

/** Every `$ref` target with `prefix` reachable from `v`. */
function refsIn(v: unknown, prefix: string, out: Set<string>): void {
  if (Array.isArray(v)) v.forEach((x) => refsIn(x, prefix, out));
  else if (isMap(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith(prefix)) out.add(x.slice(prefix.length));
      else refsIn(x, prefix, out);
    }
  }
}

/** A copy of `v` with `$ref`s renamed. */
function renameRefs(v: unknown, prefix: string, renames: Map<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => renameRefs(x, prefix, renames));
  if (!isMap(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => {
    if (k === '$ref' && typeof x === 'string' && x.startsWith(prefix)) return [k, prefix + (renames.get(x.slice(prefix.length)) ?? x.slice(prefix.length))];
    return [k, renameRefs(x, prefix, renames)];
  }));
}

/** FilterSpecByPaths: the kept paths and the definitions and parameters they reach. */
function filterByPaths(src: Json, keep: string[]): Json {
  const paths = Object.fromEntries(keep.map((p) => [p, (src.paths as Json)[p]]));
  const defs = (src.definitions ?? {}) as Json;
  const used = new Set<string>();
  refsIn(paths, DEF, used);
  const params = new Set<string>();
  refsIn(paths, PARAM, params);
  for (const todo = [...used]; todo.length;) {
    const more = new Set<string>();
    refsIn(defs[todo.pop()!], DEF, more);
    for (const m of more) if (!used.has(m)) { used.add(m); todo.push(m); }
  }
  const pick = (m: unknown, names: Set<string>) => (isMap(m) ? Object.fromEntries(Object.entries(m).filter(([k]) => names.has(k))) : undefined);
  return { ...src, paths, definitions: pick(src.definitions, used), parameters: pick(src.parameters, params) };
}

/** deepEqualDefinitionsModuloGVKs: equal once their group-version-kind lists are left aside. */
function sameDefinition(a: unknown, b: unknown): boolean {
  const strip = (x: unknown) => (isMap(x) ? { ...x, [GVK]: undefined } : x);
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

/** The renames of `src`'s names in `field` that clash with different entries of `dest`. */
function renamesFor(dest: Json, src: Json, same: (a: unknown, b: unknown) => boolean): Map<string, string> {
  const used = new Set(Object.keys(dest));
  const renames = new Map<string, string>();
  for (const [k, v] of Object.entries(src)) {
    if (!(k in dest) || same(dest[k], v)) continue;
    let i = 1;
    let name = '';
    let reused = false;
    for (let found = true; found;) {
      name = `${k}_v${++i}`;
      found = name in dest;
      if (found && same(dest[name], v)) { reused = true; break; }
    }
    if (!reused) {
      while (used.has(name) || name in src) name = `${k}_v${++i}`;
      used.add(name);
    }
    renames.set(k, name);
  }
  return renames;
}

/** Merges `source` into `dest` (both Swagger 2.0 documents); returns the merged document, `dest` left as it is. */
export function mergeSpec(dest: Json, source: Json): Json {
  const srcPaths = isMap(source.paths) ? source.paths : {};
  const destPaths = isMap(dest.paths) ? dest.paths : {};
  const keep = Object.keys(srcPaths).filter((p) => !(p in destPaths));
  if (!keep.length) return dest;
  let src = keep.length < Object.keys(srcPaths).length ? filterByPaths(source, keep) : source;
  const destDefs = (dest.definitions ?? {}) as Json;
  const defRenames = renamesFor(destDefs, (src.definitions ?? {}) as Json, sameDefinition);
  if (defRenames.size) {
    src = renameRefs(src, DEF, defRenames) as Json;
    src.definitions = Object.fromEntries(Object.entries((src.definitions ?? {}) as Json).map(([k, v]) => [defRenames.get(k) ?? k, v]));
  }
  const destParams = (dest.parameters ?? {}) as Json;
  const paramRenames = renamesFor(destParams, (src.parameters ?? {}) as Json, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  if (paramRenames.size) {
    src = renameRefs(src, PARAM, paramRenames) as Json;
    src.parameters = Object.fromEntries(Object.entries((src.parameters ?? {}) as Json).map(([k, v]) => [paramRenames.get(k) ?? k, v]));
  }
  const out: Json = { ...dest, paths: { ...destPaths } };
  for (const p of Object.keys((src.paths ?? {}) as Json)) (out.paths as Json)[p] = (src.paths as Json)[p];
  const defs = { ...destDefs };
  for (const [k, v] of Object.entries((src.definitions ?? {}) as Json)) if (!(k in defs)) defs[k] = v;
  out.definitions = defs;
  if (isMap(src.parameters) && Object.keys(src.parameters).length) {
    const params = { ...destParams };
    for (const [k, v] of Object.entries(src.parameters)) if (!(k in params)) params[k] = v;
    out.parameters = params;
  }
  return out;
}
