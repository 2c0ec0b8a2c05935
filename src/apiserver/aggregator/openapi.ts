// Aggregated OpenAPI (kube-aggregator pkg/controllers/openapi and openapiv3): each Available service-backed
// APIService's backend is asked for its /openapi/v2 and the /openapi/v3 group versions it lists; /openapi/v2 then
// merges their paths and definitions into the server's own (its own paths win; clashing definition names are renamed), and /openapi/v3 lists the
// backends' group versions beside the server's, each document served as the backend gave it (or converted from
// its v2 document when it has no /openapi/v3).

import { encodeGnosticDocument } from '../../api/openapi/gnostic-v2.js';
import { documentHash } from '../../api/openapi/v3.js';
import { convertV2ToV3 } from './openapi-v2-to-v3.js';
import { mergeSpec } from './openapi-merge.js';
import type { Schema } from '../../api/openapi/schemas.js';
import type { AdmissionLookup } from '../admission/interfaces.js';
import type { OpenApiProvider } from '../interfaces.js';
import { authProxyHeaders, requestBackend, type Backend } from './remote-api.js';

/** What one backend published. */
export interface BackendSpecs {
  /** Its Swagger 2.0 document, when it serves one. */
  v2?: Schema;
  /** Its /openapi/v3 entries by group version path (`apis/<g>/<v>`), each with the document fetched. */
  v3: Map<string, { serverRelativeURL: string; doc: Schema }>;
}

/** kube-aggregator downloads specs as this user (openapiv3/aggregator aggregatorUser). */
const AGGREGATOR_USER = { name: 'system:aggregator', groups: [] };
const TIMEOUT_MS = 60_000;

async function getJson(b: Backend, lookup: AdmissionLookup, path: string): Promise<{ status: number; body?: Schema }> {
  const res = await requestBackend(b, { lookup }, { method: 'GET', path, timeoutMs: TIMEOUT_MS, headers: { ...authProxyHeaders(AGGREGATOR_USER), Accept: 'application/json' } });
  if (res.status !== 200) return { status: res.status };
  return { status: 200, body: JSON.parse(res.body.toString()) as Schema };
}

/**
 * Downloads a backend's specs. A backend without /openapi/v3 (404) is a legacy one: its whole v2 document, converted
 * to v3, is served as its APIService's group version (openapiv3/aggregator updateAPIServiceSpecLocked). Throws when
 * the backend cannot be asked at all.
 */
export async function fetchBackendSpecs(b: Backend, lookup: AdmissionLookup): Promise<BackendSpecs> {
  const v2 = await getJson(b, lookup, '/openapi/v2');
  const out: BackendSpecs = { v2: v2.body, v3: new Map() };
  const root = await getJson(b, lookup, '/openapi/v3');
  const { group, version } = b.service.spec ?? {};
  if (root.status === 404 && v2.body && (group || version)) {
    const gv = `apis/${group ?? ''}/${version ?? ''}`;
    const doc = convertV2ToV3(v2.body as Record<string, unknown>) as Schema;
    out.v3.set(gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${documentHash(doc)}`, doc });
    return out;
  }
  const paths = (root.body?.paths ?? {}) as Record<string, { serverRelativeURL?: string }>;
  for (const [gv, entry] of Object.entries(paths)) {
    const url = entry.serverRelativeURL ?? `/openapi/v3/${gv}`;
    const doc = await getJson(b, lookup, url);
    if (doc.body) out.v3.set(gv, { serverRelativeURL: url, doc: doc.body });
  }
  return out;
}

/** The specs of every backend by APIService name, and a generation that moves whenever they change. */
export class AggregatedSpecs {
  private readonly byService = new Map<string, BackendSpecs>();
  generation = 0;

  set(apiService: string, specs: BackendSpecs): void {
    const before = this.byService.get(apiService);
    if (before && JSON.stringify(serialisable(before)) === JSON.stringify(serialisable(specs))) return;
    this.byService.set(apiService, specs);
    this.generation++;
  }

  delete(apiService: string): void {
    if (this.byService.delete(apiService)) this.generation++;
  }

  /** Backends in APIService name order, so merges are the same every time. */
  list(): BackendSpecs[] {
    return [...this.byService.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
  }
}

function serialisable(s: BackendSpecs): unknown {
  return { v2: s.v2, v3: [...s.v3.entries()] };
}

/**
 * Adds the backends' paths the server does not serve itself, with their definitions and parameters renamed where
 * their names clash with different ones (openapi-merge.ts).
 */
export function mergeV2(base: Schema, backends: readonly BackendSpecs[]): Schema {
  let out = base as Record<string, unknown>;
  for (const b of backends) if (b.v2) out = mergeSpec(out, b.v2 as Record<string, unknown>);
  return out as Schema;
}

/** The server's OpenAPI with the backends' documents merged in, rebuilt only when either side changed. */
export function withAggregatedOpenApi<T extends OpenApiProvider>(base: T, specs: () => AggregatedSpecs | undefined): T {
  let cached: { v2Base: object; generation: number; json: Schema; protobuf?: Buffer } | undefined;
  const merged = () => {
    const s = specs();
    const v2Base = base.v2Json();
    const generation = s?.generation ?? -1;
    if (!cached || cached.v2Base !== v2Base || cached.generation !== generation) {
      cached = { v2Base, generation, json: s ? mergeV2(v2Base as Schema, s.list()) : v2Base as Schema };
    }
    return cached;
  };
  const v3Of = (gv: string): Schema | undefined => {
    for (const b of specs()?.list() ?? []) {
      const e = b.v3.get(gv);
      if (e) return e.doc;
    }
    return undefined;
  };
  return {
    ...base,
    v2Json: () => merged().json,
    v2Protobuf: () => {
      const m = merged();
      if (m.generation === -1 || !specs()?.list().length) return base.v2Protobuf();
      return (m.protobuf ??= encodeGnosticDocument(m.json));
    },
    v3Discovery: () => {
      const d = base.v3Discovery() as { paths?: Record<string, unknown> };
      const paths = { ...(d.paths ?? {}) };
      for (const b of specs()?.list() ?? []) {
        for (const [gv, e] of b.v3) if (!(gv in paths)) paths[gv] = { serverRelativeURL: e.serverRelativeURL };
      }
      return { ...d, paths };
    },
    v3: (gv: string) => base.v3(gv) ?? v3Of(gv),
  };
}
