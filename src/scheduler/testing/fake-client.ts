// A minimal in-memory Client for scheduler tests: list/watch for informers, create/patch/delete, and the
// pods/binding subresource. It records every write so tests can assert what the scheduler sent.

import { StatusError } from '../../api/errors.js';
import type { KubeList, KubeObject, WatchEvent } from '../../api/types.js';
import type { Client, ResourceType, Transport, WatchStream } from '../../client/interfaces.js';

export interface Action {
  verb: 'create' | 'patch' | 'delete' | 'binding' | 'update';
  resource: string;
  namespace?: string;
  name: string;
  body?: unknown;
}

type Watcher = { resource: string; fn: (ev: WatchEvent) => void; stopped: boolean };

export class FakeClient implements Client {
  readonly transport = {} as Transport; // not used: the fake answers in terms of objects
  readonly actions: Action[] = [];
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly watchers: Watcher[] = [];
  private rv = 1;
  /** Makes the next binding calls fail with this error (then clears it). */
  failBindings = 0;

  private store(resource: string): Map<string, KubeObject> {
    let m = this.objects.get(resource);
    if (!m) this.objects.set(resource, (m = new Map()));
    return m;
  }

  private key(ns: string | undefined, name: string): string {
    return ns ? `${ns}/${name}` : name;
  }

  private emit(resource: string, type: WatchEvent['type'], obj: KubeObject): void {
    for (const w of this.watchers) if (!w.stopped && w.resource === resource) w.fn({ type, object: structuredClone(obj) });
  }

  /** Seeds or changes an object as another client would, notifying watchers. */
  put<T extends KubeObject>(rt: ResourceType, obj: T): T {
    const m = this.store(rt.resource);
    const k = this.key(obj.metadata.namespace, obj.metadata.name!);
    const existed = m.has(k);
    const stored = structuredClone(obj);
    stored.metadata.resourceVersion = String(++this.rv);
    stored.metadata.uid ??= `uid-${k}`;
    m.set(k, stored);
    this.emit(rt.resource, existed ? 'MODIFIED' : 'ADDED', stored);
    return stored as T;
  }

  remove(rt: ResourceType, ns: string | undefined, name: string): void {
    const m = this.store(rt.resource);
    const k = this.key(ns, name);
    const obj = m.get(k);
    if (!obj) return;
    m.delete(k);
    obj.metadata.resourceVersion = String(++this.rv);
    this.emit(rt.resource, 'DELETED', obj);
  }

  peek<T extends KubeObject>(rt: ResourceType, ns: string | undefined, name: string): T | undefined {
    return this.store(rt.resource).get(this.key(ns, name)) as T | undefined;
  }

  all<T extends KubeObject>(rt: ResourceType): T[] {
    return [...this.store(rt.resource).values()] as T[];
  }

  async get<T extends KubeObject>(rt: ResourceType, ns: string | undefined, name: string): Promise<T> {
    const o = this.peek<T>(rt, ns, name);
    if (!o) throw StatusError.notFound(rt.group, rt.resource, name);
    return structuredClone(o);
  }

  async list<T extends KubeObject>(rt: ResourceType, ns: string | undefined): Promise<KubeList<T>> {
    const items = this.all<T>(rt).filter((o) => ns === undefined || o.metadata.namespace === ns);
    return { apiVersion: 'v1', kind: `${rt.kind}List`, metadata: { resourceVersion: String(this.rv) }, items: structuredClone(items) };
  }

  async create<T extends KubeObject>(rt: ResourceType, ns: string | undefined, obj: T): Promise<T> {
    this.actions.push({ verb: 'create', resource: rt.resource, namespace: ns, name: obj.metadata.name!, body: structuredClone(obj) });
    if (this.peek(rt, ns, obj.metadata.name!)) throw StatusError.alreadyExists(rt.group, rt.resource, obj.metadata.name!);
    return this.put(rt, { ...obj, metadata: { ...obj.metadata, namespace: ns } });
  }

  async update<T extends KubeObject>(rt: ResourceType, ns: string | undefined, obj: T): Promise<T> {
    this.actions.push({ verb: 'update', resource: rt.resource, namespace: ns, name: obj.metadata.name!, body: structuredClone(obj) });
    return this.put(rt, obj);
  }

  /** Merges the patch (objects recursively, lists replaced) — enough for the status and event patches sent here. */
  async patch<T extends KubeObject>(rt: ResourceType, ns: string | undefined, name: string, _type: string, patch: unknown): Promise<T> {
    this.actions.push({ verb: 'patch', resource: rt.resource, namespace: ns, name, body: structuredClone(patch) });
    const o = this.peek<T>(rt, ns, name);
    if (!o) throw StatusError.notFound(rt.group, rt.resource, name);
    return this.put(rt, merge(structuredClone(o), patch) as T);
  }

  async delete(rt: ResourceType, ns: string | undefined, name: string): Promise<unknown> {
    this.actions.push({ verb: 'delete', resource: rt.resource, namespace: ns, name });
    if (!this.peek(rt, ns, name)) throw StatusError.notFound(rt.group, rt.resource, name);
    this.remove(rt, ns, name);
    return {};
  }

  async createSubresource(rt: ResourceType, ns: string | undefined, name: string, sub: string, body: unknown): Promise<unknown> {
    if (sub !== 'binding') throw StatusError.badRequest(`fake: unsupported subresource ${sub}`);
    this.actions.push({ verb: 'binding', resource: rt.resource, namespace: ns, name, body: structuredClone(body) });
    if (this.failBindings > 0) {
      this.failBindings--;
      throw StatusError.internal('fake binding failure');
    }
    const pod = this.peek<KubeObject & { spec?: { nodeName?: string } }>(rt, ns, name);
    if (!pod) throw StatusError.notFound(rt.group, rt.resource, name);
    if (pod.spec?.nodeName) throw StatusError.conflict(rt.group, rt.resource, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    const target = (body as { target: { name: string } }).target.name;
    this.put(rt, { ...pod, spec: { ...pod.spec, nodeName: target } });
    return { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 };
  }

  async watch<T extends KubeObject>(rt: ResourceType, _ns: string | undefined, _opts: unknown, onEvent: (ev: WatchEvent<T>) => void): Promise<WatchStream> {
    const w: Watcher = { resource: rt.resource, fn: onEvent as (ev: WatchEvent) => void, stopped: false };
    this.watchers.push(w);
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    return { done, stop: () => { w.stopped = true; resolve(); } };
  }
}

function merge(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v);
  }
  return out;
}
