// Discovery documents derived from the registry: legacy (/api, /apis, per group-version) and aggregated
// (apidiscovery.k8s.io v2 and v2beta1), plus /version.

import type { ResourceDecl } from '../api/interfaces.js';
import type { Registry } from '../api/registry.js';
import type { AggregatedApi } from './interfaces.js';

export const DEFAULT_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface SubresourceInfo {
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
}

/** Kinds and verbs of the special subresources (what kube-apiserver advertises for them). */
const EXTRA_SUBRESOURCES: Record<string, (d: ResourceDecl) => SubresourceInfo> = {
  binding: () => ({ kind: 'Binding', verbs: ['create'] }),
  eviction: () => ({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] }),
  log: () => ({ kind: 'Pod', verbs: ['get'] }),
  exec: () => ({ kind: 'PodExecOptions', verbs: ['create', 'get'] }),
  attach: () => ({ kind: 'PodAttachOptions', verbs: ['create', 'get'] }),
  portforward: () => ({ kind: 'PodPortForwardOptions', verbs: ['create', 'get'] }),
  proxy: (d) => ({ kind: d.kind === 'Node' ? 'NodeProxyOptions' : d.kind === 'Pod' ? 'PodProxyOptions' : 'ServiceProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] }),
  finalize: (d) => ({ kind: d.kind, verbs: ['update'] }),
  ephemeralcontainers: (d) => ({ kind: d.kind, verbs: ['get', 'patch', 'update'] }),
  token: () => ({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }),
};

function subresourcesOf(d: ResourceDecl): [string, SubresourceInfo][] {
  const out: [string, SubresourceInfo][] = [];
  if (d.subresources?.status) out.push(['status', { kind: d.kind, verbs: ['get', 'patch', 'update'] }]);
  if (d.subresources?.scale) out.push(['scale', { group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] }]);
  for (const name of d.subresources?.extra ?? []) {
    const info = EXTRA_SUBRESOURCES[name];
    if (info) out.push([name, info(d)]);
  }
  return out;
}

export function apiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

/** Orders groups for discovery: by rank (APIService priority, higher first), unranked ones after, stable otherwise. */
export type GroupRank = (group: string) => number | undefined;

/** The named groups: the registry's, then the aggregated APIs' (kube-aggregator lists APIService groups after). */
function namedGroups(registry: Registry, aggregated: readonly AggregatedApi[], rank?: GroupRank): { name: string; versions: string[] }[] {
  const out = registry.groups().map((g) => ({ name: g.name, versions: [...g.versions] }));
  for (const a of aggregated) {
    const g = out.find((x) => x.name === a.group);
    if (!g) out.push({ name: a.group, versions: [a.version] });
    else if (!g.versions.includes(a.version)) g.versions.push(a.version);
  }
  return rank ? ranked(out, (g) => g.name, rank) : out;
}

/** Stable sort by rank descending; unranked items keep their order after the ranked ones. */
function ranked<T>(items: T[], name: (t: T) => string, rank: GroupRank): T[] {
  const r = (t: T) => rank(name(t)) ?? -Infinity;
  return items.map((t, i) => ({ t, i })).sort((a, b) => (r(b.t) - r(a.t)) || a.i - b.i).map((x) => x.t);
}

/** The APIGroup document of /apis/<group>, or undefined when no one serves the group. */
export function apiGroup(registry: Registry, aggregated: readonly AggregatedApi[], name: string): object | undefined {
  const g = namedGroups(registry, aggregated).find((x) => x.name === name);
  if (!g) return undefined;
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: g.name, versions, preferredVersion: versions[0] };
}

export function apiGroupList(registry: Registry, aggregated: readonly AggregatedApi[] = [], rank?: GroupRank): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: namedGroups(registry, aggregated, rank).map((g) => {
      const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
      return { name: g.name, versions, preferredVersion: versions[0] };
    }),
  };
}

/** /apis/<group>/<version> of an aggregated API. */
export function aggregatedResourceList(api: AggregatedApi): object {
  return {
    kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${api.group}/${api.version}`,
    resources: api.resources.map((r) => ({ name: r.plural, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs })),
  };
}

export function apiResourceList(registry: Registry, group: string, version: string): object {
  const resources: object[] = [];
  for (const d of registry.resourcesOf(group, version)) {
    const main: Record<string, unknown> = {
      name: d.plural, singularName: d.singular, namespaced: d.namespaced, kind: d.kind, verbs: d.verbs ?? DEFAULT_VERBS,
    };
    if (d.shortNames?.length) main.shortNames = d.shortNames;
    if (d.categories?.length) main.categories = d.categories;
    resources.push(main);
    for (const [sub, info] of subresourcesOf(d)) {
      const r: Record<string, unknown> = { name: `${d.plural}/${sub}`, singularName: d.singular, namespaced: d.namespaced };
      if (info.group !== undefined) {
        r.group = info.group;
        r.version = info.version;
      }
      r.kind = info.kind;
      r.verbs = info.verbs;
      resources.push(r);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

/** Aggregated discovery for the core group (/api) or all named groups (/apis), aggregated APIs' groups last. */
export function aggregatedDiscovery(registry: Registry, core: boolean, version: 'v2' | 'v2beta1', aggregated: readonly AggregatedApi[] = [], rank?: GroupRank): object {
  const groups = core ? [{ name: '', versions: ['v1'] }] : registry.groups();
  // One item per group; an aggregated group's versions come in the order the APIs are given (preferred first).
  const extra: { metadata: { name: string; creationTimestamp: null }; versions: object[] }[] = [];
  for (const a of core ? [] : aggregated) {
    let item = extra.find((x) => x.metadata.name === a.group);
    if (!item) extra.push((item = { metadata: { name: a.group, creationTimestamp: null }, versions: [] }));
    item.versions.push({
      version: a.version,
      freshness: a.freshness ?? 'Current',
      resources: a.resources.map((r) => r.v2 ?? ({
        resource: r.plural,
        responseKind: { group: a.group, version: a.version, kind: r.kind },
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singular,
        verbs: r.verbs,
      })),
    });
  }
  const items = [...registryItems(registry, groups), ...extra];
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: rank ? ranked(items, (i) => i.metadata.name, rank) : items,
  };
}

/** The registry's groups as aggregated-discovery items. */
function registryItems(registry: Registry, groups: { name: string; versions: string[] }[]): { metadata: { name: string; creationTimestamp: null }; versions: object[] }[] {
  return groups.map((g) => ({
    metadata: { name: g.name, creationTimestamp: null },
    versions: g.versions.map((v) => ({
      version: v,
      freshness: 'Current',
      resources: registry.resourcesOf(g.name, v).map((d) => {
        const r: Record<string, unknown> = {
          resource: d.plural,
          responseKind: { group: d.group, version: d.version, kind: d.kind },
          scope: d.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: d.singular,
          verbs: d.verbs ?? DEFAULT_VERBS,
        };
        if (d.shortNames?.length) r.shortNames = d.shortNames;
        if (d.categories?.length) r.categories = d.categories;
        const subs = subresourcesOf(d);
        if (subs.length) {
          r.subresources = subs.map(([sub, info]) => ({
            subresource: sub,
            responseKind: { group: info.group ?? d.group, version: info.version ?? d.version, kind: info.kind },
            verbs: info.verbs,
          }));
        }
        return r;
      }),
    })),
  }));
}

export const DISCOVERY_CONTENT_TYPES = {
  v2: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  v2beta1: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
} as const;
