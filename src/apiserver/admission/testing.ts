// Test helpers for admission plugins: admission attributes for a resource and an in-memory AdmissionLookup.

import type { ResourceDecl } from '../../api/interfaces.js';
import type { KubeObject } from '../../api/types.js';
import type { AdmissionAttributes, AdmissionLookup, Operation } from './interfaces.js';

/** A bare declaration: enough for plugins, which only look at group, plural and scope. */
export function decl(plural: string, group = '', namespaced = true): ResourceDecl {
  return { group, version: 'v1', kind: plural, plural, singular: plural, namespaced, strategy: {} };
}

/** Attributes of a write of `obj` to `<group>/<plural>` (a `group/plural` string, or a bare core plural). */
export function attrs(resource: string, obj: unknown, opts: { operation?: Operation; name?: string; namespace?: string; oldObject?: unknown; subresource?: string; dryRun?: boolean } = {}): AdmissionAttributes {
  const slash = resource.indexOf('/');
  const group = slash < 0 ? '' : resource.slice(0, slash);
  const plural = slash < 0 ? resource : resource.slice(slash + 1);
  const o = obj as KubeObject | undefined;
  return {
    operation: opts.operation ?? 'CREATE',
    decl: decl(plural, group),
    namespace: opts.namespace ?? o?.metadata?.namespace ?? 'default',
    name: opts.name ?? o?.metadata?.name ?? '',
    subresource: opts.subresource ?? '',
    object: o,
    oldObject: opts.oldObject as KubeObject | undefined,
    user: { name: 'tester', groups: [] },
    dryRun: opts.dryRun ?? false,
    warnings: [],
  };
}

/** A lookup over fixed objects keyed `group/plural` (`plural` for core). Objects may be added later via `add`. */
export function fakeLookup(objects: Record<string, unknown[]> = {}): AdmissionLookup & { add(resource: string, obj: unknown): void } {
  const byResource = new Map<string, KubeObject[]>();
  const keyOf = (group: string, resource: string) => (group ? `${group}/${resource}` : resource);
  for (const [k, list] of Object.entries(objects)) byResource.set(k, list as KubeObject[]);
  return {
    get(group, resource, namespace, name) {
      return byResource.get(keyOf(group, resource))?.find((o) => o.metadata.name === name && (!namespace || o.metadata.namespace === namespace));
    },
    list(group, resource, namespace) {
      return (byResource.get(keyOf(group, resource)) ?? []).filter((o) => !namespace || o.metadata.namespace === namespace);
    },
    add(resource, obj) {
      const list = byResource.get(resource) ?? [];
      list.push(obj as KubeObject);
      byResource.set(resource, list);
    },
  };
}
