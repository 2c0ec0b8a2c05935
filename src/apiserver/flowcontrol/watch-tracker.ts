// Counts open watches by what they watch, so a write can be charged for the watchers its event wakes
// (k8s.io/apiserver pkg/util/flowcontrol/watch_tracker.go: RegisterWatch, GetInterestedWatchCount).

import type { RequestInfo } from '../request-info.js';

/** Watches of one resource: of all namespaces, per namespace, and per named object (`<namespace>/<name>`). */
interface ResourceWatches {
  all: number;
  byNamespace: Map<string, number>;
  byName: Map<string, number>;
}

export class WatchTracker {
  /** group → resource → counts: nested so that a lookup builds no key strings. */
  private readonly groups = new Map<string, Map<string, ResourceWatches>>();

  /** Counts a watch until the returned function is called (once; later calls do nothing). */
  register(info: RequestInfo): () => void {
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
