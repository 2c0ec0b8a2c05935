// An in-memory Client for controller tests: CRUD, status/finalize/scale subresources, json/merge patches, generateName,
// finalizer-aware deletion and watches from a resourceVersion, with every write recorded as an action.

import { StatusError } from '../../api/errors.js';
import type { KubeList, KubeObject, WatchEvent } from '../../api/types.js';
import type {
  ApiRequest, Client, DeleteOptions, ListOptions, PatchType, ResourceType, Transport, WatchStream, WriteOptions,
} from '../../client/interfaces.js';
import { rfc3339, type Clock } from '../../util/clock.js';
import { applyJsonPatch, applyMergePatch } from './patch.js';
import { fromScale, scaleSubresourceOf, toScale, type FakeScaleSpec } from './scale.js';

export interface Action {
  verb: 'create' | 'update' | 'patch' | 'delete';
  resource: string;
  namespace: string;
  name: string;
  subresource?: string;
  /** The object written (create/update) or the patch sent. */
  body?: unknown;
  deleteOptions?: DeleteOptions;
}

/** Returns an error to fail the action with, or undefined to let it through. */
export type Reactor = (a: Action) => Error | undefined;

const WITH_STATUS = new Set(['pods', 'deployments', 'replicasets', 'namespaces', 'nodes', 'services', 'jobs', 'cronjobs']);
/** kube's name generator alphabet (apimachinery pkg/util/rand). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

interface Watcher { rtKey: string; namespace?: string; fn: (ev: WatchEvent) => void }
interface LogEntry { rtKey: string; namespace: string; rv: number; ev: WatchEvent }

const unsupported: Transport = {
  request: (_: ApiRequest) => Promise.reject(new Error('fake client has no transport')),
  watch: () => Promise.reject(new Error('fake client has no transport')),
};

export class FakeClient implements Client {
  readonly transport = unsupported;
  readonly actions: Action[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private readonly log: LogEntry[] = [];
  private readonly watchers = new Set<Watcher>();
  private readonly reactors: Reactor[] = [];
  /** Custom resources given a scale subresource by the test (`group/resource` -> where replicas and selector live). */
  private readonly customScales = new Map<string, FakeScaleSpec>();
  private rv = 0;
  private uidSeq = 0;
  private rand = 42;

  constructor(private readonly clock: Clock) {}

  // ---- test helpers ----

  /** Stores an object as-is (filling uid, resourceVersion, creationTimestamp), without recording an action. */
  seed<T extends KubeObject>(rt: ResourceType, obj: T): T {
    const o = structuredClone(obj);
    o.metadata.uid ??= this.nextUid();
    o.metadata.creationTimestamp ??= rfc3339(this.clock.now());
    o.metadata.generation ??= 1;
    o.kind ??= rt.kind;
    o.apiVersion ??= rt.group ? `${rt.group}/${rt.version}` : rt.version;
    this.store(rt, o, 'ADDED');
    return structuredClone(o);
  }

  /** The stored object, or undefined. */
  peek<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, name: string): T | undefined {
    const o = this.objects.get(this.key(rt, namespace, name));
    return o && (structuredClone(o) as T);
  }

  all<T extends KubeObject>(rt: ResourceType, namespace?: string): T[] {
    const prefix = `${rtKey(rt)}|`;
    return [...this.objects.entries()]
      .filter(([k, o]) => k.startsWith(prefix) && (namespace === undefined || (o.metadata.namespace ?? '') === namespace))
      .map(([, o]) => structuredClone(o) as T)
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  }

  /** Gives a custom resource a scale subresource, as a CRD's `subresources.scale` would (paths as in the CRD). */
  addScaleSubresource(rt: ResourceType, spec: FakeScaleSpec): void {
    this.customScales.set(rtKey(rt), spec);
  }

  addReactor(r: Reactor): void {
    this.reactors.push(r);
  }

  clearActions(): void {
    this.actions.length = 0;
  }

  /** Writes in the form `verb resource[/sub] ns/name`, handy for asserting sequences. */
  actionSummary(): string[] {
    return this.actions.map((a) => `${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''} ${a.namespace ? a.namespace + '/' : ''}${a.name}`);
  }

  // ---- Client ----

  async get<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, name: string, subresource?: string): Promise<T> {
    const o = this.objects.get(this.key(rt, namespace, name));
    if (subresource === 'scale') {
      // A resource without a scale subresource answers 404, as the API server does for an unknown subresource.
      const spec = scaleSubresourceOf(rt, this.customScales.get(rtKey(rt)));
      if (!spec || !o) throw StatusError.notFound(rt.group, rt.resource, name);
      return toScale(o, spec) as T;
    }
    if (!o) throw StatusError.notFound(rt.group, rt.resource, name);
    return structuredClone(o) as T;
  }

  async list<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, opts: ListOptions = {}): Promise<KubeList<T>> {
    const items = this.all<T>(rt, rt.namespaced ? namespace : undefined)
      .filter((o) => matchLabelSelector(opts.labelSelector, o.metadata.labels) && matchFieldSelector(opts.fieldSelector, o));
    return { apiVersion: rt.group ? `${rt.group}/${rt.version}` : rt.version, kind: `${rt.kind}List`, metadata: { resourceVersion: String(this.rv) }, items };
  }

  async create<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, obj: T, _opts?: WriteOptions): Promise<T> {
    const o = structuredClone(obj);
    const ns = rt.namespaced ? (namespace ?? o.metadata.namespace ?? '') : '';
    if (!o.metadata.name && o.metadata.generateName) o.metadata.name = o.metadata.generateName + this.randomSuffix();
    if (!o.metadata.name) throw StatusError.invalid(rt.group, rt.kind, '', []);
    this.react({ verb: 'create', resource: rt.resource, namespace: ns, name: o.metadata.name, body: obj });
    if (this.objects.has(this.key(rt, ns, o.metadata.name))) throw StatusError.alreadyExists(rt.group, rt.resource, o.metadata.name);
    if (rt.namespaced) o.metadata.namespace = ns;
    o.metadata.uid = this.nextUid();
    o.metadata.creationTimestamp = rfc3339(this.clock.now());
    o.metadata.generation = 1;
    delete o.metadata.deletionTimestamp;
    o.kind = rt.kind;
    o.apiVersion = rt.group ? `${rt.group}/${rt.version}` : rt.version;
    this.store(rt, o, 'ADDED');
    return structuredClone(o);
  }

  async update<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, obj: T, opts: WriteOptions & { subresource?: string } = {}): Promise<T> {
    const ns = rt.namespaced ? (namespace ?? obj.metadata.namespace ?? '') : '';
    const name = obj.metadata.name!;
    this.react({ verb: 'update', resource: rt.resource, namespace: ns, name, subresource: opts.subresource, body: obj });
    const old = this.objects.get(this.key(rt, ns, name));
    if (opts.subresource === 'scale') return this.writeScale(rt, old, name, obj) as unknown as T;
    if (!old) throw StatusError.notFound(rt.group, rt.resource, name);
    const rv = obj.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw StatusError.staleResourceVersion(rt.group, rt.resource, name);
    return this.write(rt, old, structuredClone(obj), opts.subresource);
  }

  async patch<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts: WriteOptions & { subresource?: string } = {}): Promise<T> {
    const ns = rt.namespaced ? (namespace ?? '') : '';
    this.react({ verb: 'patch', resource: rt.resource, namespace: ns, name, subresource: opts.subresource, body: patch });
    const old = this.objects.get(this.key(rt, ns, name));
    if (opts.subresource === 'scale') {
      // The patch applies to the current Scale (ScaleREST), whose replicas then go into the parent.
      const spec = scaleSubresourceOf(rt, this.customScales.get(rtKey(rt)));
      if (!spec || !old) throw StatusError.notFound(rt.group, rt.resource, name);
      const scale = toScale(old, spec);
      return this.writeScale(rt, old, name, (type === 'json' ? applyJsonPatch(scale, patch as never) : applyMergePatch(scale, patch)) as KubeObject) as unknown as T;
    }
    if (!old) throw StatusError.notFound(rt.group, rt.resource, name);
    // Strategic merge is treated as a merge patch here; the controllers only send json and merge patches.
    const next = (type === 'json' ? applyJsonPatch(old, patch as never) : applyMergePatch(old, patch)) as KubeObject;
    const rv = next.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw StatusError.staleResourceVersion(rt.group, rt.resource, name);
    return this.write(rt, old, next, opts.subresource);
  }

  async delete(rt: ResourceType, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<unknown> {
    const ns = rt.namespaced ? (namespace ?? '') : '';
    this.react({ verb: 'delete', resource: rt.resource, namespace: ns, name, deleteOptions: opts });
    const key = this.key(rt, ns, name);
    const old = this.objects.get(key);
    if (!old) throw StatusError.notFound(rt.group, rt.resource, name);
    if (opts?.preconditions?.uid && opts.preconditions.uid !== old.metadata.uid) {
      throw StatusError.conflict(rt.group, rt.resource, name, `Precondition failed: UID in precondition: ${opts.preconditions.uid}, UID in object meta: ${old.metadata.uid}`);
    }
    const next = structuredClone(old);
    const fin = new Set(next.metadata.finalizers ?? []);
    if (opts?.propagationPolicy === 'Foreground') fin.add('foregroundDeletion');
    if (opts?.propagationPolicy === 'Orphan') fin.add('orphan');
    const nsFinalizers = rt.resource === 'namespaces' ? ((next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) : [];
    if (fin.size === 0 && nsFinalizers.length === 0) {
      this.remove(rt, old);
      return { kind: 'Status', apiVersion: 'v1', status: 'Success' };
    }
    if (!next.metadata.deletionTimestamp) {
      next.metadata.deletionTimestamp = rfc3339(this.clock.now());
      next.metadata.deletionGracePeriodSeconds = 0;
    }
    next.metadata.finalizers = [...fin];
    if (rt.resource === 'namespaces') next.status = { ...(next.status as object), phase: 'Terminating' };
    this.store(rt, next, 'MODIFIED');
    return structuredClone(next);
  }

  async createSubresource(rt: ResourceType, _namespace: string | undefined, name: string): Promise<unknown> {
    throw StatusError.notFound(rt.group, rt.resource, name);
  }

  async watch<T extends KubeObject>(rt: ResourceType, namespace: string | undefined, opts: ListOptions, onEvent: (ev: WatchEvent<T>) => void): Promise<WatchStream> {
    const w: Watcher = { rtKey: rtKey(rt), namespace: rt.namespaced ? namespace : undefined, fn: onEvent as (ev: WatchEvent) => void };
    const from = Number(opts.resourceVersion ?? '0');
    for (const e of this.log) if (e.rv > from && this.matches(w, e)) w.fn(structuredClone(e.ev));
    this.watchers.add(w);
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    return { done, stop: () => { this.watchers.delete(w); resolve(); } };
  }

  // ---- internals ----

  /** ScaleREST.Update: the Scale's replicas go into the parent (resourceVersion and uid as preconditions); a Scale comes back. */
  private writeScale(rt: ResourceType, old: KubeObject | undefined, name: string, scale: KubeObject): KubeObject {
    const spec = scaleSubresourceOf(rt, this.customScales.get(rtKey(rt)));
    if (!spec || !old) throw StatusError.notFound(rt.group, rt.resource, name);
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw StatusError.staleResourceVersion(rt.group, rt.resource, name);
    const next = fromScale(old, scale, spec);
    if (next.metadata.uid !== old.metadata.uid) {
      throw StatusError.uidPreconditionFailed(rt.group, `${rt.resource}/scale`, name, next.metadata.uid!, old.metadata.uid!);
    }
    return toScale(this.write(rt, old, next), spec);
  }

  private write<T extends KubeObject>(rt: ResourceType, old: KubeObject, next: KubeObject, subresource?: string): T {
    let out: KubeObject;
    if (subresource === 'status') {
      // Status strategies keep the spec but take metadata from the request: annotations (deploymentStatusStrategy) and
      // finalizers (cloud-provider's PatchService adds the load-balancer cleanup finalizer through services/status).
      out = { ...structuredClone(old), status: next.status };
      if (next.metadata.annotations !== undefined) out.metadata.annotations = structuredClone(next.metadata.annotations);
      if (next.metadata.finalizers !== undefined) out.metadata.finalizers = structuredClone(next.metadata.finalizers);
    } else if (subresource === 'finalize') {
      out = structuredClone(old);
      out.spec = { ...(old.spec as object), finalizers: (next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [] };
    } else {
      out = next;
      if (WITH_STATUS.has(rt.resource)) out.status = structuredClone(old.status);
      for (const k of ['uid', 'creationTimestamp', 'deletionTimestamp', 'generation'] as const) {
        if (old.metadata[k] === undefined) delete out.metadata[k];
        else out.metadata[k] = old.metadata[k] as never;
      }
      if (JSON.stringify(old.spec) !== JSON.stringify(out.spec)) out.metadata.generation = (old.metadata.generation ?? 1) + 1;
    }
    if (out.metadata.deletionTimestamp && !(out.metadata.finalizers ?? []).length) {
      const nsFin = rt.resource === 'namespaces' ? ((out.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) : [];
      if (!nsFin.length) {
        this.remove(rt, out);
        return structuredClone(out) as T;
      }
    }
    this.store(rt, out, 'MODIFIED');
    return structuredClone(out) as T;
  }

  private store(rt: ResourceType, o: KubeObject, type: 'ADDED' | 'MODIFIED'): void {
    o.metadata.resourceVersion = String(++this.rv);
    this.objects.set(this.key(rt, o.metadata.namespace, o.metadata.name!), o);
    this.emit(rt, { type, object: o });
  }

  private remove(rt: ResourceType, o: KubeObject): void {
    this.objects.delete(this.key(rt, o.metadata.namespace, o.metadata.name!));
    const gone = structuredClone(o);
    gone.metadata.resourceVersion = String(++this.rv);
    this.emit(rt, { type: 'DELETED', object: gone });
  }

  private emit(rt: ResourceType, ev: WatchEvent): void {
    const e: LogEntry = { rtKey: rtKey(rt), namespace: ev.object.metadata.namespace ?? '', rv: this.rv, ev: structuredClone(ev) };
    this.log.push(e);
    for (const w of [...this.watchers]) if (this.matches(w, e)) w.fn(structuredClone(e.ev));
  }

  private matches(w: Watcher, e: LogEntry): boolean {
    return w.rtKey === e.rtKey && (w.namespace === undefined || w.namespace === e.namespace);
  }

  private react(a: Action): void {
    this.actions.push(structuredClone(a));
    for (const r of this.reactors) {
      const err = r(a);
      if (err) throw err;
    }
  }

  private key(rt: ResourceType, namespace: string | undefined, name: string): string {
    return `${rtKey(rt)}|${rt.namespaced ? namespace ?? '' : ''}|${name}`;
  }

  private nextUid(): string {
    return `00000000-0000-4000-8000-${String(++this.uidSeq).padStart(12, '0')}`;
  }

  private randomSuffix(): string {
    let s = '';
    for (let i = 0; i < 5; i++) {
      // A small LCG keeps generated names reproducible from run to run.
      this.rand = (this.rand * 1103515245 + 12345) % 2147483648;
      s += ALPHANUMS[this.rand % ALPHANUMS.length];
    }
    return s;
  }
}

function rtKey(rt: ResourceType): string {
  return `${rt.group}/${rt.resource}`;
}

/** Equality-based label selectors only (`a=b,c!=d,e`), which is all the tests use. */
function matchLabelSelector(sel: string | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel) return true;
  const l = labels ?? {};
  return sel.split(',').every((term) => {
    const ne = term.split('!=');
    if (ne.length === 2) return l[ne[0].trim()] !== ne[1].trim();
    const eq = term.split(/==?/);
    if (eq.length === 2) return l[eq[0].trim()] === eq[1].trim();
    const t = term.trim();
    return t.startsWith('!') ? !(t.slice(1) in l) : t in l;
  });
}

function matchFieldSelector(sel: string | undefined, o: KubeObject): boolean {
  if (!sel) return true;
  return sel.split(',').every((term) => {
    const [k, v] = term.split('=');
    if (k === 'metadata.name') return o.metadata.name === v;
    if (k === 'metadata.namespace') return (o.metadata.namespace ?? '') === v;
    return true;
  });
}
