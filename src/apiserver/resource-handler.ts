// Resource requests: get, list, watch, create, update, patch, delete and deletecollection on a registry resource,
// with admission, validation, dry-run, field validation and Table rendering (apiserver pkg/endpoints/handlers).

import { fieldErr, StatusError } from '../api/errors.js';
import type { ResourceDecl } from '../api/interfaces.js';
import { getComponentSchemas } from '../api/openapi/index.js';
import type { KubeList, KubeObject } from '../api/types.js';
import type { AdmissionAttributes, Operation, UserInfo } from './admission/interfaces.js';
import { forbiddenReason, type AuthorizationAttributes } from './authz/interfaces.js';
import { addWarnings, warningValue } from './admission/warnings.js';
import { DEFAULT_VERBS } from './discovery.js';
import type { ServerRequest, ServerResponse, StorageHook, StorageTxn } from './interfaces.js';
import { listFilter } from './list-filter.js';
import { chooseRendering, decodeBody, decodeObjectBody, patchTypeOf } from './negotiate.js';
import type { RequestInfo } from './request-info.js';
import type { ResourceStore, WriteHooks } from './resource-store.js';
import { first, isTrue, json, type ApiServer, type ApiServerConfig } from './server.js';
import { deleteCollection, deleteOne } from './delete-handler.js';
import { handleSubresource } from './subresources.js';
import { typeMismatch } from './typed-decode.js';
import { watchResponse } from './watch-handler.js';
import { parseIncludeObject, toTable } from './table.js';

const NOT_FOUND_MESSAGE = 'the server could not find the requested resource';
const ITEM_VERBS = ['get', 'update', 'patch', 'delete'];
const COLLECTION_VERBS = ['list', 'watch', 'create', 'deletecollection'];
const ALL_NAMESPACES_VERBS = ['list', 'watch'];

/** go-restful's 405 for a method with no route on the path (apimachinery errors.NewGenericServerResponse). */
function routeMethodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

/**
 * The hooks of one write request, plus `settle`, which awaits the write and then commits the storage hook's
 * transaction, or reverts it when the write failed (e.g. AlreadyExists, or a validation error after allocation).
 */
export interface RequestHooks extends WriteHooks {
  settle(write: Promise<KubeObject>): Promise<KubeObject>;
}

/** What a body is decoded as, when not the resource itself (Scale, Binding, Eviction, DeleteOptions). */
export interface TypedTarget {
  definition?: string;
  kind?: string;
  apiVersion?: string;
}

export interface RequestContext {
  req: ServerRequest;
  info: RequestInfo;
  decl: ResourceDecl;
  rs: ResourceStore;
  user: UserInfo;
  dryRun: boolean;
  /** Response headers to add, e.g. Warning for fieldValidation=Warn. */
  headers: Record<string, string>;
}

export class ResourceHandler {
  constructor(readonly server: ApiServer, readonly cfg: ApiServerConfig) {}

  async handle(req: ServerRequest, info: RequestInfo, user: UserInfo): Promise<ServerResponse> {
    const decl = this.server.registry.lookup(info.group, info.version, info.resource);
    if (!decl) throw new StatusError(404, 'NotFound', NOT_FOUND_MESSAGE, {});
    const namespacedPath = info.namespace !== '' && !(info.resource === 'namespaces' && !info.group);
    if (!decl.namespaced && namespacedPath) throw new StatusError(404, 'NotFound', NOT_FOUND_MESSAGE, {});
    if (decl.namespaced && !namespacedPath && info.name) throw new StatusError(404, 'NotFound', NOT_FOUND_MESSAGE, {});
    await this.authorize(info, decl, user);
    // A path kube-apiserver routes, but not for this method: namespaced resources across namespaces only list and
    // watch, items take no POST, collections no PUT/PATCH, and a verb the resource does not declare has no route.
    if (!info.subresource) {
      const routed = info.name ? ITEM_VERBS : decl.namespaced && !namespacedPath ? ALL_NAMESPACES_VERBS : COLLECTION_VERBS;
      if (!routed.includes(info.verb) || !(decl.verbs ?? DEFAULT_VERBS).includes(info.verb)) throw routeMethodNotAllowed();
    }
    const dryRunParam = req.query?.dryRun;
    const dryRunValues = dryRunParam === undefined ? [] : Array.isArray(dryRunParam) ? dryRunParam : [dryRunParam];
    for (const v of dryRunValues) {
      if (v !== 'All') throw StatusError.badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
    }
    const ctx: RequestContext = {
      req, info, decl, rs: this.server.stores.get(decl)!, user, dryRun: dryRunValues.length > 0, headers: {},
    };
    const namespace = decl.namespaced ? info.namespace : undefined;
    if (info.subresource) return handleSubresource(this, ctx, namespace);
    switch (info.verb) {
      case 'get': return this.render(ctx, await ctx.rs.get(namespace, info.name));
      case 'list': return this.list(ctx, namespace);
      case 'watch': return watchResponse(this, ctx, namespace);
      case 'create': return this.create(ctx, namespace);
      case 'update': return this.update(ctx, namespace, info.name);
      case 'patch': return this.patch(ctx, namespace, info.name);
      case 'delete': return deleteOne(this, ctx, namespace, info.name);
      case 'deletecollection': return deleteCollection(this, ctx, namespace);
    }
    throw StatusError.methodNotAllowed(info.verb, decl.group, decl.plural);
  }

  /** Asks the authorizer; anything but Allow is kube-apiserver's 403 (a `<resource> "<name>" is forbidden: User ...`). */
  private async authorize(info: RequestInfo, decl: ResourceDecl, user: UserInfo): Promise<void> {
    if (!this.cfg.authorizer) return;
    const attrs: AuthorizationAttributes = {
      user, verb: info.verb, isResourceRequest: true, group: decl.group, resource: decl.plural, subresource: info.subresource,
      namespace: decl.namespaced ? info.namespace : '', name: info.name, path: info.path,
    };
    const res = await this.cfg.authorizer.authorize(attrs);
    if (res.decision !== 'Allow') throw StatusError.forbidden(decl.group, decl.plural, info.name, forbiddenReason(attrs, res.reason));
  }

  /** JSON or Table rendering of one object or a list, per the Accept header. */
  render(ctx: RequestContext, body: KubeObject | KubeList, status = 200): ServerResponse {
    const rendering = chooseRendering(ctx.req.accept);
    if (!rendering) throw StatusError.notAcceptable('only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io');
    if (rendering.kind === 'table' && ctx.decl.table) {
      const isList = Array.isArray((body as KubeList).items);
      const objects = isList ? (body as KubeList).items : [body as KubeObject];
      const listMeta = isList ? (body as KubeList).metadata : { resourceVersion: (body as KubeObject).metadata.resourceVersion };
      const table = toTable(ctx.decl.table, objects, listMeta, {
        includeObject: parseIncludeObject(first(ctx.req.query?.includeObject)),
        tableVersion: rendering.tableVersion ?? 'v1',
        now: this.cfg.clock.now(),
      });
      return json(status, table, ctx.headers);
    }
    return json(status, body, ctx.headers);
  }

  private async list(ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
    const q = ctx.req.query ?? {};
    const filter = listFilter(ctx.decl, first(q.labelSelector), first(q.fieldSelector));
    const limitText = first(q.limit);
    const limit = limitText ? Number(limitText) : undefined;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw StatusError.badRequest(`limit: Invalid value: "${limitText}"`);
    const list = await ctx.rs.list(namespace, { filter, limit, continueToken: first(q.continue) || undefined });
    return this.render(ctx, list);
  }

  /** Decodes a write body and checks it names this resource type (kube's decoder rules). */
  decodeObject(ctx: RequestContext): KubeObject {
    const body = decodeObjectBody(decodeBody(ctx.req.body, ctx.req.contentType), ctx.decl.kind);
    // No copy: ApiServer.handle owns the request body (the HTTP server parses a fresh one, the in-process transport
    // hands over its own copy), and a created object becomes the stored one (ResourceStore.put).
    return this.checkTypes(ctx, this.checkKind(ctx, body as KubeObject), 'decode');
  }

  /**
   * The typed decoder's check (typed-decode.ts): a field of the wrong JSON type is a 400 when a body is decoded,
   * a 422 on the `patch` field when a patch produced it, and a 400 for a server-side apply configuration.
   * `patchText` is what kube prints as the patch's invalid value (the patched object, or the strategic patch).
   */
  checkTypes<T>(ctx: RequestContext, obj: T, how: 'decode' | 'patch' | 'apply', target: TypedTarget = {}, patchText?: string): T {
    const definition = target.definition ?? ctx.decl.definition;
    if (!definition) return obj;
    const bad = typeMismatch(getComponentSchemas(), definition, obj);
    if (!bad) return obj;
    const kind = target.kind ?? ctx.decl.kind;
    const apiVersion = target.apiVersion ?? ctx.rs.apiVersion;
    if (how === 'patch') {
      // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyPatchToCurrentObject / applyPatchToObject.
      throw StatusError.invalid('', '', '', [fieldErr.invalid('patch', patchText ?? JSON.stringify(obj), bad.message)]);
    }
    if (how === 'apply') {
      // staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go (a 400 since kubernetes#139255).
      const meta = (obj as KubeObject).metadata ?? {};
      const str = (v: unknown) => (typeof v === 'string' ? v : '');
      const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
      throw StatusError.badRequest(`failed to create typed patch object (${str(meta.namespace)}/${str(meta.name)}; ${gv}, Kind=${kind}): .${bad.path}: expected ${bad.goType}, got ${bad.got}`);
    }
    // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go transformDecodeError.
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
    throw StatusError.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${bad.message}`);
  }

  checkKind(ctx: RequestContext, obj: KubeObject, expectKind = ctx.decl.kind, expectApiVersion = ctx.rs.apiVersion): KubeObject {
    for (const field of ['apiVersion', 'kind'] as const) {
      const v: unknown = obj[field];
      if (v !== undefined && v !== null && typeof v !== 'string') {
        // The decoder reads apiVersion/kind into an anonymous struct first (apimachinery runtime/serializer/json meta.go).
        const got = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
        throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${expectKind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${got} into Go struct field .${field} of type string`);
      }
    }
    if (obj.apiVersion !== undefined && obj.apiVersion !== expectApiVersion) {
      throw StatusError.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expectApiVersion})`);
    }
    if (obj.kind !== undefined && obj.kind !== expectKind) {
      throw StatusError.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${expectKind})`);
    }
    if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
    if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) {
      throw StatusError.badRequest(`metadata: Invalid value: ${JSON.stringify(obj.metadata)}: must be an object`);
    }
    this.checkFields(ctx, obj);
    return obj;
  }

  /** fieldValidation=Strict|Warn|Ignore against the OpenAPI schema (kubectl sends Strict by default). */
  checkFields(ctx: RequestContext, obj: KubeObject): void {
    const mode = first(ctx.req.query?.fieldValidation) ?? 'Warn';
    if (!['Strict', 'Warn', 'Ignore'].includes(mode)) {
      throw StatusError.badRequest(`fieldValidation: Unsupported value: "${mode}": supported values: "Ignore", "Strict", "Warn"`);
    }
    if (!this.cfg.openapi?.unknownFields) return;
    // Warn and Ignore decode as Go does into the typed object: fields the type lacks are dropped (Warn says which).
    const unknown = this.cfg.openapi.unknownFields(ctx.decl, obj, mode !== 'Strict');
    if (!unknown.length) return;
    if (mode === 'Strict') {
      throw StatusError.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
    }
    if (mode === 'Warn') ctx.headers.Warning = unknown.map((f) => warningValue(`unknown field "${f}"`)).join(', ');
  }

  /** The resource's registry-storage hook (ApiServerConfig.storageHooks), e.g. Service IP allocation. */
  storageHook(ctx: RequestContext): StorageHook | undefined {
    const key = ctx.decl.group ? `${ctx.decl.group}/${ctx.decl.plural}` : ctx.decl.plural;
    return this.cfg.storageHooks?.[key];
  }

  /** Defaulting, admission and validation around a write (the order kube-apiserver runs them). */
  hooks(ctx: RequestContext, operation: Operation, namespace: string | undefined, subresource = '', trackFields = true): RequestHooks {
    const { strategy } = ctx.decl;
    const storageHook = subresource ? undefined : this.storageHook(ctx);
    // One write runs mutate then validate on the same object; a retried update runs both again.
    let attrs: AdmissionAttributes | undefined;
    // The storage hook's work for the latest attempt, settled when the write is done.
    let pending: StorageTxn | undefined;
    const take = () => {
      const txn = pending;
      pending = undefined;
      return txn;
    };
    return {
      mutate: async (obj, old) => {
        if (!subresource) strategy.defaults?.(obj);
        attrs = {
          operation, decl: ctx.decl, namespace: namespace ?? '', name: obj.metadata.name ?? '', subresource,
          object: obj, oldObject: old, user: ctx.user, dryRun: ctx.dryRun, warnings: [],
        };
        await this.cfg.admission?.admit(attrs, this.server.lookup);
      },
      validate: async (obj, old) => {
        const a = attrs!;
        a.name = obj.metadata.name ?? a.name;
        const sctx = { now: this.cfg.clock.now(), subresource: subresource || undefined };
        const errs = old ? [...(strategy.validate?.(obj) ?? []), ...(strategy.validateUpdate?.(obj, old, sctx) ?? [])] : strategy.validate?.(obj) ?? [];
        if (errs.length) throw StatusError.invalid(ctx.decl.group, ctx.decl.kind, obj.metadata.name ?? '', errs);
        await this.cfg.admission?.validate(a, this.server.lookup);
        addWarnings(ctx.headers, a.warnings);
        if (storageHook) {
          // A retried update starts over on a newer object: what the failed attempt allocated goes back first.
          await take()?.revert();
          pending = await storageHook.beforeWrite(obj, old, this.server.lookup, ctx.dryRun);
        }
        if (trackFields) this.trackManagedFields(ctx, obj, old, subresource);
      },
      settle: async (write) => {
        let stored: KubeObject;
        try {
          stored = await write;
        } catch (err) {
          await take()?.revert();
          throw err;
        }
        await take()?.commit(stored);
        return stored;
      },
    };
  }

  /**
   * Records the writer in metadata.managedFields (an `Update` entry), so a later server-side apply conflicts with what
   * e.g. `kubectl scale` changed. Only for writes that name a field manager, or objects whose fields are already
   * tracked: the components' own high-volume writes (bindings, kubelet status) stay cheap.
   */
  private trackManagedFields(ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined, subresource: string): void {
    const named = first(ctx.req.query?.fieldManager);
    if (!this.cfg.patcher.trackUpdate || (!named && !old?.metadata.managedFields)) return;
    // Without fieldManager kube-apiserver names the manager after the User-Agent's product (e.g. `kubectl`); the
    // in-process components have no User-Agent, so their user name stands in (system:kube-scheduler → kube-scheduler).
    const manager = named || ctx.req.userAgent?.split('/')[0] || ctx.user.name.replace(/^system:/, '');
    obj.metadata.managedFields = this.cfg.patcher.trackUpdate(old, obj, ctx.decl, manager, subresource);
  }

  private async create(ctx: RequestContext, namespace: string | undefined): Promise<ServerResponse> {
    const obj = this.decodeObject(ctx);
    if (ctx.decl.namespaced && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (!obj.metadata.name && !obj.metadata.generateName) {
      throw StatusError.invalid(ctx.decl.group, ctx.decl.kind, '', [fieldErr.required('metadata.name', 'name or generateName is required')]);
    }
    const hooks = this.hooks(ctx, 'CREATE', namespace);
    const created = await hooks.settle(ctx.rs.create(namespace, obj, hooks, { dryRun: ctx.dryRun }));
    return json(201, created, ctx.headers);
  }

  private async update(ctx: RequestContext, namespace: string | undefined, name: string, subresource = ''): Promise<ServerResponse> {
    const obj = this.decodeObject(ctx);
    // handlers/rest.go checkName: a body without a name does not match either.
    if ((obj.metadata.name ?? '') !== name) {
      throw StatusError.badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    if (ctx.decl.namespaced && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const hooks = this.hooks(ctx, 'UPDATE', namespace, subresource);
    const updated = await hooks.settle(ctx.rs.update(namespace, name, () => obj, hooks,
      { dryRun: ctx.dryRun, subresource, pinnedRV: obj.metadata.resourceVersion || undefined }));
    return json(200, updated, ctx.headers);
  }

  /** PUT to /status goes through the same path with the status strategy. */
  updateStatus(ctx: RequestContext, namespace: string | undefined, name: string): Promise<ServerResponse> {
    return this.update(ctx, namespace, name, 'status');
  }

  async patch(ctx: RequestContext, namespace: string | undefined, name: string, subresource = ''): Promise<ServerResponse> {
    const type = patchTypeOf(ctx.req.contentType);
    const body = decodeBody(ctx.req.body, ctx.req.contentType, true);
    if (body === undefined) throw StatusError.badRequest('the body of the request was empty');
    const hooks = this.hooks(ctx, 'UPDATE', namespace, subresource);
    if (type === 'apply') return this.apply(ctx, namespace, name, body, subresource);
    const updated = await hooks.settle(ctx.rs.update(namespace, name, (current) => {
      const patched = this.cfg.patcher.apply(type, current, body, ctx.decl);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
        throw StatusError.badRequest('the patch produced an object that is not a JSON object');
      }
      return this.checkTypes(ctx, this.checkKind(ctx, patched), 'patch', {}, type === 'strategic' ? JSON.stringify(body) : undefined);
    }, hooks, { dryRun: ctx.dryRun, subresource }));
    return json(200, updated, ctx.headers);
  }

  private async apply(ctx: RequestContext, namespace: string | undefined, name: string, body: unknown, subresource: string): Promise<ServerResponse> {
    const q = ctx.req.query ?? {};
    const manager = first(q.fieldManager);
    if (!manager) throw StatusError.invalid(ctx.decl.group, ctx.decl.kind, name, [fieldErr.required('fieldManager', 'is required for apply patch')]);
    const ssa = this.cfg.patcher.serverSideApply;
    if (!ssa) throw StatusError.unsupportedMediaType('application/apply-patch+yaml');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw StatusError.badRequest('apply patch must be an object');
    const applied = this.checkTypes(ctx, this.checkKind(ctx, body as KubeObject), 'apply');
    const force = isTrue(first(q.force));
    const exists = ctx.rs.cache.get(ctx.rs.key(namespace, name));
    if (!exists && !subresource) {
      if (applied.metadata.name && applied.metadata.name !== name) {
        throw StatusError.badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`);
      }
      const obj = ssa(undefined, applied, ctx.decl, manager, force);
      obj.metadata.name = name;
      const createHooks = this.hooks(ctx, 'CREATE', namespace, '', false);
      const created = await createHooks.settle(ctx.rs.create(namespace, obj, createHooks, { dryRun: ctx.dryRun }));
      return json(201, created, ctx.headers);
    }
    const hooks = this.hooks(ctx, 'UPDATE', namespace, subresource, false);
    const updated = await hooks.settle(ctx.rs.update(namespace, name, (current) => ssa(current, applied, ctx.decl, manager, force),
      hooks, { dryRun: ctx.dryRun, subresource }));
    return json(200, updated, ctx.headers);
  }
}
