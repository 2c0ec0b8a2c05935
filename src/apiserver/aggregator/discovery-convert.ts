// An extension server's discovery in the shape aggregated discovery merges: its APIVersionDiscovery from /apis (v2 or
// v2beta1), or its legacy APIResourceList converted as apiserver's endpoints.ConvertGroupVersionIntoToDiscovery does
// (subresources folded into their parent; resources without a kind lose their responseKind).

export interface V2Resource {
  resource: string;
  responseKind?: { group: string; version: string; kind: string };
  scope: 'Namespaced' | 'Cluster';
  singularResource?: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind?: { group: string; version: string; kind: string }; verbs: string[] }[];
}

interface LegacyResource {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  group?: string;
  version?: string;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

/** The resources of `group/version` in an APIGroupDiscoveryList, or undefined when the list does not carry it. */
export function fromAggregated(list: unknown, group: string, version: string): V2Resource[] | undefined {
  const items = (list as { items?: { metadata?: { name?: string }; versions?: { version?: string; resources?: V2Resource[] }[] }[] } | undefined)?.items ?? [];
  const v = items.find((i) => (i.metadata?.name ?? '') === group)?.versions?.find((x) => x.version === version);
  return v ? v.resources ?? [] : undefined;
}

export function fromLegacy(list: unknown, group: string, version: string): V2Resource[] {
  const resources = ((list as { resources?: LegacyResource[] } | undefined)?.resources ?? []);
  const out = new Map<string, V2Resource>();
  const kindOf = (r: LegacyResource) => (r.kind ? { group: r.group ?? group, version: r.version ?? version, kind: r.kind } : undefined);
  for (const r of resources.filter((x) => !x.name.includes('/'))) {
    const v: V2Resource = { resource: r.name, responseKind: kindOf(r), scope: r.namespaced ? 'Namespaced' : 'Cluster', singularResource: r.singularName ?? '', verbs: r.verbs ?? [] };
    if (r.shortNames?.length) v.shortNames = r.shortNames;
    if (r.categories?.length) v.categories = r.categories;
    out.set(r.name, v);
  }
  for (const r of resources.filter((x) => x.name.includes('/'))) {
    const [parent, sub] = r.name.split('/', 2);
    const p = out.get(parent);
    if (!p) continue;
    (p.subresources ??= []).push({ subresource: sub, responseKind: kindOf(r), verbs: r.verbs ?? [] });
  }
  return [...out.values()];
}
