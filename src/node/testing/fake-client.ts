// A small in-memory Client for node tests: CRUD, JSON merge patch (also on /status), graceful pod deletion and
// watches. Not a conformance-grade API server; just enough semantics for the kubelet's calls.

import { StatusError } from '../../api/errors.js';
import type { KubeList, KubeObject, WatchEvent } from '../../api/types.js';
import type { Client, DeleteOptions, ListOptions, PatchType, ResourceType, Transport, WatchStream } from '../../client/interfaces.js';

type Listener = { rt: string; ns?: string; fn: (ev: WatchEvent) => void };

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const clone = <T>(o: T): T => structuredClone(o);

export class FakeClient implements Client {
  readonly transport: Transport = { request: () => Promise.reject(new Error('FakeClient has no transport')), watch: () => Promise.reject(new Error('no transport')) };
  private rv = 1;
  private uid = 1;
  readonly objects = new Map<string, KubeObject>();
  private listeners: Listener[] = [];
  /** Every write, for assertions: `verb resource ns/name[/sub]`. */
  readonly log: string[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  private key(rt: ResourceType, ns: string | undefined, name: string): string {
    return `${rt.group}/${rt.resource}/${rt.namespaced ? ns ?? '' : ''}/${name}`;
  }

  private emit(rt: ResourceType, type: WatchEvent['type'], obj: KubeObject): void {
    for (const l of this.listeners) {
      if (l.rt === `${rt.group}/${rt.resource}` && (l.ns === undefined || l.ns === obj.metadata.namespace)) l.fn({ type, object: clone(obj) });
    }
  }

  private notFound(rt: ResourceType, name: string): StatusError {
    return StatusError.notFound(rt.group, rt.resource, name);
  }

  async get<T extends KubeObject>(rt: ResourceType, ns: string | undefined, name: string): Promise<T> {
    const o = this.objects.get(this.key(rt, ns, name));
    if (!o) throw this.notFound(rt, name);
    return clone(o) as T;
  }

  async list<T extends KubeObject>(rt: ResourceType, ns: string | undefined, _opts?: ListOptions): Promise<KubeList<T>> {
    const prefix = `${rt.group}/${rt.resource}/`;
    const items = [...this.objects.entries()].filter(([k, o]) => k.startsWith(prefix) && (ns === undefined || o.metadata.namespace === ns)).map(([, o]) => clone(o) as T);
    return { apiVersion: 'v1', kind: `${rt.kind}List`, metadata: { resourceVersion: String(this.rv) }, items };
  }

  async create<T extends KubeObject>(rt: ResourceType, ns: string | undefined, obj: T): Promise<T> {
    const o = clone(obj);
    const namespace = rt.namespaced ? ns ?? o.metadata.namespace : undefined;
    const k = this.key(rt, namespace, o.metadata.name ?? '');
    if (this.objects.has(k)) throw StatusError.alreadyExists(rt.group, rt.resource, o.metadata.name ?? '');
    o.metadata = { ...o.metadata, namespace, uid: o.metadata.uid ?? `uid-${this.uid++}`, resourceVersion: String(++this.rv), creationTimestamp: new Date(this.now()).toISOString().replace(/\.\d+Z$/, 'Z') };
    this.objects.set(k, o);
    this.log.push(`create ${rt.resource} ${namespace ?? ''}/${o.metadata.name}`);
    this.emit(rt, 'ADDED', o);
    return clone(o) as T;
  }

  async update<T extends KubeObject>(rt: ResourceType, ns: string | undefined, obj: T, opts?: { subresource?: string }): Promise<T> {
    const k = this.key(rt, ns, obj.metadata.name ?? '');
    if (!this.objects.has(k)) throw this.notFound(rt, obj.metadata.name ?? '');
    const o = { ...clone(obj), metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.objects.set(k, o);
    this.log.push(`update ${rt.resource} ${ns ?? ''}/${obj.metadata.name}${opts?.subresource ? '/' + opts.subresource : ''}`);
    this.emit(rt, 'MODIFIED', o);
    return clone(o) as T;
  }

  async patch<T extends KubeObject>(rt: ResourceType, ns: string | undefined, name: string, type: PatchType, patch: unknown, opts?: { subresource?: string }): Promise<T> {
    if (type !== 'merge') throw StatusError.unsupportedMediaType(type);
    const k = this.key(rt, ns, name);
    const cur = this.objects.get(k);
    if (!cur) throw this.notFound(rt, name);
    const p = patch as { metadata?: { uid?: string }; status?: unknown };
    if (p.metadata?.uid && p.metadata.uid !== cur.metadata.uid) {
      throw StatusError.conflict(rt.group, rt.resource, name, `Precondition failed: UID in precondition: ${p.metadata.uid}, UID in object meta: ${cur.metadata.uid}`);
    }
    // On /status only the status changes, as the status strategy resets everything else.
    const applied = opts?.subresource === 'status' ? { ...cur, status: mergePatch(cur.status, p.status) } : (mergePatch(cur, patch) as KubeObject);
    applied.metadata = { ...applied.metadata, resourceVersion: String(++this.rv) };
    this.objects.set(k, applied);
    this.log.push(`patch ${rt.resource} ${ns ?? ''}/${name}${opts?.subresource ? '/' + opts.subresource : ''}`);
    this.emit(rt, 'MODIFIED', applied);
    return clone(applied) as T;
  }

  async delete(rt: ResourceType, ns: string | undefined, name: string, opts?: DeleteOptions): Promise<unknown> {
    const k = this.key(rt, ns, name);
    const cur = this.objects.get(k);
    if (!cur) throw this.notFound(rt, name);
    if (opts?.preconditions?.uid && opts.preconditions.uid !== cur.metadata.uid) {
      throw StatusError.conflict(rt.group, rt.resource, name, 'Precondition failed');
    }
    this.log.push(`delete ${rt.resource} ${ns ?? ''}/${name}${opts?.gracePeriodSeconds !== undefined ? ` grace=${opts.gracePeriodSeconds}` : ''}`);
    // Pods on a node are deleted gracefully: the API server only sets deletionTimestamp; the kubelet finishes.
    const spec = cur.spec as { nodeName?: string; terminationGracePeriodSeconds?: number } | undefined;
    const grace = opts?.gracePeriodSeconds ?? spec?.terminationGracePeriodSeconds ?? 30;
    if (rt.resource === 'pods' && spec?.nodeName && grace > 0) {
      if (!cur.metadata.deletionTimestamp) {
        cur.metadata = { ...cur.metadata, deletionTimestamp: new Date(this.now() + grace * 1000).toISOString().replace(/\.\d+Z$/, 'Z'), deletionGracePeriodSeconds: grace, resourceVersion: String(++this.rv) };
        this.emit(rt, 'MODIFIED', cur);
      }
      return clone(cur);
    }
    this.objects.delete(k);
    cur.metadata = { ...cur.metadata, resourceVersion: String(++this.rv) };
    this.emit(rt, 'DELETED', cur);
    return { kind: 'Status', status: 'Success' };
  }

  async createSubresource(): Promise<unknown> {
    throw StatusError.methodNotAllowed('create', '', 'subresource');
  }

  async watch<T extends KubeObject>(rt: ResourceType, ns: string | undefined, _opts: ListOptions, onEvent: (ev: WatchEvent<T>) => void): Promise<WatchStream> {
    const l: Listener = { rt: `${rt.group}/${rt.resource}`, ns, fn: onEvent as (ev: WatchEvent) => void };
    this.listeners.push(l);
    let stop!: () => void;
    const done = new Promise<void>((resolve) => { stop = resolve; });
    return { done, stop: () => { this.listeners = this.listeners.filter((x) => x !== l); stop(); } };
  }

  /** Objects of one resource, for assertions. */
  all(resource: string): KubeObject[] {
    return [...this.objects.entries()].filter(([k]) => k.split('/')[1] === resource).map(([, o]) => o);
  }
}
