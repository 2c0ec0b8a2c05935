// Counts open watches by what they watch, so a write can be charged for the watchers its event wakes
// (k8s.io/apiserver pkg/util/flowcontrol/watch_tracker.go: RegisterWatch, GetInterestedWatchCount).

import { parseFieldSelector } from '../../api/field-selectors.js';
import type { RequestInfo } from '../request-info.js';

/**
 * The watch cache's indexes (getBuiltinIndexes): a watch of pods pinned to one spec.nodeName is served from the
 * index, so kube leaves it out of the count (it approximates every pinned value by the empty one, which no kubelet
 * watches): 5,000 kubelets' watches do not make every pod write ten seats wide.
 */
const INDEXED_FIELD: Readonly<Record<string, string>> = { pods: 'spec.nodeName' };

/** The value a field selector pins `field` to (RequiresExactMatch), or undefined; an unparsable one pins nothing. */
function pinnedValue(fieldSelector: string | undefined, field: string): string | undefined {
  if (!fieldSelector) return undefined;
  try {
    return parseFieldSelector(fieldSelector).find((r) => r.field === field && r.operator === '=')?.value;
  } catch {
    return undefined;
  }
}

const NOTHING_TO_FORGET = () => undefined;

/** Watches of one resource: of all namespaces, per namespace, and per named object (`<namespace>/<name>`). */
interface ResourceWatches {
  all: number;
  byNamespace: Map<string, number>;
  byName: Map<string, number>;
}

export class WatchTracker {
  /** group → resource → counts: nested so that a lookup builds no key strings. */
  private readonly groups = new Map<string, Map<string, ResourceWatches>>();

  /**
   * Counts a watch until the returned function is called (once; later calls do nothing). A watch of an indexed
   * resource pinned by its field selector to a non-empty value is not counted (updateIndexLocked).
   */
  register(info: RequestInfo, fieldSelector?: string): () => void {
    const indexed = INDEXED_FIELD[info.resource];
    if (indexed && pinnedValue(fieldSelector, indexed)) return NOTHING_TO_FORGET;
    const rw = this.entry(info.group, info.resource);
    const { namespace, name } = info;
    if (name) bump(rw.byName, `${namespace}/${name}`, 1);
    else if (namespace) bump(rw.byNamespace, namespace, 1);
    else rw.all++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (name) bump(rw.byName, `${namespace}/${name}`, -1);
      else if (namespace) bump(rw.byNamespace, namespace, -1);
      else rw.all--;
    };
  }

  /**
   * Watches interested in a write: those of the whole resource, of the object's namespace, and of the object by
   * name (a create names no object, as in kube's RequestInfo).
   */
  interested(info: RequestInfo): number {
    const rw = this.groups.get(info.group)?.get(info.resource);
    if (!rw) return 0;
    let n = rw.all;
    if (info.namespace && rw.byNamespace.size > 0) n += rw.byNamespace.get(info.namespace) ?? 0;
    if (info.name && rw.byName.size > 0) n += rw.byName.get(`${info.namespace}/${info.name}`) ?? 0;
    return n;
  }

  private entry(group: string, resource: string): ResourceWatches {
    let byResource = this.groups.get(group);
    if (!byResource) this.groups.set(group, (byResource = new Map()));
    let rw = byResource.get(resource);
    if (!rw) byResource.set(resource, (rw = { all: 0, byNamespace: new Map(), byName: new Map() }));
    return rw;
  }
}

function bump(m: Map<string, number>, key: string, delta: number): void {
  const n = (m.get(key) ?? 0) + delta;
  if (n <= 0) m.delete(key);
  else m.set(key, n);
}
