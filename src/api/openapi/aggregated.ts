// OpenAPI v3 for the groups served beside the registry (the authorization/authentication reviews, metrics.k8s.io):
// kube-apiserver lists them in /openapi/v3 too (kube-aggregator pkg/controllers/openapiv3 merges every APIService's
// document), and `kubectl explain` finds a kind only through the document of its group version.

import type { OpenApi } from './index.js';
import { documentHash } from './v3.js';
import { definitionClosure, getComponentSchemas, SCHEMA_REF_PREFIX, type Schema } from './schemas.js';
import { METRICS_SCHEMAS } from './metrics-schemas.js';

/** A group version another component answers (structurally the API server's AggregatedApi). */
export interface ServedGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly { plural: string; kind: string; namespaced: boolean; verbs: readonly string[] }[];
}

const ref = (name: string) => ({ $ref: SCHEMA_REF_PREFIX + name });
const MEDIA = ['application/json', 'application/yaml'];
const body = (name: string) => ({ content: Object.fromEntries(MEDIA.map((t) => [t, { schema: ref(name) }])) });

/** Every known schema: the generated built-ins plus the Metrics API's (metrics-server publishes those itself). */
function allSchemas(): Record<string, Schema> {
  return { ...getComponentSchemas(), ...METRICS_SCHEMAS };
}

/** The definition whose x-kubernetes-group-version-kind names this kind, as kube-openapi tags every top-level type. */
function definitionOf(schemas: Record<string, Schema>, group: string, version: string, kind: string): string | undefined {
  for (const [name, s] of Object.entries(schemas)) {
    const gvks = s['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined;
    if (gvks?.some((g) => g.group === group && g.version === version && g.kind === kind)) return name;
  }
  return undefined;
}

/** One group version's document: a create (POST) or read (GET) path per resource and the schemas they reach. */
export function servedDocument(api: ServedGroupVersion): Schema | undefined {
  const schemas = allSchemas();
  const paths: Record<string, Schema> = {};
  const roots: string[] = [];
  for (const r of api.resources) {
    const def = definitionOf(schemas, api.group, api.version, r.kind);
    if (!def) continue;
    roots.push(def);
    const gvk = { group: api.group, version: api.version, kind: r.kind };
    const base = `/apis/${api.group}/${api.version}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.plural}`;
    const op = (action: string, extra: Schema) => ({ tags: [`${api.group.split('.')[0]}_${api.version}`], 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk, ...extra });
    if (r.verbs.includes('create')) {
      paths[base] = { post: op('post', { requestBody: body(def), responses: { 201: { description: 'Created', ...body(def) }, 401: { description: 'Unauthorized' } } }) };
    }
    if (r.verbs.includes('get')) {
      paths[`${base}/{name}`] = { get: op('get', { responses: { 200: { description: 'OK', ...body(def) }, 401: { description: 'Unauthorized' } } }) };
    }
    if (r.verbs.includes('list')) {
      const list = schemas[`${def}List`] ? `${def}List` : def;
      roots.push(list);
      paths[base] = { ...(paths[base] ?? {}), get: op('list', { responses: { 200: { description: 'OK', ...body(list) }, 401: { description: 'Unauthorized' } } }) };
    }
  }
  if (!roots.length) return undefined;
  const names = definitionClosure(roots, schemas);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    components: {
      schemas: Object.fromEntries(names.map((n) => [n, schemas[n]])),
      securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } },
    },
    security: [{ BearerToken: [] }],
  };
}

/** The registry's OpenAPI with the served group versions added to /openapi/v3 (documents built once each). */
export function withServedGroupVersions<T extends OpenApi>(base: T, apis: readonly ServedGroupVersion[]): T {
  const docs = new Map<string, Schema | undefined>();
  const extra = (gv: string): Schema | undefined => {
    if (!docs.has(gv)) {
      const api = apis.find((a) => `apis/${a.group}/${a.version}` === gv);
      docs.set(gv, api ? servedDocument(api) : undefined);
    }
    return docs.get(gv);
  };
  return {
    ...base,
    v3Discovery: () => {
      const d = base.v3Discovery() as { paths: Record<string, Schema> };
      const paths = { ...d.paths };
      for (const a of apis) {
        const gv = `apis/${a.group}/${a.version}`;
        const doc = paths[gv] ? undefined : extra(gv);
        if (doc) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${documentHash(doc)}` };
      }
      return { ...d, paths };
    },
    v3: (gv) => base.v3(gv) ?? extra(gv),
  };
}
