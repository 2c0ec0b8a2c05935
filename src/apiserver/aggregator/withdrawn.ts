// Built-in group/versions whose Local APIService was deleted (`kubectl delete apiservice v1.apps`). kube-aggregator
// then drops the group/version from /apis and from aggregated discovery (its apisHandler and discovery manager list
// APIServices, not the registry), while the requests themselves still reach kube-apiserver's handlers through the
// aggregator's delegate, and `/apis/<group>` falls back to kube-apiserver's own answer once no APIService of the group
// is left (kube-aggregator pkg/apiserver/apiserver.go RemoveAPIService, handler_apis.go). The autoregister controller
// re-creates such an `onstart` APIService only when the server starts again (autoregister_controller.go 2B).

import type { ApiService } from '../../api/validation/apiregistration.js';
import { AUTOMANAGED_LABEL, MANAGE_ON_START } from './resources.js';

interface GroupVersionDoc { groupVersion: string; version: string }
interface Group { name: string; versions: GroupVersionDoc[]; preferredVersion?: GroupVersionDoc }
interface DiscoveryItem { metadata: { name: string }; versions: { version: string }[] }

/** Tracks withdrawn group/versions (`group/version`) from the APIService informer's events. */
export class WithdrawnLocalApis {
  private readonly gvs = new Set<string>();

  private static gv(s: ApiService): string | undefined {
    // The core group's /api is kube-apiserver's own in either case (apisHandler skips the legacy group).
    if (s.spec?.service || !s.spec?.group || !s.spec.version) return undefined;
    return `${s.spec.group}/${s.spec.version}`;
  }

  deleted(s: ApiService): void {
    const gv = WithdrawnLocalApis.gv(s);
    // Only built-in ones stay away: a CRD's (automanaged `true`) is re-created at once, or goes with its CRD.
    if (gv && s.metadata.labels?.[AUTOMANAGED_LABEL] === MANAGE_ON_START) this.gvs.add(gv);
  }

  present(s: ApiService): void {
    if (s.spec?.group && s.spec.version) this.gvs.delete(`${s.spec.group}/${s.spec.version}`);
  }

  get size(): number {
    return this.gvs.size;
  }

  has(group: string, version: string): boolean {
    return this.gvs.has(`${group}/${version}`);
  }
}

/** An APIGroupList (or one APIGroup when `single`) without the withdrawn versions; a group left with none goes. */
export function withoutWithdrawnGroups<T>(doc: T, w: WithdrawnLocalApis, single = false): T {
  const trim = (g: Group): Group | undefined => {
    const versions = g.versions.filter((v) => !w.has(g.name, v.version));
    if (versions.length === g.versions.length) return g;
    // /apis/<group> with no APIService left is kube-apiserver's own answer (apiGroupHandler delegates).
    if (!versions.length) return single ? g : undefined;
    return { ...g, versions, preferredVersion: versions[0] };
  };
  if (single) return trim(doc as unknown as Group) as unknown as T;
  const list = doc as unknown as { groups: Group[] };
  return { ...list, groups: list.groups.map(trim).filter((g): g is Group => g !== undefined) } as unknown as T;
}

/** An APIGroupDiscoveryList without the withdrawn versions; a group left with none goes. */
export function withoutWithdrawnDiscovery<T>(doc: T, w: WithdrawnLocalApis): T {
  const list = doc as unknown as { items: DiscoveryItem[] };
  const items = list.items.flatMap((i) => {
    const versions = i.versions.filter((v) => !w.has(i.metadata.name, v.version));
    if (versions.length === i.versions.length) return [i];
    return versions.length ? [{ ...i, versions }] : [];
  });
  return { ...list, items } as unknown as T;
}
