// What the policy type checker resolves through the API, as kube-controller-manager wires it
// (cmd/kube-controller-manager/app/validatingadmissionpolicystatus.go): kinds from discovery (a RESTMapper),
// built-in schemas from the compiled-in OpenAPI definitions, other kinds (custom resources, aggregated APIs) from the
// server's OpenAPI v3 document for their group/version (resolver.DefinitionsSchemaResolver combined with
// ClientDiscoveryResolver).

import type { RefLookup } from '../../api/cel/openapi-decl-types.js';
import { getComponentSchemas, SCHEMA_REF_PREFIX } from '../../api/openapi/schemas.js';
import type { Gvk, ResolvedSchema, TypeResolver } from '../../apiserver/admission/policy/type-checking.js';
import { checkResponse } from '../../client/client.js';
import type { Client } from '../../client/interfaces.js';

type Schema = Record<string, unknown>;

const gvPath = (group: string, version: string) => (group ? `/apis/${group}/${version}` : `/api/${version}`);

const hasGvk = (s: Schema, gvk: Gvk): boolean => ((s['x-kubernetes-group-version-kind'] as Gvk[] | undefined) ?? [])
  .some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind);

/** The named schema that declares `gvk`, with refs looked up in the same set. */
function findIn(schemas: Record<string, Schema>, gvk: Gvk): ResolvedSchema | undefined {
  const schema = Object.values(schemas).find((s) => hasGvk(s, gvk));
  if (!schema) return undefined;
  const lookup: RefLookup = (ref) => (ref.startsWith(SCHEMA_REF_PREFIX) ? schemas[ref.slice(SCHEMA_REF_PREFIX.length)] : undefined);
  return { schema, lookup };
}

/** A resolver for one reconcile; answers are cached for its lifetime only, so a new CRD version is seen next time. */
export function clientTypeResolver(client: Client): TypeResolver {
  const discovery = new Map<string, Promise<{ name: string; kind: string }[]>>();
  const documents = new Map<string, Promise<Record<string, Schema>>>();
  const get = async (path: string): Promise<unknown> => {
    const res = await client.transport.request({ method: 'GET', path, accept: 'application/json' });
    if (res.status === 404) return undefined;
    const body = checkResponse(res);
    return typeof body === 'string' ? JSON.parse(body) as unknown : Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) as unknown : body;
  };
  return {
    async kindsFor(group, version, resource) {
      const path = gvPath(group, version);
      let list = discovery.get(path);
      if (!list) {
        list = get(path).then((b) => ((b as { resources?: { name: string; kind: string }[] } | undefined)?.resources ?? []), () => []);
        discovery.set(path, list);
      }
      const found = (await list).find((r) => r.name === resource);
      return found ? [{ group, version, kind: found.kind }] : [];
    },
    async schemaFor(gvk) {
      const builtin = findIn(getComponentSchemas(), gvk);
      if (builtin) return builtin;
      const path = `/openapi/v3${gvPath(gvk.group, gvk.version)}`;
      let doc = documents.get(path);
      if (!doc) {
        doc = get(path).then((b) => ((b as { components?: { schemas?: Record<string, Schema> } } | undefined)?.components?.schemas ?? {}));
        documents.set(path, doc);
      }
      return findIn(await doc, gvk);
    },
  };
}
