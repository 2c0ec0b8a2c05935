// The Registry: the set of ResourceDecls, looked up by URL (group/version/plural) or by kind. Discovery, routing,
// OpenAPI and printing all read it, so adding a resource is one declaration.

import type { ResourceDecl } from './interfaces.js';
import { compareKubeAwareVersions } from './version-priority.js';

export interface GroupInfo {
  name: string;
  /** Versions in preference order. */
  versions: string[];
}

/** What changed in a Registry at run time (custom resources, aggregated APIs). */
export interface RegistryChange {
  added: readonly ResourceDecl[];
  removed: readonly ResourceDecl[];
}

export class Registry {
  private readonly byPath = new Map<string, ResourceDecl>();
  private readonly byKindKey = new Map<string, ResourceDecl>();
  private groupList: GroupInfo[] = [];
  private current: ResourceDecl[];
  /** How many decls the constructor was given: those keep declaration order; later groups sort kube-aware. */
  private readonly staticCount: number;
  private readonly listeners = new Set<(change: RegistryChange) => void>();
  /** Bumped on every add/remove, so derived documents (OpenAPI) know when to rebuild. */
  generation = 0;

  constructor(decls: ResourceDecl[]) {
    this.current = [...decls];
    this.staticCount = decls.length;
    for (const d of decls) this.index(d);
    this.groupList = this.computeGroups();
  }

  /** Every declared resource; a fresh array after each change, so a caller's snapshot stays stable. */
  get decls(): ResourceDecl[] {
    return this.current;
  }

  private index(d: ResourceDecl): void {
    const path = `${d.group}/${d.version}/${d.plural}`;
    if (this.byPath.has(path)) throw new Error(`resource ${path} declared twice`);
    this.byPath.set(path, d);
    this.byKindKey.set(`${d.group}/${d.version}/${d.kind}`, d);
  }

  private computeGroups(): GroupInfo[] {
    const groups: GroupInfo[] = [];
    const dynamic = new Set<GroupInfo>();
    this.current.forEach((d, i) => {
      let g = groups.find((x) => x.name === d.group);
      if (!g) {
        groups.push((g = { name: d.group, versions: [] }));
        if (i >= this.staticCount) dynamic.add(g);
      }
      if (!g.versions.includes(d.version)) g.versions.push(d.version);
    });
    // Groups added at run time (CRDs) list versions by kube's version priority, as apiextensions-apiserver does.
    for (const g of dynamic) g.versions.sort(compareKubeAwareVersions);
    return groups;
  }

  /** Serves more resources; throws (changing nothing) if one is already declared. */
  add(decls: readonly ResourceDecl[]): void {
    if (!decls.length) return;
    const seen = new Set<string>();
    for (const d of decls) {
      const path = `${d.group}/${d.version}/${d.plural}`;
      if (this.byPath.has(path) || seen.has(path)) throw new Error(`resource ${path} declared twice`);
      seen.add(path);
    }
    for (const d of decls) this.index(d);
    this.current = [...this.current, ...decls];
    this.changed({ added: decls, removed: [] });
  }

  /** Stops serving these resources (matched by identity); unknown ones are ignored. */
  remove(decls: readonly ResourceDecl[]): void {
    const gone = decls.filter((d) => this.byPath.get(`${d.group}/${d.version}/${d.plural}`) === d);
    if (!gone.length) return;
    for (const d of gone) {
      this.byPath.delete(`${d.group}/${d.version}/${d.plural}`);
      if (this.byKindKey.get(`${d.group}/${d.version}/${d.kind}`) === d) this.byKindKey.delete(`${d.group}/${d.version}/${d.kind}`);
    }
    const set = new Set(gone);
    this.current = this.current.filter((d) => !set.has(d));
    this.changed({ added: [], removed: gone });
  }

  /** Calls `fn` after every add/remove; returns a function that unsubscribes. */
  onChange(fn: (change: RegistryChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(change: RegistryChange): void {
    this.generation++;
    this.groupList = this.computeGroups();
    for (const fn of this.listeners) fn(change);
  }

  lookup(group: string, version: string, plural: string): ResourceDecl | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  byKind(group: string, version: string, kind: string): ResourceDecl | undefined {
    return this.byKindKey.get(`${group}/${version}/${kind}`);
  }

  /** Named API groups (not the core group) in declaration order. */
  groups(): GroupInfo[] {
    return this.groupList.filter((g) => g.name !== '');
  }

  resourcesOf(group: string, version: string): ResourceDecl[] {
    return this.current.filter((d) => d.group === group && d.version === version);
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.groupList.some((g) => g.name === group && g.versions.includes(version));
  }
}

/** The storage key prefix of a resource: /registry/<group|core>/<plural>/ */
export function resourcePrefix(d: Pick<ResourceDecl, 'group' | 'plural'>): string {
  return `/registry/${d.group || 'core'}/${d.plural}/`;
}

export function objectStorageKey(d: Pick<ResourceDecl, 'group' | 'plural' | 'namespaced'>, namespace: string | undefined, name: string): string {
  return d.namespaced ? `${resourcePrefix(d)}${namespace}/${name}` : `${resourcePrefix(d)}${name}`;
}
