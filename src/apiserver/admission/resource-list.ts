// Resource lists (cpu, memory, pods, …) as quantities: parse, add, max, compare and print them the way
// k8s.io/apimachinery's resource.Quantity and pkg/quota/v1/resources.go do, for LimitRanger and ResourceQuota.

import { addQuantity, compareQuantity, formatQuantity, tryParseQuantity, type Quantity } from '../../api/quantity.js';

/** A resource list as it appears in objects: name → quantity string. */
export type RawResourceList = Record<string, string | number> | undefined;
export type ResourceList = Map<string, Quantity>;

/** Parses a list, skipping values that are not quantities (validation reports those, not admission). */
export function parseList(raw: RawResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [name, value] of Object.entries(raw ?? {})) {
    const q = tryParseQuantity(value);
    if (q) out.set(name, q);
  }
  return out;
}

/** Adds `more` into `into`; a new name keeps the added quantity's format, as quota.Add does. */
export function addInto(into: ResourceList, more: ResourceList): ResourceList {
  for (const [name, q] of more) {
    const prev = into.get(name);
    into.set(name, prev ? addQuantity(prev, q) : q);
  }
  return into;
}

/** Raises every quantity in `into` to at least the one in `more` (maxResourceList). */
export function maxInto(into: ResourceList, more: ResourceList): ResourceList {
  for (const [name, q] of more) {
    const prev = into.get(name);
    if (!prev || compareQuantity(q, prev) > 0) into.set(name, q);
  }
  return into;
}

/** Quantity.String(): the canonical form kube prints in messages. */
export function fmt(q: Quantity): string {
  return formatQuantity(q);
}

/** Whether two raw lists hold the same amounts (apiequality.Semantic.DeepEqual on ResourceLists). */
export function sameResourceList(a: RawResourceList, b: RawResourceList): boolean {
  const pa = parseList(a);
  const pb = parseList(b);
  if (pa.size !== pb.size || Object.keys(a ?? {}).length !== Object.keys(b ?? {}).length) return false;
  for (const [name, q] of pa) {
    const other = pb.get(name);
    if (!other || compareQuantity(q, other) !== 0) return false;
  }
  return true;
}

/** Back to the object form, e.g. for ResourceQuota status. */
export function toRaw(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = fmt(list.get(name)!);
  return out;
}

/** `name=value` pairs sorted by name and joined with commas (resourcequota prettyPrint). */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${fmt(list.get(k)!)}`).join(',');
}
