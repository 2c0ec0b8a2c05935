// The Registry: the set of ResourceDecls, looked up by URL (group/version/plural) or by kind. Discovery, routing,
// OpenAPI and printing all read it, so adding a resource is one declaration.

import type { ResourceDecl } from './interfaces.js';

export interface GroupInfo {
  name: string;
  /** Versions in preference order. */
  versions: string[];
}

export class Registry {
  private readonly byPath = new Map<string, ResourceDecl>();
  private readonly byKindKey = new Map<string, ResourceDecl>();
  private readonly groupList: GroupInfo[] = [];

  constructor(readonly decls: ResourceDecl[]) {
    for (const d of decls) {
      const path = `${d.group}/${d.version}/${d.plural}`;
      if (this.byPath.has(path)) throw new Error(`resource ${path} declared twice`);
      this.byPath.set(path, d);
      this.byKindKey.set(`${d.group}/${d.version}/${d.kind}`, d);
      let g = this.groupList.find((x) => x.name === d.group);
      if (!g) this.groupList.push((g = { name: d.group, versions: [] }));
      if (!g.versions.includes(d.version)) g.versions.push(d.version);
    }
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
    return this.decls.filter((d) => d.group === group && d.version === version);
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
