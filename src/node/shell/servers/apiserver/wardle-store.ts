// The e2e sample-apiserver's wardle.example.com resources in memory (the upstream image keeps them in an etcd
// sidecar; a pod restart loses both alike): flunders (namespaced) and fischers (cluster-scoped), with v1alpha1's
// defaulting, the internal validation and the BanFlunder admission plugin (kubernetes/sample-apiserver pkg/apis/
// wardle/v1alpha1/defaults.go, pkg/apis/wardle/validation, pkg/admission/plugin/banflunder).

import { randomUUID } from 'node:crypto';

export interface WardleObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; generateName?: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string; labels?: Record<string, string>; [k: string]: unknown };
  spec?: { reference?: string; referenceType?: string; [k: string]: unknown };
  disallowedFlunders?: string[];
  [k: string]: unknown;
}

export interface Failure { code: number; reason: string; message: string; details?: Record<string, unknown> }

export const WARDLE_GROUP = 'wardle.example.com';

/** One change, as the registry's watch sends it (the object carries the change's resourceVersion). */
export interface WardleEvent { type: 'ADDED' | 'MODIFIED' | 'DELETED'; resource: string; object: WardleObject }

/** How many past changes a watch from a resourceVersion can replay (the cacher's window; older ones get 410). */
export const WATCH_HISTORY = 1000;

/** The collections and the one resourceVersion counter etcd would keep. */
export class WardleStore {
  private rv = 1;
  private readonly data = new Map<string, Map<string, WardleObject>>([['flunders', new Map()], ['fischers', new Map()]]);
  private readonly history: WardleEvent[] = [];
  private readonly watchers = new Set<(ev: WardleEvent) => void>();

  constructor(private readonly now: () => number) {}

  get revision(): string {
    return String(this.rv);
  }

  list(resource: string, namespace?: string): WardleObject[] {
    return [...(this.data.get(resource)?.values() ?? [])].filter((o) => !namespace || o.metadata.namespace === namespace)
      .sort((a, b) => `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace ?? ''}/${b.metadata.name}`));
  }

  get(resource: string, namespace: string | undefined, name: string): WardleObject | Failure {
    return this.data.get(resource)?.get(key(namespace, name)) ?? notFound(resource, name);
  }

  create(resource: string, namespace: string | undefined, obj: WardleObject): WardleObject | Failure {
    const meta = obj.metadata ?? {};
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${Math.random().toString(36).slice(2, 7)}`;
    if (!meta.name) return invalid(resource, '', [{ field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
    meta.namespace = namespace;
    if (!namespace) delete meta.namespace;
    const bad = this.admit(resource, obj) ?? validate(resource, obj);
    if (bad) return bad;
    const coll = this.data.get(resource)!;
    if (coll.has(key(namespace, meta.name))) {
      return { code: 409, reason: 'AlreadyExists', message: `${resource}.${WARDLE_GROUP} "${meta.name}" already exists`, details: { name: meta.name, group: WARDLE_GROUP, kind: resource } };
    }
    meta.uid = randomUUID();
    meta.creationTimestamp = new Date(Math.floor(this.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    meta.resourceVersion = String(++this.rv);
    const stored = { ...obj, metadata: meta };
    coll.set(key(namespace, meta.name), stored);
    this.emit({ type: 'ADDED', resource, object: stored });
    return stored;
  }

  update(resource: string, namespace: string | undefined, name: string, obj: WardleObject): WardleObject | Failure {
    const cur = this.get(resource, namespace, name);
    if ('code' in cur) return cur;
    if (obj.metadata?.resourceVersion && obj.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      return { code: 409, reason: 'Conflict', message: `Operation cannot be fulfilled on ${resource}.${WARDLE_GROUP} "${name}": the object has been modified; please apply your changes to the latest version and try again`, details: { name, group: WARDLE_GROUP, kind: resource } };
    }
    const bad = validate(resource, obj);
    if (bad) return bad;
    const next = { ...obj, metadata: { ...obj.metadata, name, namespace, uid: cur.metadata.uid, creationTimestamp: cur.metadata.creationTimestamp, resourceVersion: String(++this.rv) } };
    if (!namespace) delete next.metadata.namespace;
    this.data.get(resource)!.set(key(namespace, name), next);
    this.emit({ type: 'MODIFIED', resource, object: next });
    return next;
  }

  delete(resource: string, namespace: string | undefined, name: string): WardleObject | Failure {
    const cur = this.get(resource, namespace, name);
    if ('code' in cur) return cur;
    this.data.get(resource)!.delete(key(namespace, name));
    this.rv++;
    // etcd's delete event carries the deletion's revision.
    this.emit({ type: 'DELETED', resource, object: { ...cur, metadata: { ...cur.metadata, resourceVersion: String(this.rv) } } });
    return cur;
  }

  /**
   * Watches one collection: from "" or "0" the current objects as ADDED first, from a later resourceVersion the
   * changes after it (410 Expired when it is older than the kept history), then every change as it happens.
   */
  watch(resource: string, namespace: string | undefined, from: string | undefined, send: (ev: WardleEvent) => void): (() => void) | Failure {
    const mine = (ev: WardleEvent) => ev.resource === resource && (!namespace || ev.object.metadata.namespace === namespace);
    if (!from || from === '0') {
      for (const object of this.list(resource, namespace)) send({ type: 'ADDED', resource, object });
    } else {
      const after = Number(from);
      if (!/^\d+$/.test(from)) return { code: 400, reason: 'BadRequest', message: `resourceVersion: Invalid value: "${from}": strconv.ParseUint: parsing "${from}": invalid syntax` };
      const oldest = this.history.length ? Number(this.history[0].object.metadata.resourceVersion) : this.rv + 1;
      if (after + 1 < oldest && after < this.rv) return { code: 410, reason: 'Expired', message: `too old resource version: ${after} (${oldest - 1})` };
      for (const ev of this.history) if (Number(ev.object.metadata.resourceVersion) > after && mine(ev)) send(ev);
    }
    const fn = (ev: WardleEvent) => { if (mine(ev)) send(ev); };
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  /** Open watches (the program closes them when it stops). */
  get watching(): number {
    return this.watchers.size;
  }

  private emit(ev: WardleEvent): void {
    this.history.push(ev);
    if (this.history.length > WATCH_HISTORY) this.history.shift();
    for (const w of [...this.watchers]) w(ev);
  }

  /** BanFlunder: a flunder may not carry a name some fischer disallows. */
  private admit(resource: string, obj: WardleObject): Failure | undefined {
    if (resource !== 'flunders') return undefined;
    const name = obj.metadata.name ?? '';
    for (const f of this.list('fischers')) {
      if ((f.disallowedFlunders ?? []).includes(name)) {
        return { code: 403, reason: 'Forbidden', message: `flunders.${WARDLE_GROUP} "${name}" is forbidden: this name may not be used, please change the resource name`, details: { name, group: WARDLE_GROUP, kind: 'flunders' } };
      }
    }
    return undefined;
  }
}

const key = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

function notFound(resource: string, name: string): Failure {
  return { code: 404, reason: 'NotFound', message: `${resource}.${WARDLE_GROUP} "${name}" not found`, details: { name, group: WARDLE_GROUP, kind: resource } };
}

function invalid(resource: string, name: string, causes: { field: string; message: string }[]): Failure {
  const kind = resource === 'flunders' ? 'Flunder' : 'Fischer';
  const body = causes.map((c) => `${c.field}: ${c.message}`);
  return {
    code: 422, reason: 'Invalid', message: `${kind}.${WARDLE_GROUP} "${name}" is invalid: ${body.length === 1 ? body[0] : `[${body.join(', ')}]`}`,
    details: { name, group: WARDLE_GROUP, kind, causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message.replace(/^Required value: /, ''), field: c.field })) },
  };
}

/** SetDefaults_FlunderSpec, then ValidateFlunderSpec on the internal form (reference split by its type). */
function validate(resource: string, obj: WardleObject): Failure | undefined {
  if (resource !== 'flunders') return undefined;
  const spec = (obj.spec ??= {});
  if (!spec.referenceType && spec.reference) spec.referenceType = 'Flunder';
  const type = spec.referenceType ?? '';
  const flunderRef = type === 'Flunder' ? spec.reference ?? '' : '';
  const fischerRef = type === 'Fischer' ? spec.reference ?? '' : '';
  const errs: { field: string; message: string }[] = [];
  const q = JSON.stringify;
  if (type === 'Fischer' && !fischerRef) errs.push({ field: 'spec.fischerReference', message: `Invalid value: ${q(fischerRef)}: cannot be empty if referenceType is Fischer` });
  else if (type === 'Flunder' && !flunderRef) errs.push({ field: 'spec.flunderReference', message: `Invalid value: ${q(flunderRef)}: cannot be empty if referenceType is Flunder` });
  if (type && type !== 'Flunder' && type !== 'Fischer') errs.push({ field: 'spec.referenceType', message: `Invalid value: ${q(type)}: must be Flunder or Fischer` });
  return errs.length ? invalid(resource, obj.metadata.name ?? '', errs) : undefined;
}
