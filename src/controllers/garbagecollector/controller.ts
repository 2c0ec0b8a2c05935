// A simple garbage collector (after pkg/controller/garbagecollector/garbagecollector.go attemptToDeleteItem and
// orphanDependents): deletes objects whose owners are all gone, drops dangling owner references when a live owner
// remains, and honours the `orphan` and `foregroundDeletion` finalizers of owners being deleted. Like kube's
// GetDeletableResources it follows every listable, watchable, deletable resource, custom resources included as their
// CRDs become Established and go (pkg/controller/garbagecollector/graph_builder.go syncMonitors).

import { isNotFound } from '../../api/errors.js';
import { parseApiVersion, type KubeObject, type OwnerReference } from '../../api/types.js';
import { isConditionTrue, type Crd } from '../../api/crd/types.js';
import { compareKubeAwareVersions } from '../../api/version-priority.js';
import { Informer } from '../../client/informer.js';
import { supportsVerbs, type Client, type ResourceType } from '../../client/interfaces.js';
import { R } from '../../client/resources.js';
import { QueueController, type ControllerOptions } from '../util/base.js';
import { releasePatch } from '../util/owner.js';

export const NAME = 'garbage-collector-controller';
export const ORPHAN = 'orphan';
export const FOREGROUND = 'foregroundDeletion';

type OwnerState = 'solid' | 'absent' | 'waiting';

export interface GarbageCollectorOptions extends ControllerOptions {
  /** Types whose objects are watched as owners and dependents; defaults to every type in R except events. */
  resources?: ResourceType[];
  /**
   * Also follow the resources of Established CRDs as they come and go (kube's GC re-reads discovery for every
   * deletable resource). On by default; off when `resources` is given, unless set.
   */
  customResources?: boolean;
}

const rtId = (rt: ResourceType) => `${rt.group}/${rt.resource}`;
const GC_VERBS = ['delete', 'list', 'watch'];

export class GarbageCollector extends QueueController {
  readonly name = NAME;
  private readonly client: Client;
  private readonly byId = new Map<string, { rt: ResourceType; informer: Informer<KubeObject> }>();
  private readonly byKind = new Map<string, ResourceType>();
  /** owner uid -> item keys of objects that list it as an owner */
  private readonly dependents = new Map<string, Set<string>>();
  /** The Established CRDs' resources being followed, by CRD name: their own informers, started and stopped here. */
  private readonly custom = new Map<string, { rt: ResourceType; informer: Informer<KubeObject> }>();
  private readonly crdInformer?: Informer<Crd>;
  private readonly base: { client: Client; clock: ControllerOptions['clock']; logger: ControllerOptions['logger'] };

  constructor(opts: GarbageCollectorOptions) {
    super(opts.clock, opts.logger.child(NAME), opts.workers ?? 5);
    this.client = opts.client;
    // Like kube's GC, only resources it can list, watch and delete (the Metrics API's are get/list: a watch would fail
    // and relist, scraping every kubelet each time).
    const resources = opts.resources ?? Object.values(R).filter((rt) => rt.resource !== 'events' && supportsVerbs(rt, GC_VERBS));
    for (const rt of Object.values(R)) this.byKind.set(`${rt.group}/${rt.kind}`, rt);
    for (const rt of resources) this.follow(rt, opts.informers.for<KubeObject>(rt));
    this.base = { client: opts.client, clock: opts.clock, logger: opts.logger.child(NAME) };
    if (opts.customResources ?? !opts.resources) {
      // Like the namespace controller, from the CRDs themselves: a controller-manager of its own process sees them too.
      const crds = (this.crdInformer = opts.informers.for<Crd>(R.customresourcedefinitions));
      crds.addHandler({ add: (c) => this.crdChanged(c), update: (_o, c) => this.crdChanged(c), delete: (c) => this.unfollowCrd(c.metadata.name!) });
    }
  }

  protected informersToSync() {
    const builtins = [...this.byId.values()].filter((x) => ![...this.custom.values()].includes(x)).map((x) => x.informer);
    return this.crdInformer ? [...builtins, this.crdInformer] : builtins;
  }

  override stop(): void {
    super.stop();
    for (const name of [...this.custom.keys()]) this.unfollowCrd(name);
  }

  /** Watches `rt`'s objects as owners and dependents. */
  private follow(rt: ResourceType, informer: Informer<KubeObject>): { rt: ResourceType; informer: Informer<KubeObject> } {
    const entry = { rt, informer };
    this.byId.set(rtId(rt), entry);
    this.byKind.set(`${rt.group}/${rt.kind}`, rt);
    informer.addHandler({
      add: (o) => this.observe(rt, undefined, o),
      update: (old, o) => this.observe(rt, old, o),
      delete: (o) => this.removed(rt, o),
    });
    return entry;
  }

  /** A CRD's resource as GC follows it: Established, at its preferred served version; undefined otherwise. */
  private crdResource(crd: Crd): ResourceType | undefined {
    if (!isConditionTrue(crd, 'Established')) return undefined;
    const names = { ...crd.spec.names, ...(crd.status?.acceptedNames ?? {}) };
    const served = crd.spec.versions.filter((v) => v.served).map((v) => v.name).sort(compareKubeAwareVersions);
    if (!served.length || !names.plural || !names.kind) return undefined;
    return { group: crd.spec.group, version: served[0], resource: names.plural, kind: names.kind, namespaced: crd.spec.scope === 'Namespaced' };
  }

  private crdChanged(crd: Crd): void {
    const name = crd.metadata.name!;
    const rt = this.crdResource(crd);
    const cur = this.custom.get(name);
    if (cur && rt && cur.rt.version === rt.version && rtId(cur.rt) === rtId(rt) && cur.rt.kind === rt.kind) return;
    if (cur) this.unfollowCrd(name);
    // A resource a built-in (or another CRD) already serves under the same path is followed there.
    if (!rt || this.byId.has(rtId(rt))) return;
    const informer = new Informer<KubeObject>({ ...this.base, resource: rt });
    this.custom.set(name, this.follow(rt, informer));
    informer.start();
    // Objects that named an owner of this kind before it was followed (its owner may be gone already): check again.
    void informer.waitForSync().then(() => {
      if (this.custom.get(name)?.informer === informer) this.requeueOwnedBy(rt);
    });
  }

  private unfollowCrd(name: string): void {
    const cur = this.custom.get(name);
    if (!cur) return;
    this.custom.delete(name);
    cur.informer.stop();
    this.byId.delete(rtId(cur.rt));
    this.byKind.delete(`${cur.rt.group}/${cur.rt.kind}`);
    // Its objects stop counting as dependents; owners of an unknown kind are never taken for gone.
    for (const o of cur.informer.list()) {
      const key = this.itemKey(cur.rt, o);
      for (const r of o.metadata.ownerReferences ?? []) this.dependents.get(r.uid)?.delete(key);
    }
  }

  private requeueOwnedBy(rt: ResourceType): void {
    for (const { rt: t, informer } of this.byId.values()) {
      for (const o of informer.list()) {
        if (o.metadata.ownerReferences?.some((r) => r.kind === rt.kind && parseApiVersion(r.apiVersion).group === rt.group)) this.queue.add(this.itemKey(t, o));
      }
    }
  }

  private itemKey(rt: ResourceType, o: KubeObject): string {
    return `${rtId(rt)}|${o.metadata.namespace ?? ''}|${o.metadata.name}`;
  }

  private observe(rt: ResourceType, old: KubeObject | undefined, o: KubeObject): void {
    const key = this.itemKey(rt, o);
    for (const r of old?.metadata.ownerReferences ?? []) this.dependents.get(r.uid)?.delete(key);
    for (const r of o.metadata.ownerReferences ?? []) {
      let s = this.dependents.get(r.uid);
      if (!s) this.dependents.set(r.uid, (s = new Set()));
      s.add(key);
    }
    const fins = o.metadata.finalizers ?? [];
    if (o.metadata.ownerReferences?.length || (o.metadata.deletionTimestamp && (fins.includes(ORPHAN) || fins.includes(FOREGROUND)))) {
      this.queue.add(key);
    }
  }

  private removed(rt: ResourceType, o: KubeObject): void {
    const key = this.itemKey(rt, o);
    for (const r of o.metadata.ownerReferences ?? []) {
      this.dependents.get(r.uid)?.delete(key);
      // An owner in foreground deletion may now be free to go.
      const owner = this.ownerKey(r, o.metadata.namespace);
      if (owner) this.queue.add(owner);
    }
    for (const dep of this.dependents.get(o.metadata.uid!) ?? []) this.queue.add(dep);
    this.dependents.delete(o.metadata.uid!);
  }

  private ownerKey(ref: OwnerReference, namespace: string | undefined): string | undefined {
    const rt = this.byKind.get(`${parseApiVersion(ref.apiVersion).group}/${ref.kind}`);
    if (!rt || !this.byId.has(rtId(rt))) return undefined;
    return `${rtId(rt)}|${rt.namespaced ? namespace ?? '' : ''}|${ref.name}`;
  }

  private parse(key: string): { rt: ResourceType; informer: Informer<KubeObject>; namespace: string; name: string } | undefined {
    const [id, namespace, name] = key.split('|');
    const e = this.byId.get(id);
    return e && { ...e, namespace, name };
  }

  private liveDependents(uid: string): { rt: ResourceType; obj: KubeObject }[] {
    const out: { rt: ResourceType; obj: KubeObject }[] = [];
    for (const k of this.dependents.get(uid) ?? []) {
      const p = this.parse(k);
      const obj = p && p.informer.get(p.namespace ? `${p.namespace}/${p.name}` : p.name);
      if (p && obj && obj.metadata.ownerReferences?.some((r) => r.uid === uid)) out.push({ rt: p.rt, obj });
    }
    return out;
  }

  async reconcile(key: string): Promise<void> {
    const p = this.parse(key);
    if (!p) return;
    const obj = p.informer.get(p.namespace ? `${p.namespace}/${p.name}` : p.name);
    if (!obj) return;
    const fins = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp && fins.includes(ORPHAN)) return this.orphanDependents(p.rt, obj);
    if (obj.metadata.deletionTimestamp && fins.includes(FOREGROUND)) return this.deleteDependentsFirst(p.rt, obj);
    if (obj.metadata.ownerReferences?.length && !obj.metadata.deletionTimestamp) return this.checkOwners(p.rt, obj);
  }

  /** The owner's state: gone (or replaced by a new uid), waiting for its dependents, or simply there. */
  private async ownerState(ref: OwnerReference, namespace: string | undefined): Promise<OwnerState> {
    const rt = this.byKind.get(`${parseApiVersion(ref.apiVersion).group}/${ref.kind}`);
    // An owner of a type we cannot look up is never assumed gone.
    if (!rt) return 'solid';
    const ns = rt.namespaced ? namespace : undefined;
    let owner = this.byId.get(rtId(rt))?.informer.get(ns ? `${ns}/${ref.name}` : ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) {
      // The cache may lag (a fresh owner) — ask the API server before deleting anything.
      try {
        owner = await this.client.get(rt, ns, ref.name);
      } catch (err) {
        if (isNotFound(err)) return 'absent';
        throw err;
      }
      if (owner.metadata.uid !== ref.uid) return 'absent';
    }
    return owner.metadata.deletionTimestamp && owner.metadata.finalizers?.includes(FOREGROUND) ? 'waiting' : 'solid';
  }

  private async checkOwners(rt: ResourceType, obj: KubeObject): Promise<void> {
    const refs = obj.metadata.ownerReferences ?? [];
    const states = await Promise.all(refs.map((r) => this.ownerState(r, obj.metadata.namespace)));
    const dangling = refs.filter((_, i) => states[i] === 'absent').map((r) => r.uid);
    if (states.includes('solid')) {
      if (dangling.length) await this.ignoreGone(this.client.patch(rt, obj.metadata.namespace, obj.metadata.name!, 'json', releasePatch(obj, dangling)));
      return;
    }
    // Every owner is gone or waiting: delete, in the foreground if an owner waits on us and we have dependents.
    const foreground = states.includes('waiting') && this.liveDependents(obj.metadata.uid!).length > 0;
    await this.ignoreGone(this.client.delete(rt, obj.metadata.namespace, obj.metadata.name!, {
      propagationPolicy: foreground ? 'Foreground' : 'Background', preconditions: { uid: obj.metadata.uid },
    }));
  }

  private async orphanDependents(rt: ResourceType, owner: KubeObject): Promise<void> {
    for (const d of this.liveDependents(owner.metadata.uid!)) {
      await this.ignoreGone(this.client.patch(d.rt, d.obj.metadata.namespace, d.obj.metadata.name!, 'json', releasePatch(d.obj, [owner.metadata.uid!])));
    }
    await this.removeFinalizer(rt, owner, ORPHAN);
  }

  private async deleteDependentsFirst(rt: ResourceType, owner: KubeObject): Promise<void> {
    const deps = this.liveDependents(owner.metadata.uid!);
    for (const d of deps) {
      if (d.obj.metadata.deletionTimestamp) continue;
      const policy = this.liveDependents(d.obj.metadata.uid!).length ? 'Foreground' : 'Background';
      await this.ignoreGone(this.client.delete(d.rt, d.obj.metadata.namespace, d.obj.metadata.name!, { propagationPolicy: policy, preconditions: { uid: d.obj.metadata.uid } }));
    }
    // Blocking dependents keep the owner until they are gone; their deletion events bring it back here.
    const blocking = this.liveDependents(owner.metadata.uid!)
      .filter((d) => d.obj.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid && r.blockOwnerDeletion));
    if (blocking.length) return;
    await this.removeFinalizer(rt, owner, FOREGROUND);
  }

  private async removeFinalizer(rt: ResourceType, obj: KubeObject, finalizer: string): Promise<void> {
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    await this.ignoreGone(this.client.patch(rt, obj.metadata.namespace, obj.metadata.name!, 'json', [
      { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
      { op: 'replace', path: '/metadata/finalizers', value: finalizers },
    ]));
  }

  private async ignoreGone(p: Promise<unknown>): Promise<void> {
    try {
      await p;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
